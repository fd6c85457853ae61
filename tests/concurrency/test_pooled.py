"""`frontdesk serve` behind PgBouncer in transaction mode, as many hosts run it over one PostgreSQL server: its
statements and transactions through the pooler (unprepared: a pooler hands each transaction any server connection),
what needs a session of its own — the lease, the migrations' lock — on `--db-direct`, the server's own address. The
scoped writers' locks are transaction locks, so they hold through the pooler: the rooms are sold exactly.
PostgreSQL only, by nature."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest

from tests.concurrency.test_workers import _spread, owner, serving
from tests.conftest import free_port
from tests.pooler import Pooler, pgbouncer
from tests.shopping.shop import booking, day, make_shop
from tests.stores import PORT_ENV, POSTGRESQL, Database, cluster, new_database

ROOMS, PUSHES = 8, 40


@pytest.fixture(scope="module")
def pooler() -> Iterator[Pooler]:
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    with pgbouncer(cluster().port, free_port()) as running:
        yield running


@pytest.fixture
def database(tmp_path) -> Iterator[Database]:
    made = new_database(POSTGRESQL, tmp_path)
    yield made
    made.drop()


def _name(database: Database) -> str:
    return str(database.target).rsplit("/", 1)[1]


def test_serve_behind_pgbouncer_sells_exactly_the_rooms_there_are_and_holds_its_lease_directly(pooler, database):
    pooled = replace(database, target=pooler.url(str(database.target)))
    with serving(pooled, "--db-direct", str(database.target)) as served:
        shop = make_shop(owner(database, served.url), rooms=ROOMS, days=5)
        statuses = _spread(PUSHES, lambda n: httpx.post(f"{served.url}{shop.meta}/push_booking", json=booking(
            shop, day(1), day(3), reservation_id=f"POOLED-{n}"), timeout=60).status_code)
        assert Counter(statuses) == {201: ROOMS, 422: PUSHES - ROOMS}
        assert shop.availability(day(1), day(2)) == {day(1): 0, day(2): 0}
        engine = database.engine()
        assert engine.running_server() is not None  # the lease, held on the direct address, is seen as held
    assert pooler.logins(_name(database)) >= 2  # both workers' statements came through the pooler


def test_a_direct_address_of_another_database_is_refused_in_one_line(pooler, database, tmp_path):
    other = new_database(POSTGRESQL, tmp_path, "other")
    try:
        ran = subprocess.run([sys.executable, "-m", "console", "serve", *replace(
            database, target=pooler.url(str(database.target))).args(), "--db-direct", str(other.target)],
            capture_output=True, text=True, timeout=60)
    finally:
        other.drop()
    assert ran.returncode == 1 and ran.stderr.count("\n") == 1, ran.stderr
    assert "are not one database" in ran.stderr and "Traceback" not in ran.stderr


def test_a_direct_address_beside_a_sqlite_database_is_refused_in_one_line(tmp_path):
    path = tmp_path / "frontdesk.db"
    ran = subprocess.run([sys.executable, "-m", "console", "--db", str(path), "serve", "--db-direct",
                          "postgresql://frontdesk@127.0.0.1:1/x"], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1 and "a SQLite --db has no pooler" in ran.stderr and ran.stderr.count("\n") == 1
    assert not path.exists()
