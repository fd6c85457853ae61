"""Two hosts behind a load balancer, as docs/operations.md's "Many hosts" runs them: two `frontdesk serve` processes on ports
of their own over one PostgreSQL database stand for two machines, haproxy (tests/balancer.py) in front of both.
A whole host is killed (`kill -9`) while both take bookings and ARI writes: nothing is sold twice, every answered
write is there, and the other host delivers every committed event, the dead host's undelivered ones too, within
seconds. PostgreSQL only: hosts share a server, not a file."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.balancer import haproxy
from tests.concurrency.test_workers import _spread, owner, serving
from tests.conftest import free_port
from tests.receiver import Receiver
from tests.shopping.shop import booking, day, make_shop
from tests.stores import PORT_ENV, POSTGRESQL, Database, new_database
from tests.webhooks.hooks import eventually, make_hook

ROOMS, WRITES = 10, 60
RETRIED = {502, 503, 504}  # what a balancer answers for a host that died under a request: a channel tries again


@pytest.fixture
def database(tmp_path) -> Iterator[Database]:
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    made = new_database(POSTGRESQL, tmp_path)
    yield made
    made.drop()


def _until_answered(send) -> httpx.Response:
    """`send()` until a host answers it, as a channel retries a push (pushes are idempotent by reservation)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            response = send()
            if response.status_code not in RETRIED:
                return response
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "no host answered"
        time.sleep(0.1)


def test_a_host_killed_while_both_take_bookings_and_ari_loses_nothing_and_the_other_delivers(database):
    hook = Receiver()
    hook.delay = 0.02  # a receiver a little slow to answer: the deliverer lags behind, so the kill leaves it owing
    with serving(database, "--fetch-private-addresses", workers=1) as first, \
            serving(database, "--fetch-private-addresses", workers=1) as second, \
            haproxy(free_port(), [int(first.url.rsplit(":", 1)[1]), int(second.url.rsplit(":", 1)[1])]) as url:
        user = owner(database, url)
        shop = make_shop(user, rooms=ROOMS, days=5)
        make_hook(user.client, shop.property_id, hook.url)
        engine = database.engine()
        before = engine.store.scalar("SELECT coalesce(max(seq), 0) FROM events")  # the webhook's from here on
        holder = eventually(lambda: engine.running_server(), 20)
        doomed, survivor = (first, second) if holder.main.endswith(first.url.rsplit(":", 1)[1]) else (second, first)
        answered = Counter[str]()
        killed = threading.Event()

        def write(n: int) -> int:
            with httpx.Client(base_url=url, timeout=30, headers=user.client.headers) as client:
                if n % 3:
                    response = _until_answered(lambda: client.post(f"{shop.meta}/push_booking", json=booking(
                        shop, day(1), day(3), reservation_id=f"HOSTS-{n}")))
                else:
                    response = _until_answered(lambda: client.post("/api/v1/restrictions", json={"values": [{
                        "property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(1),
                        "date_to": day(3), "rate": f"{100 + n}.00"}]}))
            answered[str(response.status_code)] += 1
            if sum(answered.values()) == WRITES // 3 and not killed.is_set():
                killed.set()
                doomed.process.send_signal(signal.SIGKILL)  # the whole host, its deliverer and its lease with it
            return response.status_code

        statuses = Counter(_spread(WRITES, write))
        assert killed.is_set() and doomed.process.wait(10) == -signal.SIGKILL
        pushes = len([n for n in range(WRITES) if n % 3])
        assert statuses == {201: ROOMS, 422: pushes - ROOMS, 200: WRITES - pushes}
        assert engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop.property_id,)) == ROOMS
        assert shop.availability(day(1), day(2)) == {day(1): 0, day(2): 0}

        # The survivor takes the lease and delivers every committed event, the dead host's undelivered ones too.
        eventually(lambda: (running := engine.running_server()) and running.main.endswith(
            survivor.url.rsplit(":", 1)[1]), 20)
        committed = {row["id"] for row in engine.store.query(
            "SELECT id FROM events WHERE property_id = ? AND seq > ?", (shop.property_id, before))}
        eventually(lambda: committed <= {call.headers["webhook-id"] for call in hook.received}, 30)
    hook.close()
