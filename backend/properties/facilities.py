"""The property facility catalogue, seeded into every database with stable IDs."""

from __future__ import annotations

import uuid
from functools import cache
from typing import Any

from backend.properties.store import add_facilities, facility_count, facility_ids, facility_list
from storage import Store

NAMESPACE = uuid.UUID("6f1c1a52-3b0e-4d35-9a4c-2f1f7a6c9e10")

CATALOGUE: dict[str, tuple[str, ...]] = {
    "General": ("24-hour front desk", "Air conditioning", "Heating", "Elevator", "Non-smoking rooms",
                "Family rooms", "Luggage storage", "Express check-in/check-out", "Wheelchair accessible",
                "Pet friendly", "Laundry", "Garden", "Terrace", "Safety deposit box"),
    "Internet": ("Free WiFi", "Paid WiFi", "Wired internet"),
    "Parking": ("Free parking", "Paid parking", "EV charging station", "Valet parking"),
    "Food & drink": ("Restaurant", "Bar", "Breakfast", "Room service", "Kitchen", "Snack bar"),
    "Wellness": ("Spa", "Sauna", "Fitness centre", "Indoor pool", "Outdoor pool", "Hot tub"),
    "Services": ("Airport shuttle", "Concierge", "Tour desk", "Bicycle rental", "Car rental",
                 "Meeting rooms", "Business centre"),
    "Outdoors": ("Beachfront", "Ski-to-door access", "Ski storage", "BBQ facilities", "Hiking", "Private beach"),
}


def facility_id(title: str) -> str:
    return str(uuid.uuid5(NAMESPACE, title))


@cache
def by_id() -> dict[str, dict[str, str]]:
    """The catalogue's facilities by ID, as `{id, category, title}`: what every database is seeded with."""
    return {facility_id(t): {"id": facility_id(t), "category": c, "title": t} for c, titles in CATALOGUE.items()
            for t in titles}


class Facilities:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._ids: frozenset[str] | None = None

    def seed(self) -> None:
        """Add what the catalogue lacks. A read when nothing does: opening the engine must not take the
        write lock, or a console would wait on a busy server just to start."""
        rows = [(facility_id(t), category, t) for category, titles in CATALOGUE.items() for t in titles]
        if facility_count(self.store) >= len(rows):
            return
        with self.store.transaction() as conn:
            add_facilities(conn, rows)

    def ids(self) -> frozenset[str]:
        if self._ids is None:
            self._ids = frozenset(facility_ids(self.store))
        return self._ids

    def list(self) -> list[dict[str, Any]]:
        return [dict(r) for r in facility_list(self.store)]
