"""Shared fixtures: an engine on a real database (a SQLite file, and a PostgreSQL database of its own on the suite's
cluster: every test that asks for one runs on both, as `[sqlite]` and `[postgresql]`), and the HTTP apps on real
loopback ports.

`--stores sqlite` (or `postgresql`) runs one store's tests alone. The PostgreSQL leg needs Debian's server
(scripts/install-test-servers); without it those tests are left out with a warning, unless
FRONTDESK_REQUIRE_POSTGRES=1 (CI) makes that an error.
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import uvicorn

from backend.core.config import Config
from backend.engine import Engine
from backend.http.apps import Listener
from backend.http.guard import Gate
from backend.http.server import listener_config
from backend.identity.models import Actor
from tests.postgres_cluster import Cluster, server_bin
from tests.receiver import Receiver
from tests.stores import DATA_ENV, PORT_ENV, POSTGRESQL, SQLITE, Database, new_database

_emails = itertools.count(1)
# The suite sends many deliberate 401s from 127.0.0.1: its servers don't throttle them (tests/http/test_throttle.py
# tests the throttle on servers of its own).
UNTHROTTLED = 10**9
# The sites the session's server lets frame its web chat, as an operator names them (nobody by default): the host
# pages of tests/chat/test_web_chat.py, on loopback ports of their own.
HOST_PAGES = "http://127.0.0.1:*"

MIDNIGHT_MARGIN = 60  # seconds before midnight (UTC) in which a test waits for the new day to begin


@pytest.fixture(autouse=True)
def _not_across_midnight() -> None:
    """Tests build their dates from today (UTC, `tests/shopping/shop.day`): one begun just before midnight would
    check what it wrote for today against tomorrow's window. It waits for the new day instead (once a run, at most
    a minute)."""
    now = datetime.now(UTC)
    left = (datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC) - now).total_seconds()
    if left < MIDNIGHT_MARGIN:
        time.sleep(left + 1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--stores", default=f"{SQLITE},{POSTGRESQL}",
                     help="the stores tests run on, comma-separated (default: sqlite,postgresql)")


def pytest_configure(config: pytest.Config) -> None:
    """The stores of this run; the first process starts the PostgreSQL cluster that its workers share."""
    stores = [kind for kind in config.getoption("stores").split(",") if kind]
    if POSTGRESQL in stores and PORT_ENV not in os.environ:
        if server_bin() is None:
            if os.environ.get("FRONTDESK_REQUIRE_POSTGRES"):
                raise pytest.UsageError("PostgreSQL is not installed: run scripts/install-test-servers")
            warnings.warn("PostgreSQL is not installed (scripts/install-test-servers): its tests are left out",
                          stacklevel=1)  # the warning is the session's, not a caller's
            stores.remove(POSTGRESQL)
        else:
            cluster = Cluster(server_bin()).start()
            config.stash[CLUSTER] = cluster
            cluster.make_template()
            os.environ[PORT_ENV], os.environ[DATA_ENV] = str(cluster.port), str(cluster.data)
    config.stash[STORES] = stores


def pytest_unconfigure(config: pytest.Config) -> None:
    if (cluster := config.stash.get(CLUSTER, None)) is not None:
        cluster.stop()
        del os.environ[PORT_ENV], os.environ[DATA_ENV]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`store_kind` is every store of the run; a module's STORE_KINDS keeps it to those (a long module split in
    two by store, so that the run's workers take one each)."""
    if "store_kind" in metafunc.fixturenames:
        kept = getattr(metafunc.module, "STORE_KINDS", None)
        kinds = [kind for kind in metafunc.config.stash[STORES] if kept is None or kind in kept]
        metafunc.parametrize("store_kind", kinds, scope="session")


CLUSTER = pytest.StashKey[Cluster]()
STORES = pytest.StashKey[list]()


@pytest.fixture
def new_db(store_kind: str, tmp_path) -> Iterator[Callable[..., Database]]:
    """New databases of the test's store, each its own (`new_db("old")`), dropped after the test."""
    made: list[Database] = []

    def make(name: str = "frontdesk") -> Database:
        made.append(new_database(store_kind, tmp_path, name))
        return made[-1]

    yield make
    for database in made:
        database.drop()


@pytest.fixture(scope="session")
def session_db(store_kind: str, tmp_path_factory) -> Iterator[Callable[[str], Database]]:
    """New databases for a session's servers (`session_db("webhooks")`), dropped at the session's end."""
    made: list[Database] = []

    def make(name: str) -> Database:
        made.append(new_database(store_kind, tmp_path_factory.mktemp(name)))
        return made[-1]

    yield make
    for database in made:
        database.drop()


_PORTS_PER_WORKER = 1000
_next_ports: Iterator[int] | None = None


def free_port() -> int:
    """A port free now, below the kernel's ephemeral range (32768 and up): a port from `bind(("", 0))` is one the
    kernel may give the next outgoing connection (a PostgreSQL client's, say) before the test's server binds it, and
    a server that could not listen once held up a test for minutes. Each xdist worker has a band of its own."""
    global _next_ports
    if _next_ports is None:
        worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
        first = 20000 + (worker % 12) * _PORTS_PER_WORKER
        start = first + os.getpid() % _PORTS_PER_WORKER  # two runs at once start apart
        _next_ports = itertools.cycle([*range(start, first + _PORTS_PER_WORKER), *range(first, start)])
    for port in itertools.islice(_next_ports, _PORTS_PER_WORKER):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError(f"no free port in this worker's {_PORTS_PER_WORKER}")


@dataclass
class User:
    actor: Actor
    token: str
    client: httpx.Client


class LiveServer:
    """One Frontdesk listener as `frontdesk serve` runs it, on a free loopback port, in a background thread.
    `gate`: shared with the other listeners of a test, as `frontdesk serve` shares one (else its own)."""

    def __init__(self, engine: Engine, listener: Listener, port: int, gate: Gate | None = None,
                 **tls: str) -> None:
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
        self.config = listener_config(engine, listener, "127.0.0.1", port, gate, log_level="warning", **tls)
        self.app = self.config.app
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(5)


@dataclass
class Site:
    """The three listeners of one `frontdesk serve`, over one engine, as a test of its own runs them."""

    engine: Engine
    main: LiveServer
    secure: LiveServer
    pci: LiveServer

    def user(self) -> User:
        actor, issued = self.engine.identity.add_user(f"site{next(_emails)}-{time.monotonic_ns()}@example.com")
        return User(actor, issued.token, httpx.Client(base_url=self.main.url, timeout=10,
                                                      headers={"Authorization": f"Bearer {issued.token}"}))


# The seconds a body may take to arrive in a test: on a machine whose every core runs the suite, a body a client
# sends at once has been seen to take over 5 s (the default) to reach the server's loop. The limits' own tests
# (tests/http/test_load_limits.py) set theirs.
LOADED_BODY = 30.0


@contextmanager
def serve_site(database: Database, **config) -> Iterator[Site]:
    """`frontdesk serve`'s three listeners on free ports, over `database`, with these Config settings (throttling
    off, as `live`)."""
    ports = free_port(), free_port(), free_port()
    main, secure, pci = (f"http://127.0.0.1:{port}" for port in ports)
    engine = database.engine(Config(base_url=main, secure_url=secure, pci_url=pci,
                                    **{"failed_auth_per_minute": UNTHROTTLED, "body_timeout": LOADED_BODY, **config}))
    gate = Gate(UNTHROTTLED)
    with LiveServer(engine, "main", ports[0], gate) as main_server, \
            LiveServer(engine, "secure", ports[1], gate) as secure_server, \
            LiveServer(engine, "pci", ports[2], gate) as pci_server:
        yield Site(engine, main_server, secure_server, pci_server)


@contextmanager
def delivering_site(database: Database, max_attempts: int, **config) -> Iterator[Site]:
    """`serve_site` with its deliverer running as `frontdesk serve` runs it: retries a few hundredths of a second
    apart (0.05 s, doubled), `max_attempts` before a destination is marked failing, and addresses on loopback
    allowed (the receivers are there); other Config settings as given (a clock)."""
    with serve_site(database, fetch_private_addresses=True, delivery_backoff=0.05,
                    delivery_max_attempts=max_attempts, **config) as site, site.engine.delivering("serve"):
        yield site


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A receiver on loopback for what Frontdesk sends out."""
    made = Receiver()
    yield made
    made.close()


@pytest.fixture
def engine(new_db) -> Engine:
    return new_db().engine()


@pytest.fixture(scope="session")
def live(session_db) -> Iterator[tuple[Engine, LiveServer]]:
    """The main listener over a database shared by the session; tests isolate through fresh users."""
    port, secure_port, pci_port = free_port(), free_port(), free_port()
    engine = session_db("live").engine(
                         Config(base_url=f"http://127.0.0.1:{port}", secure_url=f"http://127.0.0.1:{secure_port}",
                                pci_url=f"http://127.0.0.1:{pci_port}", fetch_timeout=1.0,
                                max_body_bytes=1024 * 1024, failed_auth_per_minute=UNTHROTTLED,
                                body_timeout=LOADED_BODY,
                                fetch_private_addresses=True,  # the test image server is on loopback
                                chat_frame_ancestors=HOST_PAGES))
    with LiveServer(engine, "main", port) as server:
        yield engine, server


@pytest.fixture(scope="session")
def secure(live) -> Iterator[LiveServer]:
    """The secure listener over the same engine and database as `live`, where its config says."""
    with LiveServer(live[0], "secure", _port(live[0].config.secure_url)) as server:
        yield server


@pytest.fixture(scope="session")
def pci(live, secure) -> Iterator[LiveServer]:
    """The card tokenisation listener; its capture reaches `secure`."""
    with LiveServer(live[0], "pci", _port(live[0].config.pci_url)) as server:
        yield server


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


@pytest.fixture
def live_engine(live) -> Engine:
    return live[0]


@pytest.fixture
def make_user(live) -> Iterator:
    engine, server = live
    clients: list[httpx.Client] = []

    def make() -> User:
        actor, issued = engine.identity.add_user(f"user{next(_emails)}-{time.monotonic_ns()}@example.com")
        client = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {issued.token}"}, timeout=10)
        clients.append(client)
        return User(actor, issued.token, client)

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def user(make_user) -> User:
    return make_user()


@pytest.fixture
def anonymous(live) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live[1].url, timeout=10) as client:
        yield client


CONTACT = {"email": "desk@example.com", "phone": "+44 20 7946 0000", "zip_code": "EC1A 1BB", "country": "GB",
           "state": "England", "city": "London", "address": "1 Example Street", "longitude": "-0.1278",
           "latitude": "51.5074"}


def property_body(**fields) -> dict:
    return {"property": {"title": "Test Hotel", "currency": "GBP", **fields}}
