"""How staff find a booking: by a guest's name, and by where its stay stands on its property's own today.

Names are kept beside the booking, folded for search (`guest_names`, one person a line), from the booking as
stored, card numbers masked. Properties keep their own time zones, so one list's "today" may be several dates:
each booking is compared with its property's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic_core import from_json

from backend.bookings.store import (
    STAYS,
    property_timezones,
    property_today,
    set_guest_names,
    stay_condition,
    unnamed_bookings,
)
from backend.core.dates import local_now
from backend.core.listing import View, fold
from storage import Store


def guest_names(booking: dict[str, Any]) -> str:
    """The customer's name and every room guest's, folded, once each, one a line."""
    people = [booking.get("customer") or {}, *(guest for room in booking["rooms"] for guest in room.get("guests") or [])]
    names = (fold(" ".join(part for part in (person.get("name"), person.get("surname")) if part)) for person in people)
    return "\n".join(name for name in dict.fromkeys(names) if name)


def name_unnamed(store: Store) -> None:
    """Name the bookings stored before their guests' names were kept, from each one's latest revision."""
    with store.transaction() as conn:
        rows = unnamed_bookings(conn)
        set_guest_names(conn, [(guest_names(from_json(attributes)), booking_id) for booking_id, attributes in rows])


def stay_view(store: Store, clock: Callable[[], datetime]) -> View:
    """`filter[stay]`: arriving today, departing today or in house (staying tonight), by each property's today
    (the views' conditions are backend/bookings/store.py's `STAYS`)."""

    def condition(value: str) -> tuple[str, list[Any]]:
        today, params = _todays(store, clock())
        return stay_condition(value, today, params)

    return View(tuple(STAYS), condition)


def _todays(store: Store, now: datetime) -> tuple[str, list[Any]]:
    """An SQL expression for the today of the property `p`, and its parameters: a date for each time zone that
    properties keep (a property without one keeps UTC's)."""
    zones = property_timezones(store)
    utc = local_now(None, now).date().isoformat()
    return property_today([(zone, local_now(zone, now).date().isoformat()) for zone in zones], utc)
