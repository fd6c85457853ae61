"""The window of nights a property's channels are told are open moves: each day at the property's midnight a night
enters at its end (today + state_length) and, where the property has a cut-off, the nights it closed open again;
at the cut-off time, today and cut_off_days more close; and a change of state_length, of the cut-off or of the time
zone moves the window at once. A channel keeps what it was last told, so each move is recorded as `ari` events for the
nights that changed (backend/inventory/window.py says which are open):

- nights that entered: a range to read, as any change (the channel gets their values, read when they leave);
- nights that left (before today + state_length no more, or closed by the cut-off): a closing (`"closed": true`),
  which channels get as a stop sell of the plan and no availability of the room type.

One event per range and rate plan or room type (a move is at most two ranges), for the plans mapped to a channel that
takes ARI and their room types, with `"cause": "window"`: channels take them as they take any other, webhooks do not
(their `ari` payload is the values of the nights a write named, not the window's). Nights before today are past: no
channel sells them.

The window channels were last told of is kept per property (`ari_windows`), moved in the transaction that records the
events: whichever process sees a move first tells it, once, and a restart tells what moved while nothing ran. The
deliverer's sweep (backend/outbox/deliverer.py) looks every `SWEEP_EVERY` seconds; a property's own change tells
its move in its transaction (backend/properties/service.py). A property that has no row yet (created before this
was kept) starts from the window of the sweep that first sees it, telling nothing.
"""

from __future__ import annotations

from datetime import date, datetime

from backend.distribution.collapse import ONE_DAY
from backend.distribution.store import distributed_plans, keep_window, kept_window, property_row, told_windows
from backend.inventory.window import Window, window_of
from backend.outbox.record import record
from storage import Connection, Row, Store, utc_now

Nights = tuple[date, date]  # from the first night up to, not including, the second
PER_TRANSACTION = 200  # properties told in one transaction of the sweep (midnight moves every window of a zone)


def keep(conn: Connection, property_id: str, window: Window) -> None:
    """The window the property's channels are told of now."""
    keep_window(conn, property_id, window.first.isoformat(), window.end.isoformat(), utc_now())


def moved(conn: Connection, prop: Row, now: datetime, since: Window | None = None) -> int:
    """Tell the property's channels how its window moved, from the one they were last told of (kept; else `since`,
    else nothing is told) to the window of now, and keep that; how many events were recorded. In the caller's
    transaction."""
    window = window_of(prop, now)
    kept = kept_window(conn, prop["id"])
    was = ((date.fromisoformat(kept[0]), date.fromisoformat(kept[1])) if kept
           else (since.first, since.end) if since else None)
    is_open = (window.first, window.end)
    if was == is_open and kept:
        return 0
    recorded = 0
    if was is not None and was != is_open:
        entered = _after(_without(is_open, was), window.today)
        left = _after(_without(was, is_open), window.today)
        if entered or left:
            recorded = _tell(conn, prop["id"], entered, left)
    keep(conn, prop["id"], window)
    return recorded


def sweep(store: Store, now: datetime) -> int:
    """The deliverer's look at every property's window: those that moved since their channels were last told are
    told, `PER_TRANSACTION` properties a transaction; how many events were recorded."""
    moved_ids = [row["id"] for row in told_windows(store) if _told(row) != _open(window_of(row, now))]
    recorded = 0
    for start in range(0, len(moved_ids), PER_TRANSACTION):
        with store.transaction() as conn:  # read again under the write lock: another process may have told them
            for property_id in moved_ids[start:start + PER_TRANSACTION]:
                prop = property_row(conn, property_id)
                if prop is not None:
                    recorded += moved(conn, prop, now)
    return recorded


def _told(row: Row) -> tuple[str, str] | None:
    return None if row["opens"] is None else (row["opens"], row["ends"])


def _open(window: Window) -> tuple[str, str]:
    return window.first.isoformat(), window.end.isoformat()


def _tell(conn: Connection, property_id: str, entered: list[Nights], left: list[Nights]) -> int:
    """The events of a move for the property's plans mapped to a channel that takes ARI, and their room types."""
    # A channel that takes ARI (pull or push) is a destination of the outbox, kind `channel` (settings.py).
    plans = distributed_plans(conn, property_id)
    targets = [*({"room_type_id": room} for room in dict.fromkeys(row[1] for row in plans)),
               *({"rate_plan_id": row[0]} for row in plans)]
    recorded = 0
    for target in targets:
        for nights, closed in ((entered, False), (left, True)):
            for first, end in nights:
                record(conn, "ari", property_id, {"property_id": property_id, **target,
                                                  "date_from": first.isoformat(),
                                                  "date_to": (end - ONE_DAY).isoformat(), "cause": "window",
                                                  **({"closed": True} if closed else {})})
                recorded += 1
    return recorded


def _without(nights: Nights, other: Nights) -> list[Nights]:
    """The nights of one window that are not in the other: none, one or two ranges."""
    first, end = nights
    found = [(first, min(end, other[0])), (max(first, other[1]), end)]
    return [(a, b) for a, b in found if a < b]


def _after(ranges: list[Nights], today: date) -> list[Nights]:
    """The ranges from today on: the nights before it are past."""
    return [(max(a, today), b) for a, b in ranges if b > today]
