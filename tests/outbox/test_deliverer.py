"""The deliverer over real HTTP on loopback, through a plain route that POSTs each event as JSON: in order, at
least once, retried with backoff, failing after its attempts until resumed, redelivered on demand, and run by one
holder of the lease at a time."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from backend.core.config import Config
from backend.engine import Engine
from backend.outbox.deliverer import (
    KEEP_OWED,
    RETENTION,
    Deliverer,
    Event,
    Wanted,
    add_destination,
    backoff,
    prune,
    redeliver,
    resume,
    state,
)
from backend.outbox.lease import deliverer_lease
from backend.outbox.record import record
from backend.outbox.sending import Sender, SendFailed
from backend.outbox.store import due_destinations, events_after, idle_destinations, stamp_positions
from tests.receiver import Receiver


def wanted(event: Event) -> bool:
    return event.event != "ignored"


class PostEach:
    """Each event to one receiver, as JSON; any answer but 2xx is a failure."""

    kind, batch = "test", 1

    def __init__(self, url: str) -> None:
        self.url, self.sender = url, Sender(private_addresses=True, timeout=1.0)

    def destinations(self) -> dict[str, str | None]:
        return {"receiver": None}

    def wanted(self, _destination_id: str) -> Wanted:
        return Wanted(wanted)

    def send(self, _destination_id: str, events: list[Event]) -> int:
        answer = self.sender.post(self.url, json.dumps({"id": events[0].id, **events[0].payload}),
                                  {"content-type": "application/json"})
        if answer.status >= 300:
            raise SendFailed(f"answered {answer.status}", answer.status)
        return answer.status

    def failed(self, conn, destination_id: str, error: str, events: list[Event]) -> None:
        pass



@pytest.fixture
def engine(new_db) -> Engine:
    made = new_db().engine()
    with made.store.transaction() as conn:
        add_destination(conn, "receiver", "test")
    return made


def deliverer(engine: Engine, receiver: Receiver, attempts: int = 8) -> Deliverer:
    return Deliverer(engine.store, [PostEach(receiver.url)], deliverer_lease(engine.store, "serve"), lambda: datetime.now(UTC),
                     max_attempts=attempts, backoff_base=0.05)


def emit(engine: Engine, *numbers: int, event: str = "ari") -> None:
    with engine.store.transaction() as conn:
        for number in numbers:
            record(conn, event, "p", {"n": number})


def delivered(receiver: Receiver, count: int) -> list[int]:
    return [r.json()["n"] for r in receiver.wait_for(count)]


class PostEachOfP(PostEach):
    """A destination of property "p" alone, as a webhook is of its property."""

    def destinations(self) -> dict[str, str | None]:
        return {"receiver": "p"}

    def wanted(self, _destination_id: str) -> Wanted:
        return Wanted(wanted, "p")


def test_a_destination_of_one_property_is_due_for_its_events_alone(engine, receiver):
    """Another property's events never make a webhook due (each of sixteen webhooks woke, read and moved its cursor
    for every write of any property); the housekeeping moves its cursor past them now and then, so that pruning
    never waits on it; its own property's next event goes at once."""
    with engine.store.transaction() as conn:
        for number in (1, 2, 3):
            record(conn, "ari", "q", {"n": number})
    stamp_positions(engine.store)
    head = engine.store.scalar(f"SELECT max({engine.store.dialect.position}) FROM events")
    now = datetime.now(UTC).replace(tzinfo=None).isoformat()
    assert due_destinations(engine.store, {"receiver": "p"}, now, head) == []
    assert due_destinations(engine.store, {"receiver": None}, now, head) == ["receiver"]
    assert idle_destinations(engine.store, {"receiver": "p"}, head) == [("receiver", 0)]
    running = Deliverer(engine.store, [PostEachOfP(receiver.url)], deliverer_lease(engine.store, "serve"),
                        lambda: datetime.now(UTC))
    running.start()
    try:
        deadline = time.time() + 10
        while engine.store.scalar("SELECT cursor FROM destinations WHERE id = 'receiver'") != head:
            assert time.time() < deadline, "the idle cursor was not moved"
            time.sleep(0.05)
        emit(engine, 4)
        running.wake.set()
        assert delivered(receiver, 1) == [4]
    finally:
        running.stop()
    assert [r.json()["n"] for r in receiver.received] == [4]


def test_events_arrive_in_order_and_the_cursor_follows(engine, receiver):
    running = deliverer(engine, receiver)
    running.start()
    try:
        emit(engine, 1, 2, 3)
        emit(engine, 0, event="ignored")
        emit(engine, 4)
        running.wake.set()
        assert delivered(receiver, 4) == [1, 2, 3, 4]
    finally:
        running.stop()
    assert state(engine.store, "receiver", Wanted(wanted))["waiting"] == 0
    log = engine.store.query("SELECT status, attempts, response_status FROM deliveries ORDER BY event_seq")
    assert [tuple(r) for r in log] == [("delivered", 1, 200)] * 4


def test_a_receiver_that_fails_three_times_gets_the_event_again_after_each(engine, receiver):
    receiver.answers = [(500, b"down"), (500, b"down"), (500, b"down")]
    running = deliverer(engine, receiver)
    running.start()
    try:
        emit(engine, 1, 2)
        assert delivered(receiver, 5) == [1, 1, 1, 1, 2]
    finally:
        running.stop()
    first = engine.store.one("SELECT status, attempts FROM deliveries ORDER BY event_seq LIMIT 1")
    assert tuple(first) == ("delivered", 4)


def test_the_wait_doubles_up_to_its_cap():
    assert [backoff(attempt, 1.0) for attempt in (1, 2, 3, 4, 12)] == [1.0, 2.0, 4.0, 8.0, 300.0]


def test_after_its_attempts_a_destination_fails_until_resumed_and_loses_nothing(engine, receiver):
    receiver.status = 503
    running = deliverer(engine, receiver, attempts=3)
    running.start()
    try:
        emit(engine, 1, 2)
        receiver.wait_for(3)
        deadline = time.time() + 5
        while state(engine.store, "receiver", Wanted(wanted))["failing_since"] is None and time.time() < deadline:
            time.sleep(0.02)
        failing = state(engine.store, "receiver", Wanted(wanted))
        assert failing["failing_since"] and failing["last_error"] == "answered 503" and failing["waiting"] == 2
        time.sleep(0.3)
        assert len(receiver.received) == 3  # nothing more goes to a failing destination
        receiver.status = 200
        with engine.store.transaction() as conn:
            resume(conn, "receiver")
        running.wake.set()
        assert delivered(receiver, 5)[3:] == [1, 2]
    finally:
        running.stop()


def test_an_event_is_redelivered_on_demand(engine, receiver):
    running = deliverer(engine, receiver)
    running.start()
    try:
        emit(engine, 1, 2)
        delivered(receiver, 2)
        with engine.store.transaction() as conn:
            redeliver(conn, "receiver", engine.store.scalar("SELECT min(seq) FROM events"))
        emit(engine, 3)  # news wakes the deliverer
        assert sorted(delivered(receiver, 4)) == [1, 1, 2, 3]
    finally:
        running.stop()
    ids = [r.json()["id"] for r in receiver.received]
    assert ids.count(ids[0]) == 2  # the same event id: the consumer's de-duplication key






def test_the_config_sets_attempts_and_backoff(new_db):
    engine = new_db().engine(Config(delivery_max_attempts=2, delivery_backoff=0.01))
    with engine.delivering("serve") as running:
        assert (running.max_attempts, running.backoff_base) == (2, 0.01)
        deadline = time.time() + 5
        while running.lease.holder_kind() != "serve" and time.time() < deadline:
            time.sleep(0.02)
        assert running.lease.holder_kind() == "serve"
    assert deliverer_lease(engine.store, "console").holder_kind() is None  # released on the way out


def test_what_every_destination_passed_is_pruned_after_the_retention_and_what_is_owed_is_kept(engine):
    emit(engine, 1, 2, 3)
    stamp_positions(engine.store)
    positions = [row["pos"] for row in events_after(engine.store, 0, 10)]
    with engine.store.transaction() as conn:
        conn.execute("UPDATE destinations SET cursor = ?", (positions[1],))  # the receiver has had the first two
    prune(engine.store, datetime.now(UTC))
    assert engine.store.scalar("SELECT count(*) FROM events") == 3  # all younger than the retention
    prune(engine.store, datetime.now(UTC) + RETENTION + timedelta(minutes=1))
    assert [row["pos"] for row in events_after(engine.store, 0, 10)] == [positions[2]]  # owed: kept
    prune(engine.store, datetime.now(UTC) + KEEP_OWED + timedelta(minutes=1))
    assert engine.store.scalar("SELECT count(*) FROM events") == 0




class Broken(PostEach):
    """A route with a fault of ours: building the call raises."""

    def send(self, _destination_id: str, events: list[Event]) -> int:
        raise KeyError("rate_plan_code")


def test_a_fault_in_building_a_call_is_retried_then_failing_and_says_so(engine, receiver):
    running = Deliverer(engine.store, [Broken(receiver.url)], deliverer_lease(engine.store, "serve"),
                        lambda: datetime.now(UTC), max_attempts=3, backoff_base=0.05)
    running.start()
    try:
        emit(engine, 1)
        running.wake.set()
        deadline = time.time() + 5
        while state(engine.store, "receiver", Wanted(wanted))["failing_since"] is None and time.time() < deadline:
            time.sleep(0.02)
    finally:
        running.stop()
    failing = state(engine.store, "receiver", Wanted(wanted))
    assert failing["failing_since"] and failing["attempts"] == 3 and failing["waiting"] == 1
    assert failing["last_error"] == "Frontdesk could not build the call (KeyError); see the server's log"
    assert receiver.received == []
