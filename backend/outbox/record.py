"""Writing events into the outbox, always on the connection of the change's own transaction: an event exists if
and only if its change committed.

ARI is one event per written range and plan or room type, never per night; what the range holds is read when it
is sent, so a later change is never overwritten by an older one. A derived rate plan follows its parent: a write
to the parent is also an event for each child.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from backend.outbox.store import derived_plans, insert_event
from storage import Connection, new_id, utc_now

# What each event is called, as the service's Webhooks API names them where it has one.
BOOKING_EVENTS = {"new": "booking_new", "modified": "booking_modification", "cancelled": "booking_cancellation"}
EVENTS = ("ari", *BOOKING_EVENTS.values(), "non_acked_booking", "message", "inquiry", "thread_closed",
          "thread_reopened", "sync_error", "review", "updated_review")


def record(conn: Connection, event: str, property_id: str | None, payload: dict[str, Any], *,
           channel_id: str | None = None) -> str:
    """One event, in the caller's transaction; its id."""
    event_id = new_id()
    insert_event(conn, event_id, event, property_id, channel_id, json.dumps(payload, separators=(",", ":")), utc_now())
    return event_id


def availability_changed(conn: Connection, property_id: str, room_type_id: str, dates: Iterable[str]) -> None:
    """Availability written for a room type on some nights: one event over their range."""
    _ranged(conn, property_id, {"room_type_id": room_type_id}, sorted(dates))


def rates_changed(conn: Connection, property_id: str, rate_plan_id: str, dates: Iterable[str]) -> None:
    """Rates or restrictions written for a plan on some nights: one event over their range, and one for each plan
    derived from it."""
    nights = sorted(dates)
    for plan_id in (rate_plan_id, *derived_plans(conn, rate_plan_id)):
        _ranged(conn, property_id, {"rate_plan_id": plan_id}, nights)


def _ranged(conn: Connection, property_id: str, target: dict[str, str], nights: list[str]) -> None:
    """One `ari` event from the first to the last of the (sorted) nights; none without nights."""
    if nights:
        record(conn, "ari", property_id, {"property_id": property_id, **target, "date_from": nights[0],
                                          "date_to": nights[-1]})


def booking_changed(conn: Connection, booking: dict[str, Any]) -> None:
    """A booking's new revision: the service's `booking` payload, under the event of its status."""
    record(conn, BOOKING_EVENTS[booking["status"]], booking["property_id"],
           {"booking_id": booking["id"], "property_id": booking["property_id"], "revision_id": booking["revision_id"]})
