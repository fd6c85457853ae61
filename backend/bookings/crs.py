"""The service's Booking CRS bodies (POST and PUT /api/v1/bookings,
https://docs.channex.io/api-v.1-documentation/booking-crs-api) as push_booking's: an integrator builds them from
the booking it read (`GET /bookings/:id`), so what that answer holds is taken as it would expect.

- What the booking's answer shows but no write sets (`id`, `unique_id`, `revision_id`, `amount`, `occupancy`, a
  room's `booking_room_id`, `checkin_date`, `amount`, `taxes`...) is left out.
- `ota_name` is left out: the booking's channel names it ("Offline" for the property's own).
- An empty `arrival_hour` is no hour.
- A room's `room_type_id` and `room_type_code` (and `rate_plan_id` and `rate_plan_code`) both given name one thing:
  they must agree (a room that maps to nothing shows a null id beside its code).
- `reservation_id` and `ota_reservation_code` both given must agree too.
- A masked guarantee (`411111******1111`, as every answer shows it) is the card the booking has: it stays.
- `deposits` are kept with the booking as sent, and shown back (BookingInput).
"""

from __future__ import annotations

from typing import Any

from backend.core.errors import Errors

SHOWN_ONLY = frozenset({"id", "booking_id", "unique_id", "revision_id", "system_id", "inserted_at", "updated_at",
                        "amount", "occupancy", "is_acked", "is_overbooked", "is_unmapped", "reports", "channel_id",
                        "acked_at", "ota_name", "message_thread_id"})
ROOM_SHOWN_ONLY = frozenset({"booking_room_id", "checkin_date", "checkout_date", "amount", "taxes", "is_mapped"})
SAME = (("reservation_id", "ota_reservation_code"),)
ROOM_SAME = (("room_type_code", "room_type_id"), ("rate_plan_code", "rate_plan_id"))


def crs_body(data: Any) -> Any:
    """A CRS body as BookingInput takes it; anything not an object is left for its validation to report."""
    if not isinstance(data, dict):
        return data
    errors = Errors()
    body = _one_name(_without(data, SHOWN_ONLY), SAME, "", errors)
    if body.get("arrival_hour") == "":
        body["arrival_hour"] = None
    if _masked(body.get("guarantee")):
        del body["guarantee"]
    if isinstance(body.get("rooms"), list):
        body["rooms"] = [_one_name(_without(room, ROOM_SHOWN_ONLY), ROOM_SAME, f"rooms.{index}.", errors)
                         if isinstance(room, dict) else room for index, room in enumerate(body["rooms"])]
    errors.raise_if_any()
    return body


def _without(data: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
    return {name: value for name, value in data.items() if name not in names}


def _one_name(data: dict[str, Any], pairs: tuple[tuple[str, str], ...], prefix: str, errors: Errors) -> dict[str, Any]:
    """Each pair of names for one field, given both: one value if they agree (or the other is null)."""
    for ours, theirs in pairs:
        if ours in data and theirs in data:
            if data[theirs] is None or data[ours] == data[theirs]:
                del data[theirs]
            elif data[ours] is None:
                del data[ours]
            else:
                errors.add(f"{prefix}{theirs}", f"names another than {ours}: give one, or the same in both")
    return data


def _masked(guarantee: Any) -> bool:
    return isinstance(guarantee, dict) and "*" in str(guarantee.get("card_number") or "")
