"""What only the SQLite store does: its pragmas, a thread's connection closed when the thread ends, files only the
owner reads, and a lease beside the file that expires (a holder on another host) and trusts no record it did not
write."""

from __future__ import annotations

import gc
import os
import sqlite3
import stat
import threading

from backend.outbox.lease import ServerAddresses, deliverer_lease, running_server
from storage import SqliteStore
from storage.migrations import STEPS
from storage.sqlite import lease_path

ADDRESSES = ServerAddresses("http://127.0.0.1:9100", "http://127.0.0.1:9101", "http://127.0.0.1:9102")


def test_pragmas(tmp_path):
    store = SqliteStore(tmp_path / "a.db")
    assert store.scalar("PRAGMA journal_mode") == "wal"
    assert store.scalar("PRAGMA foreign_keys") == 1
    assert store.scalar("PRAGMA busy_timeout") >= 5000
    assert store.scalar("PRAGMA secure_delete") == 1
    assert store.scalar("PRAGMA user_version") == len(STEPS)
    assert store.created


def test_every_connection_commits_durably(tmp_path):
    """synchronous = FULL on every thread's connection: a commit answered to a caller survives power loss."""
    store = SqliteStore(tmp_path / "a.db")
    seen = [store.scalar("PRAGMA synchronous")]
    worker = threading.Thread(target=lambda: seen.append(store.scalar("PRAGMA synchronous")))
    worker.start()
    worker.join()
    assert seen == [2, 2]  # 2 is FULL


def _open_files(path) -> int:
    """How many of this process's descriptors are open on the file."""
    found = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            found += os.readlink(f"/proc/self/fd/{fd}") == str(path)
        except OSError:  # closed meanwhile (the listing's own descriptor among them)
            pass
    return found


def test_a_thread_that_ends_leaves_no_file_open(tmp_path):
    """Ten threads read and end: none keeps the database open. The collector is held off, as it is for long stretches
    of a busy process: sqlite3's connection sits in a reference cycle, which only a collection would free."""
    path = tmp_path / "a.db"
    store = SqliteStore(path)
    before = _open_files(path)
    gc.disable()
    try:
        for _ in range(10):
            reader = threading.Thread(target=lambda: store.scalar("SELECT count(*) FROM properties"))
            reader.start()
            reader.join()
        # One more at most: while another connection of the process has the file open, SQLite keeps a closed one's
        # descriptor (closing it would drop the process's locks on the file) and hands it to the next that opens.
        assert _open_files(path) <= before + 1
    finally:
        gc.enable()


def test_only_the_owner_can_read_the_database_files(tmp_path):
    old = os.umask(0o022)
    try:
        store = SqliteStore(tmp_path / "a.db")
        store.conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', 'now')")  # -wal, -shm
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        assert modes == {"a.db": 0o600, "a.db-wal": 0o600, "a.db-shm": 0o600}
        store.close()
        (tmp_path / "b.db").touch(mode=0o644)  # made by an earlier version, with the umask
        SqliteStore(tmp_path / "b.db")
        assert stat.S_IMODE((tmp_path / "b.db").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_lease_held_on_another_host_is_taken_once_it_expires(tmp_path):
    store = SqliteStore(tmp_path / "f.db")
    elsewhere = store.lease("deliverer", "serve", ttl=0.2, record=None)
    elsewhere.holder = "another-host:1234:dead"  # whether its process lives can't be told from here
    assert elsewhere.acquire()
    mine = deliverer_lease(store, "serve")
    assert not mine.acquire()
    deadline = 0
    while not mine.acquire() and deadline < 100:  # not renewed: it expires
        threading.Event().wait(0.05)
        deadline += 1
    assert mine.holder_kind() == "serve" and not elsewhere.acquire()


def test_a_record_counts_only_until_its_lease_expires(tmp_path):
    store = SqliteStore(tmp_path / "f.db")
    elsewhere = deliverer_lease(store, "serve", ADDRESSES)
    elsewhere.holder = "another-host:4242:cafe"
    assert elsewhere.acquire()
    assert running_server(store) == ADDRESSES
    with sqlite3.connect(lease_path(store.path)) as conn:
        conn.execute("UPDATE leases SET expires_at = expires_at - 3600")
    assert running_server(store) is None


def test_a_record_that_is_not_addresses_is_not_trusted(tmp_path):
    store = SqliteStore(tmp_path / "f.db")
    assert deliverer_lease(store, "serve", ADDRESSES).acquire()
    for garbage in ("not json", '{"main": "http://127.0.0.1:1"}', '["a", "b", "c"]'):
        with sqlite3.connect(lease_path(store.path)) as conn:
            conn.execute("UPDATE servers SET addresses = ?", (garbage,))
        assert running_server(store) is None


def test_reading_creates_nothing_and_an_older_lease_file_has_no_server(tmp_path):
    store = SqliteStore(tmp_path / "f.db")
    assert running_server(store) is None
    assert not lease_path(store.path).exists()
    with sqlite3.connect(lease_path(store.path)) as conn:  # as a version before the record made it
        conn.execute("CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, kind TEXT NOT NULL, "
                     "expires_at REAL NOT NULL)")
    assert running_server(store) is None
