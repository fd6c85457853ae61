"""The shopping API on a hot standby (`frontdesk serve --read-db`): its reads come from the standby while it is no
more than the lag bound behind, else (and whenever it is down) from the primary; push_booking reads the primary.

PostgreSQL only by nature: a standby of the suite's cluster (tests/postgres_cluster.py `HotStandby`), made once for
this file; each test has a database of its own on the primary, which the standby copies. Holding the standby's
replay (`pg_wal_replay_pause()`) shows whose answer a read got: the standby's stays as it was. The standby's
address carries a password (loopback logins are trusted, so it is not checked): operators are shown the replica
without it.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from textual.widgets import Static

from backend.core.config import Config
from backend.engine import Engine
from backend.outbox.answer import OutboxStatusEnvelope
from console.channels.screen import ChannelsScreen
from storage import StoreError
from storage.replicas import Replica
from tests.conftest import Site, serve_site
from tests.console.helpers import SteadyApp, press_for, settle
from tests.postgres_cluster import HotStandby
from tests.shopping.shop import Shop, booking, check, day, make_shop
from tests.stores import PORT_ENV, POSTGRESQL, Database, cluster, new_database
from tests.webhooks.hooks import make_hook

BOUND = 3.0  # seconds: a standby held for less answers; the test's steps take a fraction of it
PASSWORD = "hunter2-of-the-standby"
STATUS = "/api/v1/outbox/status"


@pytest.fixture(scope="module")
def standby() -> Iterator[HotStandby]:
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    made = HotStandby(cluster()).start()
    yield made
    made.remove()


@pytest.fixture
def database(standby, tmp_path) -> Iterator[Database]:
    """A database of the test's on the primary, once the standby has it too."""
    made = new_database(POSTGRESQL, tmp_path)
    until(lambda: _opens(standby.url(str(made.target))))
    yield made
    made.drop()


def with_password(url: str) -> str:
    return url.replace("postgresql://frontdesk@", f"postgresql://frontdesk:{PASSWORD}@")


def _opens(url: str) -> bool:
    try:
        psycopg.connect(url).close()
    except psycopg.OperationalError:
        return False
    return True


@pytest.fixture
def site(standby, database) -> Iterator[Site]:
    # Loopback allowed: a webhook to the test's receiver makes its staff ones the outbox's status is shown to.
    with serve_site(database, read_dbs=(with_password(standby.url(str(database.target))),), replica_lag_bound=BOUND,
                    fetch_private_addresses=True) as served:
        yield served


@pytest.fixture
def shop(site) -> Shop:
    made = make_shop(site.user(), rooms=2)
    caught_up(site.engine)
    return made


def caught_up(engine: Engine) -> Replica:
    """The standby, once it holds everything written until now and reads may go to it."""
    replica = engine.reads.replicas[0]
    written, deadline = time.monotonic(), time.monotonic() + 30
    while not (replica.fresh() and replica.covered_at >= written):
        assert time.monotonic() < deadline, f"the standby did not catch up: {replica.problem}"
        time.sleep(0.02)
    return replica


def left(shop: Shop, site: Site) -> int:
    """The rooms left for nights 3 and 4, as the shopping API answers."""
    with site.user().client as client:
        data = check(shop.rooms(client, day(3), day(5)))["data"]
    return data[0]["attributes"]["availability"]


def until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_shopping_reads_come_from_the_standby_until_it_is_behind_by_more_than_the_bound(standby, site, shop):
    standby.replay(False)
    try:
        shop.available(day(3), day(4), 1)  # written on the primary; the standby holds it back

        assert left(shop, site) == 2  # the standby's answer
        until(lambda: left(shop, site) == 1)  # the primary's, once the standby is too far behind
        assert not site.engine.reads.replicas[0].fresh()
        lagging = site.engine.reads.replicas[0].status()
        assert lagging.state == "lagging" and lagging.lag_seconds > BOUND
        assert re.fullmatch(r"\d+\.\d s past the 3 s bound", lagging.why), lagging.why
    finally:
        standby.replay(True)
    caught_up(site.engine)
    assert left(shop, site) == 1


def test_push_booking_reads_the_primary_while_the_standby_is_behind(standby, site, shop):
    standby.replay(False)
    try:
        shop.available(day(3), day(3), 0)  # the last room of night 3 sold elsewhere: on the primary only
        with site.user().client as client:
            refused = client.post(f"{shop.meta}/push_booking", json=booking(shop, day(3), day(4)))
            assert refused.status_code == 422, refused.text
            check(shop.user.client.put(f"/api/v1/channels/{shop.channel_id}",
                                       json={"channel": {"is_active": False}}))
            closed = client.post(f"{shop.meta}/push_booking", json=booking(shop, day(5), day(6)))
            assert closed.status_code == 404, closed.text
            # Meanwhile the standby still answers shopping reads, from before both changes.
            assert check(shop.rooms(client, day(3), day(4)))["data"][0]["attributes"]["availability"] == 2
    finally:
        standby.replay(True)
    bookings = check(shop.user.client.get("/api/v1/bookings", params={"filter[property_id]": shop.property_id}))
    assert bookings["data"] == []


def replicas_shown(shop: Shop) -> list[dict]:
    """The read replicas as the outbox's status route shows them (to staff of a webhook), its answer as documented."""
    answer = shop.user.client.get(STATUS)
    assert PASSWORD not in answer.text and "frontdesk@" not in answer.text  # neither password nor user
    return OutboxStatusEnvelope.model_validate(check(answer)).model_dump()["data"]["attributes"]["read_replicas"]


def test_a_standby_that_stops_leaves_shopping_to_the_primary_until_it_is_back_and_operators_see_it(
        standby, site, shop, receiver):
    replica = site.engine.reads.replicas[0]
    make_hook(shop.user.client, shop.property_id, receiver.url)
    location = f"postgresql://127.0.0.1:{standby.port}/{str(site.engine.store.url).rsplit('/', 1)[1]}"
    [up] = replicas_shown(shop)
    assert (up["location"], up["state"], up["why"]) == (location, "in_use", None)
    assert 0 <= up["lag_seconds"] <= BOUND
    assert "replica" not in site.user().client.get("/api/v1/health").text.lower()  # the public route: nothing

    standby.stop()
    try:
        shop.available(day(3), day(4), 1)
        assert [left(shop, site) for _ in range(5)] == [1] * 5  # nothing fails, and nothing is stale
        assert not replica.fresh()
        until(lambda: replica.problem is not None)  # set aside by its watcher, which alone tries it again
        [down] = replicas_shown(shop)
        assert (down["location"], down["state"], down["why"]) == (location, "down", None)
        assert down["since"] > up["since"] and down["lag_seconds"] is not None  # its last look's, kept
        assert left(shop, site) == 1
    finally:
        standby.start()
    until(replica.fresh)  # tried again after a while, and used again
    assert left(shop, site) == 1
    [back] = replicas_shown(shop)
    assert back["state"] == "in_use" and back["since"] > down["since"]


@pytest.mark.anyio
async def test_the_console_says_in_a_line_whether_each_replica_is_used(standby, site, shop, receiver):
    make_hook(shop.user.client, shop.property_id, receiver.url)
    app = SteadyApp(site.engine, poll_interval=0.1, mode="properties")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await press_for(pilot, "2", ChannelsScreen)
        await settle(pilot)
        line = screen.query_one("#channels-replicas", Static)
        assert line.display and str(line.render()).startswith("Read replica in use since just now: postgresql://127.0.0.1:")
        assert PASSWORD not in str(line.render())


def test_a_read_db_must_be_a_standby_of_the_primarys_database(standby, database, tmp_path):
    primary = str(database.target)
    other = new_database(POSTGRESQL, tmp_path, "other")
    until(lambda: _opens(standby.url(str(other.target))))
    try:
        for wrong, why in ((primary, "is not a hot standby"), (standby.url(str(other.target)),
                                                               "is another database than the primary's")):
            with pytest.raises(StoreError, match=why):
                database.engine(Config(read_dbs=(wrong,)))
    finally:
        other.drop()
    unreachable = "postgresql://frontdesk@127.0.0.1:1/nowhere"  # down at start: the primary reads until it answers
    engine = database.engine(Config(read_dbs=(unreachable,)))
    assert engine.reads.replicas[0].problem.startswith("unreachable") and engine.is_empty()


def test_a_standby_found_to_be_another_clusters_is_left_out_and_shown_refused(standby, database):
    """At start a wrong one is refused (above); one that turns out wrong on a later look is left out meanwhile."""
    replica = database.engine(Config(read_dbs=(standby.url(str(database.target)),))).reads.replicas[0]
    until(replica.fresh)
    replica.identity = (replica.identity[0] + 1, replica.identity[1])  # the primary it is checked against is another
    until(lambda: replica.status().state == "refused")
    refused = replica.status()
    assert refused.why.startswith("is a standby of another cluster") and not replica.fresh()


def test_a_read_db_beside_a_sqlite_database_is_refused_in_one_line(tmp_path):
    target = tmp_path / "frontdesk.db"
    result = subprocess.run([sys.executable, "-m", "console", "serve", "--db", str(target),
                             "--read-db", "postgresql://frontdesk@127.0.0.1:1/frontdesk"],
                            capture_output=True, text=True, timeout=60)

    assert result.returncode == 1 and result.stderr.strip().splitlines() == [
        "error: read replicas (--read-db) are hot standbys of a PostgreSQL primary: a SQLite --db has none; give "
        "--db postgresql://…, or leave --read-db out"]
    assert not target.exists()


def test_a_standby_that_is_down_is_tried_again_after_waits_that_double_not_on_every_look():
    """Every worker of every host watches its standbys: one that is down must not take a connection a look."""
    attempts = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.05)

        def refuse() -> None:
            while not stop.is_set():
                try:
                    attempts.append(listener.accept()[0].close())
                except TimeoutError:
                    pass

        stop = threading.Event()
        refusing = threading.Thread(target=refuse)
        refusing.start()
        replica = Replica(f"postgresql://frontdesk@127.0.0.1:{listener.getsockname()[1]}/frontdesk",
                          "postgresql://frontdesk@127.0.0.1:1/frontdesk", (0, 0), bound=0.1)  # a look every 25 ms
        replica.start()
        time.sleep(1.5)
        replica.close()
        stop.set()
        refusing.join()

    assert 1 <= len(attempts) <= 3  # at start and after about 1 s (the next after 2 s more), where 60 looks were
    assert not replica.fresh()
