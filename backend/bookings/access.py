"""Who may act on a booking: whoever may act on its property (its group, and a web chat session's one property)."""

from __future__ import annotations

from backend.errors import NotFound, Unauthorized
from backend.identity import Actor
from storage import Store

# A booking with what the rules around it need: its property's group, time zone and settings, its channel's code.
BOOKING_ROW = ("SELECT b.*, p.group_id, p.timezone, p.settings, c.channel_code FROM bookings b "
               "JOIN properties p ON p.id = b.property_id LEFT JOIN channels c ON c.id = b.channel_id WHERE b.id = ?")


def booking_row(store: Store, actor: Actor, booking_id: str):
    """The booking an actor names (chat, reports): 404 when it does not exist, 401 when not theirs."""
    row = store.one(BOOKING_ROW, (booking_id,))
    if row is None:
        raise NotFound(f"booking {booking_id} does not exist")
    if not actor.reaches(row["group_id"], row["property_id"]):
        raise Unauthorized("you have no access to this booking")
    return row
