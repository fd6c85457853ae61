"""The party a pushed room is priced and checked for: its guests' ages when it gives them all, else its occupancy.

A booking engine counts every guest under 18 as a child: Channex's own (ChannexIO/instant_booking_page,
src/components/payment_form/utils/builld_booking.js) pushes `occupancy` with `infants: 0` and the children's ages in
`guests_ages`. The shopping API's `rooms` showed that page a price with each age counted by the property's bands
(backend/inventory/age_bands.py): a 15-year-old may be an adult, a 1-year-old an infant. So when a room gives one age for each
child and infant of its occupancy, those ages decide what each one is, by the same rule, and the split the counts
sent is not read: the guest is charged what they were shown. Adults stay as counted. With fewer ages, or one left
blank (null), the counts price the room as sent; more ages than children and infants is a 422 (RoomIn).

The booking's room then holds the party it was priced for as its `occupancy` (with `ages` as sent) and the ages
as sent in `guests_ages`.
"""

from __future__ import annotations

from backend.bookings.models import RoomIn
from backend.inventory.age_bands import Bands
from backend.inventory.stays import Guests


def by_ages(room: RoomIn) -> bool:
    """Whether the room's ages decide its party: one for each child and infant, none left blank."""
    ages, occupancy = room.guests_ages, room.occupancy
    return bool(ages) and None not in ages and len(ages) == occupancy.children + occupancy.infants


def party(room: RoomIn, bands: Bands) -> Guests:
    occupancy = room.occupancy
    if by_ages(room):
        return bands.party(occupancy.adults, room.guests_ages)  # type: ignore[arg-type]  # no None: by_ages
    return Guests(occupancy.adults, occupancy.children, occupancy.infants)
