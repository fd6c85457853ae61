"""Bookings a channel's adapter has not acknowledged: a `non_acked_booking` event, once, for each revision not
acknowledged `NON_ACKED_AFTER` after it came — a sweep of the deliverer (backend/outbox/deliverer.py), which the
engine hands it."""

from __future__ import annotations

from datetime import datetime, timedelta

from backend.bookings.store import mark_non_acked_told, unacked_revisions
from backend.outbox.record import record
from storage import Store, utc_now

NON_ACKED_AFTER = timedelta(minutes=30)


def tell_non_acked(store: Store, now: datetime) -> int:
    before = (now - NON_ACKED_AFTER).replace(tzinfo=None).isoformat(timespec="microseconds")
    with store.transaction() as conn:
        rows = unacked_revisions(conn, before)
        for row in rows:
            record(conn, "non_acked_booking", row["property_id"],
                   {"booking_id": row["booking_id"], "property_id": row["property_id"], "revision_id": row["id"]})
            mark_non_acked_told(conn, row["id"], utc_now())
    return len(rows)
