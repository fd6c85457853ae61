"""What `frontdesk serve` records beside the deliverer's lease: its listeners' addresses, trusted only while it holds
a live lease, so that a console on the same database finds the secure listener (the tester's capture)."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

from backend.config import Config
from backend.engine import Engine
from backend.outbox.lease import Lease, ServerAddresses, lease_path, running_server

ADDRESSES = ServerAddresses("http://127.0.0.1:9100", "http://127.0.0.1:9101", "http://127.0.0.1:9102",
                            public_secure="https://secure.hotel.example")


def servers_rows(db: Path) -> int:
    with sqlite3.connect(lease_path(db)) as conn:
        return conn.execute("SELECT count(*) FROM servers").fetchone()[0]


def test_a_server_holding_the_lease_is_found_and_gone_once_it_releases_it(tmp_path):
    db = tmp_path / "f.db"
    server = Lease(db, "serve", addresses=ADDRESSES)
    assert running_server(db) is None  # not before it holds the lease
    assert server.acquire()
    assert running_server(db) == ADDRESSES
    server.release()
    assert running_server(db) is None
    assert servers_rows(db) == 0


def test_a_crashed_servers_record_is_not_trusted(tmp_path):
    db = tmp_path / "f.db"
    crashed = Lease(db, "serve", addresses=ADDRESSES)
    crashed.holder = f"{socket.gethostname()}:999999999:dead"  # a pid no process has
    assert crashed.acquire()
    assert running_server(db) is None  # at once: its process is gone from this host


def test_a_record_counts_only_until_its_lease_expires(tmp_path):
    db = tmp_path / "f.db"
    elsewhere = Lease(db, "serve", addresses=ADDRESSES)
    elsewhere.holder = "another-host:4242:cafe"  # a process this host can't look for
    assert elsewhere.acquire()
    assert running_server(db) == ADDRESSES
    with sqlite3.connect(lease_path(db)) as conn:
        conn.execute("UPDATE leases SET expires_at = expires_at - 3600")
    assert running_server(db) is None


def test_whoever_takes_the_lease_next_clears_the_record(tmp_path):
    db = tmp_path / "f.db"
    crashed = Lease(db, "serve", addresses=ADDRESSES)
    crashed.holder = f"{socket.gethostname()}:999999999:dead"
    assert crashed.acquire()
    assert Lease(db, "console").acquire()
    assert servers_rows(db) == 0


def test_a_record_that_is_not_addresses_is_not_trusted(tmp_path):
    db = tmp_path / "f.db"
    assert Lease(db, "serve", addresses=ADDRESSES).acquire()
    for garbage in ("not json", '{"main": "http://127.0.0.1:1"}', '["a", "b", "c"]'):
        with sqlite3.connect(lease_path(db)) as conn:
            conn.execute("UPDATE servers SET addresses = ?", (garbage,))
        assert running_server(db) is None


def test_a_console_holding_the_lease_is_no_server(tmp_path):
    db = tmp_path / "f.db"
    assert Lease(db, "console").acquire()
    assert running_server(db) is None


def test_reading_creates_nothing_and_an_older_lease_file_has_no_server(tmp_path):
    db = tmp_path / "f.db"
    assert running_server(db) is None
    assert not lease_path(db).exists()
    with sqlite3.connect(lease_path(db)) as conn:  # as a version before the record made it
        conn.execute("CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, kind TEXT NOT NULL, "
                     "expires_at REAL NOT NULL)")
    assert running_server(db) is None


def test_the_engine_says_where_a_capture_goes(tmp_path):
    engine = Engine.open(tmp_path / "f.db", Config())
    assert engine.capture_target() is None
    given = engine.capture_target("https://secure.example:8443/")
    assert (given.url, given.source) == ("https://secure.example:8443", "option")
    server = Lease(engine.path, "serve", addresses=ADDRESSES)
    assert server.acquire()
    found = engine.capture_target()
    assert (found.url, found.source) == ("http://127.0.0.1:9101", "server")  # where it listens, not its proxy
    assert engine.capture_target("https://secure.example:8443").source == "option"  # what is given wins
    assert engine.capture_via(found).secure_url == "http://127.0.0.1:9101"
