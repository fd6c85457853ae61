"""What any process changed, by kind: so that a console reloads what a change shows and nothing else.

In its own process a console hears each change's kind from the event bus (backend/core/events.py) at once. Another
process's writes move the store's change stamp; what kind they were comes from two places: the outbox's events
(bookings, guests' messages, ARI, reviews, a thread closed or reopened), written in the change's own transaction, so
that the busy paths (a channel pushing bookings, a PMS writing ARI) cost no extra write; and the changes feed
(backend/core/changes.py) for every other kind. Both tell the subject where there is one (backend/core/events.py):
the thread of a chat change, the outbox's from its event's payload.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from backend.core.events import Change
from backend.core.store import changes_after, newest_change
from backend.outbox.store import event_names_after, newest_position, stamp_positions
from storage import Store

EVERYTHING = "database"  # a change of no known kind, or too many to tell: every screen reloads
AT_ONCE = 1000  # more changes than this between two looks are EVERYTHING

# The bus's kind of each outbox event (backend/outbox/record.py EVENTS).
EVENT_KINDS = {"ari": "ari.changed", "booking_new": "booking.changed", "booking_modification": "booking.changed",
               "booking_cancellation": "booking.changed", "non_acked_booking": "booking.changed",
               "message": "message.received", "inquiry": "message.received", "thread_closed": "thread.changed",
               "thread_reopened": "thread.changed", "sync_error": "channel.changed", "review": "review.changed",
               "updated_review": "review.changed"}
# The outbox events about one thread, which their payload names.
THREAD_EVENTS = ("message", "inquiry", "thread_closed", "thread_reopened")


@dataclass(frozen=True)
class Mark:
    """How far a reader has looked: the outbox's position and the changes feed's sequence."""
    position: int
    seq: int


def newest(store: Store) -> Mark:
    return Mark(newest_position(store), newest_change(store))


def since(store: Store, mark: Mark) -> tuple[Mark, frozenset[Change]]:
    """The changes after `mark`, and the mark to look from next. Events committed since the deliverer's last look are
    given their positions first (PostgreSQL), as the pull feed does: none is read before it has one."""
    stamp_positions(store)
    events = event_names_after(store, mark.position, AT_ONCE, THREAD_EVENTS)
    changes = changes_after(store, mark.seq, AT_ONCE)
    if len(events) == AT_ONCE or len(changes) == AT_ONCE:
        return newest(store), frozenset({Change(EVERYTHING)})
    told = {Change(EVENT_KINDS.get(name, EVERYTHING), json.loads(payload)["message_thread_id"] if payload else None)
            for _, name, payload in events} | {change for _, change in changes}
    return Mark(events[-1][0] if events else mark.position, changes[-1][0] if changes else mark.seq), frozenset(told)
