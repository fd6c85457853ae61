"""`frontdesk serve --workers 2` as an operator runs it, on every store: two processes over one database sell
exactly the rooms there are, a worker killed with -9 loses nothing it answered for and is started again, SIGTERM
drains, and the limits count across workers (each worker a share of them, or one shared Redis)."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass

import httpx
import psycopg
import pytest

from storage.postgres import FRONTDESK, WRITER
from tests.conftest import CONTACT, User, free_port
from tests.shopping.shop import booking, check, day, make_shop
from tests.stores import Database

ROOMS, PUSHES = 10, 95


@dataclass
class Served:
    process: subprocess.Popen
    url: str
    output: str = ""

    def workers(self) -> list[int]:
        """The worker processes' pids: the supervisor's children."""
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.process.pid and "spawn" in _cmdline(entry):
                    found.append(int(entry))
        return found


def _cmdline(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@contextmanager
def serving(database: Database, *options: str, workers: int = 2) -> Iterator[Served]:
    """`frontdesk serve --workers N` over `database` until the block ends (SIGTERM); one worker serves in the process
    itself."""
    ports = [free_port() for _ in range(3)]
    # What it prints goes to a file, not a pipe: a pipe nobody reads until the end would stop a worker that writes
    # more than the pipe holds.
    with tempfile.TemporaryFile("w+") as printed:
        process = subprocess.Popen(
            [sys.executable, "-m", "console", "serve", *database.args(), "--workers", str(workers),
             "--port", str(ports[0]), "--secure-port", str(ports[1]), "--pci-port", str(ports[2]),
             "--failed-auth-per-minute", "20", *options], stdout=printed, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        served = Served(process, f"http://127.0.0.1:{ports[0]}")

        def said() -> str:
            printed.seek(0)
            return printed.read()

        try:
            try:
                _eventually(lambda: process.poll() is not None
                            or (_answers(served.url) and len(served.workers()) == (workers if workers > 1 else 0)),
                            120)  # a loaded machine is slow
                assert process.poll() is None
            except AssertionError:
                running = len(served.workers())
                process.kill()  # what it said while it did not come up, for whoever reads the failure
                process.wait(10)
                raise AssertionError(f"not serving with {workers} workers ({running} running, exit "
                                     f"{process.returncode}); it said:\n{said()}") from None
            yield served
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            process.wait(60)
            served.output = said()


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


def _eventually(test, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "not so in time"
        time.sleep(0.1)


def owner(database: Database, url: str) -> User:
    engine = database.engine()
    actor, issued = engine.identity.add_user(f"owner-{time.monotonic_ns()}@example.com")
    return User(actor, issued.token, httpx.Client(base_url=url, timeout=30,
                                                  headers={"Authorization": f"Bearer {issued.token}"}))


def _spread(count: int, work) -> list:
    """`work(n)` on `count` threads released together, each on a connection of its own (so over both workers)."""
    start = threading.Barrier(min(count, 32))

    def run(n: int):
        if n < 32:
            start.wait(10)
        return work(n)

    with ThreadPoolExecutor(32) as pool:
        return list(pool.map(run, range(count)))


def test_pushes_at_once_over_two_workers_sell_exactly_the_rooms_there_are(new_db):
    database = new_db()
    with serving(database) as served:
        shop = make_shop(owner(database, served.url), rooms=ROOMS, days=5)
        statuses = _spread(PUSHES, lambda n: httpx.post(f"{served.url}{shop.meta}/push_booking", json=booking(
            shop, day(1), day(3), reservation_id=f"LAST-{n}"), timeout=60).status_code)
        assert Counter(statuses) == {201: ROOMS, 422: PUSHES - ROOMS}
        assert shop.availability(day(1), day(2)) == {day(1): 0, day(2): 0}
        answers = _spread(20, lambda _: httpx.post(f"{served.url}{shop.meta}/push_booking", timeout=60, json=booking(
            shop, day(3), day(4), reservation_id="SAME")))
        assert Counter(a.status_code for a in answers) == {201: 20}
        assert len({a.json()["data"]["id"] for a in answers}) == 1
    engine = database.engine()
    assert engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop.property_id,)) == ROOMS + 1


def test_a_worker_killed_loses_nothing_it_answered_for_and_is_started_again(new_db):
    database = new_db()
    with serving(database) as served:
        shop = make_shop(owner(database, served.url), rooms=400, days=5)
        acknowledged, stop = [], threading.Event()

        def push(n: int) -> None:
            with httpx.Client(base_url=served.url, timeout=30) as client:
                while not stop.is_set():
                    number = f"K-{uuid.uuid4().hex}"  # hexadecimal words are never taken for a card number
                    try:
                        answer = client.post(f"{shop.meta}/push_booking", json=booking(
                            shop, day(1), day(2), reservation_id=number))
                    except httpx.TransportError:  # its worker died under it: not answered, so not promised
                        continue
                    if answer.status_code == 201:
                        acknowledged.append(number)

        writers = [threading.Thread(target=push, args=(n,)) for n in range(6)]
        for writer in writers:
            writer.start()
        _eventually(lambda: len(acknowledged) >= 20)
        victim = served.workers()[0]
        os.kill(victim, signal.SIGKILL)
        _eventually(lambda: len(served.workers()) == 2 and victim not in served.workers(), 30)
        kept_going = len(acknowledged)
        _eventually(lambda: len(acknowledged) >= kept_going + 20)  # answered again, by both
        stop.set()
        for writer in writers:
            writer.join(30)
    engine = database.engine()
    stored = {row[0] for row in engine.store.query("SELECT reservation_id FROM bookings WHERE property_id = ?",
                                                   (shop.property_id,))}
    assert set(acknowledged) <= stored
    told = engine.store.scalar("SELECT count(*) FROM events WHERE event = 'booking_new' AND property_id = ?",
                               (shop.property_id,))
    assert told >= len(acknowledged)  # each answered booking's event was written with it


@contextmanager
def writer_lock_held(database: Database) -> Iterator[None]:
    """Another process writing: the store's one-writer lock held until the block ends."""
    if database.kind == "sqlite":
        with closing(sqlite3.connect(database.target, isolation_level=None)) as conn:
            conn.execute("BEGIN IMMEDIATE")
            yield
            conn.execute("ROLLBACK")
        return
    with psycopg.connect(str(database.target), autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s, %s)", (FRONTDESK, WRITER))
        yield


def test_sigterm_lets_each_worker_finish_what_it_is_answering(new_db):
    database = new_db()
    with serving(database) as served:
        user = owner(database, served.url)
        answers: list[httpx.Response] = []
        with writer_lock_held(database):
            waiting = threading.Thread(target=lambda: answers.append(user.client.post("/api/v1/properties", json={
                "property": {"title": "Late Inn", "currency": "EUR"}})))
            waiting.start()
            time.sleep(1.0)  # in progress, waiting for the write lock
            served.process.send_signal(signal.SIGTERM)
            time.sleep(1.0)
        waiting.join(30)
    assert [answer.status_code for answer in answers] == [201]  # answered, not cut off
    assert served.process.returncode == 0
    assert "with 2 workers" in served.output and "Traceback" not in served.output


def _failures_until_refused(url: str, *, reuse: bool, attempts: int = 60) -> int:
    """Wrong tokens until the first 429: on one kept-alive connection (one worker), or each on a new one."""
    with httpx.Client(base_url=url, timeout=10) as kept:
        for attempt in range(1, attempts + 1):
            client = kept if reuse else httpx
            status = client.get(f"{url}/api/v1/properties", headers={"Authorization": "Bearer fd_wrong"}).status_code
            if status == 429:
                return attempt
    return attempts + 1


def test_without_a_shared_store_each_worker_counts_its_share_of_a_limit(new_db):
    with serving(new_db()) as served:
        assert _failures_until_refused(served.url, reuse=True) == 11  # 20 a minute over 2 workers: 10 on this one


@pytest.fixture
def redis_url() -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("FRONTDESK_REQUIRE_POSTGRES"):
            pytest.fail("Redis is not installed: run scripts/install-test-servers")
        pytest.skip("Redis is not installed (scripts/install-test-servers)")
    port = free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _eventually(lambda: subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True,
                                           text=True).stdout.strip() == "PONG", 10)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_with_a_shared_redis_the_limit_is_counted_once_across_workers(new_db, redis_url):
    with serving(new_db(), "--limits-storage", redis_url) as served:
        assert _failures_until_refused(served.url, reuse=False) == 21  # wherever each lands: 20, then refused
        valid = httpx.get(f"{served.url}/api/v1/health")
        assert valid.status_code == 200  # health is never throttled for failures


def test_a_redis_that_does_not_answer_is_refused_at_start(new_db):
    database = new_db()
    refused = subprocess.run([sys.executable, "-m", "console", "serve", *database.args(), "--workers", "2",
                              "--limits-storage", f"redis://127.0.0.1:{free_port()}/0"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "the limits' storage" in refused.stderr and refused.stderr.count("\n") == 1


def test_a_property_made_on_one_worker_is_read_on_the_other(new_db):
    database = new_db()
    with serving(database) as served:
        user = owner(database, served.url)
        made = check(user.client.post("/api/v1/properties", json={"property": {
            "title": "Two Workers Inn", "currency": "EUR", **CONTACT}}), 201)["data"]["id"]
        seen = _spread(20, lambda _: httpx.get(f"{served.url}/api/v1/properties/{made}",
                                               headers={"Authorization": f"Bearer {user.token}"}).status_code)
        assert seen == [200] * 20
