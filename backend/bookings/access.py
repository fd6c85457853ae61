"""Who may act on a booking: whoever may act on its property (backend/identity/access.py)."""

from __future__ import annotations

from backend.bookings.store import booking_with_property
from backend.core.errors import NotFound, Unauthorized
from backend.identity.access import reaches
from backend.identity.models import Actor
from storage import Row, Store


def booking_row(store: Store, actor: Actor, booking_id: str) -> Row:
    """The booking an actor names (chat, reports), with what the rules around it need (its property's group, time
    zone and settings, its channel's code): 404 when it does not exist, 401 when not theirs."""
    row = booking_with_property(store, booking_id)
    if row is None:
        raise NotFound(f"booking {booking_id} does not exist")
    if not reaches(store, actor, row["property_id"], row["group_id"]):
        raise Unauthorized("you have no access to this booking")
    return row
