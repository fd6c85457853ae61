"""The pull feed: what changed for a pull channel since a cursor, a page at a time, and the ack that moves its
cursor. The cursor is an outbox position (storage/dialect.py `position`), kept in the channel's destination row.

A page looks at the events after the cursor in order, takes the channel's own (as a push would: its mapped plans'
and room types' `ari` events, and its full sync's) until their ranges hold `PAGE_NIGHTS` nights or `LOOK_AT` events
were looked at, and answers their values read now, in the service's JSON shapes (backend/distribution/
json_format.py), collapsed; `cursor` is the last event looked at, `has_more` whether any came after it. The adapter
reads on from that cursor and acks what it has applied; an ack never moves the cursor back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel

from backend.core.changes import DELIVERED, note_after
from backend.core.errors import ValidationFailed
from backend.core.scopes import destination_scope
from backend.distribution import json_format
from backend.distribution.mapped import Mapped
from backend.distribution.reading import Changes, Reader
from backend.distribution.settings import KIND
from backend.outbox.deliverer import Event
from backend.outbox.store import ack_cursor, any_event_after, events_after, head, stamp_positions
from storage import Store, timestamp

PAGE_NIGHTS = 5000  # nights of changed ranges per page, so at most about this many values
LOOK_AT = 2000  # events looked at per page


@dataclass(frozen=True)
class Page:
    values: list[dict[str, Any]]
    cursor: int
    has_more: bool


def page(store: Store, reader: Reader, mapped: Mapped, cursor: int) -> Page:
    stamp_positions(store)  # what committed since the deliverer's last look is read too
    taken: list[Event] = []
    nights, last = 0, cursor
    for row in events_after(store, cursor, LOOK_AT):
        if nights >= PAGE_NIGHTS:
            break
        event = Event.of(row)
        last = event.pos
        if mapped.takes(event):
            taken.append(event)
            nights += (date.fromisoformat(event.payload["date_to"]) -
                       date.fromisoformat(event.payload["date_from"])).days + 1
    values = json_format.values(reader.read(mapped, Changes.of(taken, mapped)), mapped)
    return Page(values, last, any_event_after(store, last))


def checked(store: Store, cursor: Any) -> int:
    """A cursor the outbox has reached: a whole number from 0 to its newest event's."""
    last = head(store.conn)  # not the newest kept: a channel acked up to events since pruned still acks where it is
    if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= last:
        raise ValidationFailed.one("cursor", f"must be a whole number from 0 to {last}, the newest event")
    return cursor


def ack(store: Store, channel_id: str, cursor: Any, now: datetime) -> int:
    """Move the channel's cursor up to `cursor` (never back; its destination row made if it had none); where it is
    now. The destination's scope: acks of other channels, and the deliverers' writes, go beside it."""
    with store.transaction(destination_scope(channel_id)) as conn:
        wanted = checked(store, cursor)
        now_at = ack_cursor(conn, channel_id, KIND, wanted, timestamp(now))
    note_after(store, DELIVERED)
    return now_at


class AckBody(BaseModel):
    """The body of an ack (documentation only): the cursor a page answered, once its values are applied."""

    cursor: int
