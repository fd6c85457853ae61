"""The changes feed: the kind of each change that the outbox's events do not already carry (a property edited, a
thread assigned, a saved reply, a delivery), so that a console of another process reloads what that kind shows and
nothing else (backend/outbox/changes.py reads it with the outbox's events).

A row is written either in the change's own transaction (`note`, for unscoped transactions, which exclude every other
writer) or just after it commits (`note_after`, under a scope of its own): either way one writer of the feed at a time,
so that on PostgreSQL, where scoped writers commit in parallel, the feed's sequence is its commit order and a reader
reading past a sequence never misses one still in flight below it. A row written after the commit is a hint: a process
killed between the two leaves that change to the next reload of the screens that show it. Rows go after `KEPT`.

A row carries its change's subject where the bus's event has one (the thread of a reply, a note, a thread read or
assigned: backend/core/events.py), so that a console elsewhere reloads that thread alone.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from backend.core.events import Change, Event, Subscriber
from backend.core.store import insert_change, prune_changes
from storage import Connection, Store, utc_now

log = logging.getLogger(__name__)

KEPT = timedelta(minutes=10)
SCOPE = "changes"
DELIVERED = "delivery.changed"  # a destination's progress: a delivery, a failure, a pull channel's ack


def note(conn: Connection, kind: str) -> None:
    """A change of `kind`, in the caller's unscoped transaction."""
    insert_change(conn, Change(kind), utc_now())


def note_after(store: Store, kind: str, subject: str | None = None) -> None:
    """A change of `kind` (about `subject`) that has committed (in a scoped transaction, or told on the event bus)."""
    try:
        with store.transaction(SCOPE) as conn:
            insert_change(conn, Change(kind, subject), utc_now())
    except Exception:  # the change itself committed: a lost hint must not fail it
        log.warning("a change of %s went unnoted for other processes", kind, exc_info=True)


def noter(store: Store) -> Subscriber:
    """The event bus's subscriber that writes the feed: every change but those the outbox already tells."""
    def noted(event: Event) -> None:
        if not event.outboxed:
            note_after(store, event.kind, event.subject)
    return noted


def prune(conn: Connection, now: datetime) -> None:
    prune_changes(conn, (now - KEPT).replace(tzinfo=None).isoformat(timespec="microseconds"))
