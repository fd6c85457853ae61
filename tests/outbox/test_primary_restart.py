"""The PostgreSQL server restarts (an immediate stop: a crash, then recovery) in the middle of a stream of ARI writes
and bookings into `frontdesk serve`: the workers' connections are made again, every write answered 200/201 is
there, and every committed event reaches the webhook receiver at least once, in order. The cluster is one of the
test's own (durable commits), not the suite's, which other tests share. PostgreSQL only, by nature."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from backend.core.config import Config
from backend.engine import Engine
from tests.concurrency.test_workers import serving
from tests.conftest import CONTACT
from tests.postgres_cluster import Cluster, server_bin
from tests.receiver import Receiver
from tests.stores import Database
from tests.webhooks.hooks import eventually

DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


@pytest.fixture
def cluster():
    if server_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    made = Cluster(server_bin(), DURABLE).start()
    yield made
    made.stop()


class Stream(threading.Thread):
    """ARI writes and bookings one after another, each tried again while the server can't answer it (a PMS
    retries a 5xx or a lost connection): what each write was answered, by number."""

    def __init__(self, url: str, token: str, ids: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        self.ids, self.answers, self.halt = ids, {}, threading.Event()
        self.refused: Counter[int] = Counter()  # what the server said while its database was down

    def run(self) -> None:
        n = 0
        while not self.halt.is_set():
            self.answers[n] = self.until_answered(n)
            n += 1

    def until_answered(self, n: int) -> httpx.Response:
        while True:
            try:
                response = self.write(n)
                if response.status_code < 500:
                    return response
                self.refused[response.status_code] += 1
            except httpx.TransportError:
                self.refused[0] += 1
            time.sleep(0.1)

    def write(self, n: int) -> httpx.Response:
        day = (datetime.now(UTC).date() + timedelta(days=2 + n % 20)).isoformat()
        if n % 5 == 4:
            return self.client.post("/api/v1/bookings", json={"booking": {
                "property_id": self.ids["property"], "status": "new", "arrival_date": day,
                "departure_date": (datetime.fromisoformat(day) + timedelta(days=1)).date().isoformat(),
                "currency": "EUR", "customer": {"name": "Guest", "surname": str(n)},
                "rooms": [{"room_type_code": self.ids["room"], "rate_plan_code": self.ids["plan"],
                           "occupancy": {"adults": 1, "children": 0, "infants": 0}}]}})
        return self.client.post("/api/v1/restrictions", json={"values": [{
            "property_id": self.ids["property"], "rate_plan_id": self.ids["plan"], "date": day,
            "rate": f"{100 + n}.00"}]})


def _answered(stream: Stream, count: int) -> None:
    eventually(lambda: len(stream.answers) >= count, 60)


def test_a_primary_restarted_mid_stream_loses_nothing_answered_and_delivers_every_event_in_order(cluster, tmp_path):
    database = Database(cluster.empty("frontdesk"), tmp_path / "frontdesk.keys")
    hook = Receiver()
    engine = Engine.open(database.target, Config(keys_path=database.keys, fetch_private_addresses=True))
    actor, issued = engine.identity.add_user("restart@example.com")
    prop = engine.properties.create(actor, {"title": "Restart Inn", "currency": "EUR", **CONTACT})["id"]
    room = engine.inventory.room_types.create(actor, {"property_id": prop, "title": "Double", "count_of_rooms": 50,
                                                      "occ_adults": 2})["id"]
    plan = engine.inventory.rate_plans.create(actor, {"property_id": prop, "room_type_id": room, "title": "Flexible",
                                                      "options": [{"occupancy": 2, "rate": "100",
                                                                   "is_primary": True}]})["id"]
    first = datetime.now(UTC).date()
    engine.inventory.ari.set_availability(actor, [{"property_id": prop, "room_type_id": room,
                                                   "date_from": first.isoformat(),
                                                   "date_to": (first + timedelta(days=30)).isoformat(),
                                                   "availability": 50}])
    engine.inventory.ari.set_restrictions(actor, [{"property_id": prop, "rate_plan_id": plan,
                                                   "date_from": first.isoformat(),
                                                   "date_to": (first + timedelta(days=30)).isoformat(),
                                                   "rate": "100.00"}])
    engine.webhooks.create(actor, {"property_id": prop, "callback_url": hook.url, "event_mask": "*"})
    since = engine.store.scalar("SELECT coalesce(max(pos), 0) FROM events")
    engine.close()
    with serving(database, "--fetch-private-addresses") as served:
        stream = Stream(served.url, issued.token, {"property": prop, "room": room, "plan": plan})
        stream.start()
        _answered(stream, 20)
        cluster._run(str(cluster.bin / "pg_ctl"), "-D", str(cluster.data), "-m", "immediate", "-w", "stop")
        eventually(lambda: bool(stream.refused), 30)  # down until a write is refused (one in flight, or the next)
        cluster._pg_ctl_start(cluster.data, cluster.port, cluster.root / "server.log")
        _answered(stream, len(stream.answers) + 20)
        stream.halt.set()
        stream.join(30)
        assert {a.status_code for a in stream.answers.values()} == {200, 201}

        engine = Engine.open(database.target, Config(keys_path=database.keys))
        bookings = {row["id"] for row in engine.store.query("SELECT id FROM bookings")}
        made = {a.json()["data"]["id"] for a in stream.answers.values() if a.status_code == 201}
        assert made and made <= bookings  # every booking answered 201 survived the crash
        events = [row["id"] for row in engine.store.query(
            "SELECT id FROM events WHERE pos > ? ORDER BY pos", (since,))]  # settled: every write has ended
        eventually(lambda: set(events) <= {call.headers["webhook-id"] for call in hook.received}, 60)
        arrived = list(dict.fromkeys(call.headers["webhook-id"] for call in hook.received))
        assert [event for event in arrived if event in set(events)] == events  # first arrivals in commit order
        engine.close()
    print(f"answered while the database was down: {dict(stream.refused)} (0: no connection)")
    assert 500 not in stream.refused, stream.refused  # the database out of reach is a 503, tried again
    hook.close()
