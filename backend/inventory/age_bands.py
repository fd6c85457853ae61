"""Who counts as an infant, a child or an adult, by age: the one rule behind the prices `rooms` shows for children's
ages (backend/shopping/stay_query.py) and the price push_booking charges for a room's `guests_ages` (backend/bookings/ages.py),
so that a guest is booked at the price they were shown.

A property's hotel policy sets the bands: a child up to `infant_max_age` is an infant, up to `children_max_age` a
child, older an adult — both ages included, as Booking.com reads a max age. A property without a policy has the
spec's bands (infants under 2, children 2 to 16, adults over 16).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from backend.inventory.stays import Guests
from backend.inventory.store import policies_of
from storage import Reads


@dataclass(frozen=True)
class Bands:
    """Who counts as an infant, a child or an adult, by age (each bound included)."""

    infant_max_age: int | None  # None: nobody is an infant
    children_max_age: int

    @classmethod
    def of(cls, policy: Mapping[str, Any] | None) -> Bands:
        return SPEC_BANDS if policy is None else cls(policy.get("infant_max_age"), policy["children_max_age"])

    def party(self, adults: int, ages: Iterable[int], infants: int = 0) -> Guests:
        """`adults`, each age counted as an infant, a child or an adult, and `infants` more whose ages are not given."""
        children = 0
        for age in ages:
            if self.infant_max_age is not None and age <= self.infant_max_age:
                infants += 1
            elif age <= self.children_max_age:
                children += 1
            else:
                adults += 1
        return Guests(adults, children, infants)


SPEC_BANDS = Bands(1, 16)  # the spec's: infants under 2, children 2 to 16, adults over 16


def bands_of(store: Reads, property_ids: Iterable[str]) -> dict[str, Bands]:
    """Each property's bands, from its hotel policy; the spec's for one without a policy."""
    ids = list(property_ids)
    if not ids:
        return {}
    policies = {r[0]: Bands.of(from_json(r[1])) for r in policies_of(store, ids)}
    return {pid: policies.get(pid, SPEC_BANDS) for pid in ids}
