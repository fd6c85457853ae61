"""Two engines over one database, as two `serve` processes (two hosts) are, both delivering real webhooks to receivers
on loopback: on PostgreSQL each takes part, one at a time per destination (a session lock each, which dies with its
connection, so the other takes over at once); on SQLite the lease's holder alone delivers."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest

from backend.core.config import Config
from backend.core.scopes import property_scope
from backend.engine import Engine
from backend.outbox.deliverer import Deliverer, Event, Route, Wanted
from backend.outbox.record import record
from storage.dialect import DESTINATION
from tests.outbox.caught_up import caught_up
from tests.receiver import Receiver
from tests.stores import POSTGRESQL
from tests.webhooks.hooks import eventually

PROPERTIES, ROUNDS = 8, 10  # a webhook and a receiver each (more than a deliverer's 4 threads); events of each per round


class Noted:
    """A route as the engine makes it, noting which engine made each call to which destination."""

    def __init__(self, route: Route, engine: str, calls: list[tuple[str, str]]) -> None:
        self.route, self.engine, self.calls = route, engine, calls
        self.kind, self.batch = route.kind, route.batch

    def destinations(self) -> dict[str, str | None]:
        return self.route.destinations()

    def wanted(self, destination_id: str) -> Wanted | None:
        return self.route.wanted(destination_id)

    def send(self, destination_id: str, events: list[Event]):
        self.calls.append((self.engine, destination_id))
        return self.route.send(destination_id, events)

    def failed(self, conn, destination_id: str, error: str, events: list[Event]) -> None:
        self.route.failed(conn, destination_id, error, events)


@contextmanager
def delivering(engine: Engine, name: str, calls: list[tuple[str, str]]) -> Iterator[Deliverer]:
    engine.routes = lambda: [Noted(route, name, calls) for route in Engine.routes(engine)]
    with engine.delivering("serve") as deliverer:
        yield deliverer


def engines(database) -> tuple[Engine, Engine]:
    config = Config(fetch_private_addresses=True, delivery_backoff=0.05)  # the receivers are on loopback
    return database.engine(config), database.engine(config)


def hooked(engine: Engine, receivers: list[Receiver]) -> list[tuple[str, str]]:
    """A property for each receiver, and its webhook of every event to it: (property id, webhook id) each."""
    actor, _ = engine.identity.add_user(f"deliverers-{time.monotonic_ns()}@example.com")
    made = []
    for number, receiver in enumerate(receivers):
        property_id = engine.properties.create(actor, {"title": f"Hotel {number}", "currency": "EUR"})["id"]
        hook = engine.webhooks.create(actor, {"property_id": property_id, "callback_url": receiver.url,
                                              "event_mask": "*"})
        made.append((property_id, hook["id"]))
    return made


def tell(engine: Engine, property_id: str, number: int) -> None:
    """One event of the property, committed in its scope as a booking's is, and told to this engine's deliverer."""
    with engine.store.transaction(property_scope(property_id)) as conn:
        record(conn, "booking_new", property_id, {"n": number})
    engine.events.publish("booking.changed", property_id)


def in_order(engine: Engine, property_id: str) -> list[str]:
    return [row[0] for row in engine.store.query(
        f"SELECT id FROM events WHERE property_id = ? AND event = 'booking_new' ORDER BY {engine.store.dialect.position}",
        (property_id,))]


def test_two_engines_deliver_every_event_once_in_order_each_destination_by_one_at_a_time(new_db, store_kind):
    """Each receiver answers after 20 ms, so that a destination served by both engines at once would be sent its
    events twice: the claim lets one engine at a time serve it, and every event arrives once, in order."""
    first, second = engines(new_db())
    calls: list[tuple[str, str]] = []
    with ExitStack() as stack:
        receivers = [stack.enter_context(_closing(Receiver())) for _ in range(PROPERTIES)]
        for receiver in receivers:
            receiver.delay = 0.02
        hooks = hooked(first, receivers)
        held = stack.enter_context(delivering(first, "first", calls))
        eventually(lambda: held.holding)  # the first holds the lease before the second starts: on SQLite, it alone delivers
        stack.enter_context(delivering(second, "second", calls))
        for number in range(ROUNDS):
            for property_id, _ in hooks:
                tell((first, second)[number % 2], property_id, number)
        eventually(lambda: caught_up(first, *(hook for _, hook in hooks)), 30)
        for (property_id, _), receiver in zip(hooks, receivers):
            assert [each.headers["webhook-id"] for each in receiver.received] == in_order(first, property_id)
    took_part = {engine for engine, _ in calls}
    assert took_part == ({"first", "second"} if store_kind == POSTGRESQL else {"first"})


def test_a_deliverer_whose_connection_dies_frees_its_destinations_for_the_other_at_once(new_db, store_kind):
    if store_kind != POSTGRESQL:
        pytest.skip("SQLite has one deliverer, the lease's holder (tests/outbox/test_kill_nine.py)")
    first, second = engines(new_db())
    calls: list[tuple[str, str]] = []
    with ExitStack() as stack:
        receiver = stack.enter_context(_closing(Receiver()))
        receiver.gate = threading.Event()  # every call waits until the test lets it answer
        stack.callback(receiver.gate.set)
        [(property_id, hook)] = hooked(first, [receiver])
        stack.enter_context(delivering(first, "first", calls))
        tell(first, property_id, 1)
        receiver.wait_for(1)  # the first engine's call, held: it serves the webhook
        stack.enter_context(delivering(second, "second", calls))
        time.sleep(0.5)
        assert len(receiver.received) == 1  # the second cannot claim it meanwhile
        ended = first.store.scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory' "
                                   "AND classid = ? AND granted", (DESTINATION,))
        assert ended == 1
        started = time.monotonic()
        receiver.wait_for(2, timeout=5)  # the same event, from the second engine
        taken_over = time.monotonic() - started
        receiver.gate.set()
        eventually(lambda: caught_up(first, hook), 15)
    assert ("second", hook) in calls and taken_over < 3
    assert {each.headers["webhook-id"] for each in receiver.received} == set(in_order(first, property_id))


@contextmanager
def _closing(receiver: Receiver) -> Iterator[Receiver]:
    try:
        yield receiver
    finally:
        receiver.close()


def test_a_delivery_is_written_beside_a_property_writer_in_progress(new_db, store_kind):
    """A destination's cursor and log are its own write scope: a webhook's delivery completes while a writer of
    another property holds its transaction open (unscoped, it would wait for that writer)."""
    if store_kind != POSTGRESQL:
        pytest.skip("SQLite has one writer at a time, whatever the scope")
    engine, _ = engines(new_db())
    with ExitStack() as stack:
        receiver = stack.enter_context(_closing(Receiver()))
        [(property_id, hook), (elsewhere, _)] = hooked(engine, [receiver, stack.enter_context(_closing(Receiver()))])
        stack.enter_context(delivering(engine, "only", []))
        tell(engine, property_id, 0)
        eventually(lambda: caught_up(engine, hook), 5)  # and its first sweeps done: unscoped, they would wait too
        held, release = threading.Event(), threading.Event()

        def writer() -> None:
            with engine.store.transaction(property_scope(elsewhere)):
                held.set()
                release.wait(20)

        other = threading.Thread(target=writer)
        other.start()
        stack.callback(other.join)
        stack.callback(release.set)
        held.wait(5)
        tell(engine, property_id, 1)
        eventually(lambda: caught_up(engine, hook), 5)  # delivered and its cursor moved, the other still writing
        assert other.is_alive() and len(receiver.received) == 2
