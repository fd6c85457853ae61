"""Outbox positions that a cursor never passes an event with, whatever the writers do at once: writers of different
scopes commit in parallel on PostgreSQL, out of the order their events were numbered in, and a cursor counting in
sequence numbers would move past an event still in flight for good (the study's prototype lost 726 in 6 s). On every
store: each committed event is read once by a cursor that moves on what it read, in commit order per scope; none of
a transaction rolled back."""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict

import psycopg
import pytest

from backend.outbox.store import events_after, head, insert_event, stamp_positions
from storage import Store, new_id, open_store, utc_now
from tests.stores import cluster


def _event(conn, scope: str) -> str:
    event_id = new_id()
    insert_event(conn, event_id, "ari", scope, None, "{}", utc_now())
    return event_id


def _read_on(store: Store, cursor: int) -> tuple[list[str], int]:
    """What a deliverer's round reads after `cursor`: the events stamped, and the cursor past them."""
    stamp_positions(store)
    rows = events_after(store, cursor, 10_000)
    return [row["id"] for row in rows], (rows[-1]["pos"] if rows else cursor)


def test_an_event_committed_beside_one_in_flight_is_read_after_it_not_instead(new_db):
    store = open_store(new_db().target)
    began, release, first = threading.Event(), threading.Event(), []

    def slow() -> None:  # numbered first, committed last
        with store.transaction("property:a") as conn:
            first.append(_event(conn, "property:a"))
            began.set()
            release.wait(10)

    holder = threading.Thread(target=slow)
    holder.start()
    assert began.wait(10)
    quick = threading.Thread(target=lambda: _commit_one(store, "property:b"))
    quick.start()
    quick.join(1.0)  # on PostgreSQL it commits now; SQLite's one writer has it wait for the first
    seen, cursor = _read_on(store, 0)
    assert seen == []  # the later number is not given out ahead of the one in flight
    release.set()
    holder.join(10)
    quick.join(10)
    more, cursor = _read_on(store, cursor)
    assert more[0] == first[0] and len(more) == 2
    assert cursor == head(store.conn)
    store.close()


def _commit_one(store: Store, scope: str) -> str:
    with store.transaction(scope) as conn:
        return _event(conn, scope)


def test_parallel_writers_lose_no_event_and_keep_each_scopes_order(new_db):
    """Eight writers over sixteen scopes commit one to three events each, dawdling before the commit, one in ten
    rolled back, while a reader reads on from its cursor as a deliverer does."""
    store = open_store(new_db().target)
    committed: dict[str, list[str]] = defaultdict(list)  # scope -> its events in commit order
    guard, stop = threading.Lock(), threading.Event()

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            scope = f"property:{rng.randrange(16)}"
            made: list[str] = []
            try:
                with store.transaction(scope) as conn:
                    made = [_event(conn, scope) for _ in range(rng.randint(1, 3))]
                    time.sleep(rng.random() * 0.004)
                    if rng.random() < 0.1:
                        raise LookupError("rolled back")
                    with guard:  # still holding the scope: the order of this list is the scope's commit order
                        committed[scope] += made
            except LookupError:
                pass

    read: list[str] = []
    writers = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in writers:
        thread.start()
    cursor, deadline = 0, time.monotonic() + 3
    while time.monotonic() < deadline:
        seen, cursor = _read_on(store, cursor)
        read += seen
    stop.set()
    for thread in writers:
        thread.join(10)
    seen, cursor = _read_on(store, cursor)
    read += seen

    every = [event for events in committed.values() for event in events]
    assert len(every) > 100  # the writers wrote
    assert sorted(read) == sorted(every)  # each committed event read once, none rolled back
    at = {event: n for n, event in enumerate(read)}
    for events in committed.values():
        assert [at[event] for event in events] == sorted(at[event] for event in events)  # in the scope's order
    store.close()


def test_a_long_transaction_of_another_database_holds_nothing_up(new_db):
    """The cluster's other databases (another application's) are not Frontdesk's writers: their transactions, however
    long, do not keep an event from its position."""
    database = new_db()
    if database.kind != "postgresql":
        pytest.skip("one database per SQLite file")
    store = open_store(database.target)
    with psycopg.connect(cluster().fresh()) as other:  # a transaction, with an id, older than the event
        other.execute("CREATE TABLE report (n integer)")
        other.execute("INSERT INTO report VALUES (1)")
        _commit_one(store, "property:a")
        assert _read_on(store, 0)[0] != []
        other.rollback()
    store.close()
