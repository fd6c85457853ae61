"""A booking as a PMS feed reader needs it: the service's booking and booking-room fields
(https://docs.channex.io/api-v.1-documentation/bookings-collection, "Message Structures").

What follows from what a revision stores is worked out as it is read, so every revision shows it, those
stored before these fields existed too: `system_id` (the revision's own ID: Frontdesk is where the message
is kept), `ota_reservation_code` (the reservation's code at its source, our `reservation_id`), the total
`occupancy`, and each room's `checkin_date`, `checkout_date`, `amount`, `booking_room_id` (the same for
a room of a booking in every revision) and `guests_ages` (none in revisions stored before it was taken). What
only the write knows is stored with it: `ota_commission` and each room's `taxes`.
"""

from __future__ import annotations

import uuid
from typing import Any

from backend.core.money import format_minor, parse_money

ROOMS = uuid.UUID("6f1c3d5e-2b7a-4c8e-9f10-b00c1a2d3e4f")  # the namespace of booking_room_id
PRICE_MODES = {"percent": "Per booking", "per_booking": "Per booking", "per_room": "Per booking",
               "per_room_per_night": "Per night", "per_night": "Per night", "per_person": "Per person",
               "per_person_per_night": "Per person per night"}


def feed_view(booking: dict[str, Any]) -> dict[str, Any]:
    rooms = [_room(room, booking) for room in booking["rooms"]]
    occupancy = {kind: sum(room["occupancy"].get(kind, 0) for room in rooms) for kind in ("adults", "children", "infants")}
    return {**booking, "system_id": booking["revision_id"], "ota_reservation_code": booking["reservation_id"],
            "occupancy": occupancy, "ota_commission": booking.get("ota_commission"), "rooms": rooms}


def _room(room: dict[str, Any], booking: dict[str, Any]) -> dict[str, Any]:
    currency = booking["currency"]
    amount = sum(parse_money(price, currency) for price in room["days"].values() if price is not None)
    return {**room, "booking_room_id": str(uuid.uuid5(ROOMS, f"{booking['id']}/{room['index']}")),
            "checkin_date": booking["arrival_date"], "checkout_date": booking["departure_date"],
            "amount": format_minor(amount, currency), "taxes": room.get("taxes", []),
            "guests_ages": room.get("guests_ages", [])}


def room_taxes(taxes: list[tuple[dict[str, Any], int]], nights: int, persons: int, currency: str) -> list[dict[str, Any]]:
    """A booked room's taxes (each as shown, with what it comes to in minor units), in the service's booking shape:
    `price_per_unit` a unit's rate for an amount, the whole tax for a percent."""
    return [{"name": tax["title"], "type": tax["type"], "is_inclusive": tax["inclusive"],
             "total_price": format_minor(minor, currency), "price_mode": PRICE_MODES[tax["mode"]], "nights": nights,
             "persons": persons,
             "price_per_unit": format_minor(minor, currency) if tax["mode"] == "percent" else tax["rate"]}
            for tax, minor in taxes]
