"""The SQLite store: pragmas, migrations and the transaction helper."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading

import pytest

from storage import Store
from storage.migrations import STEPS


def test_pragmas(tmp_path):
    store = Store(tmp_path / "a.db")

    assert store.scalar("PRAGMA journal_mode") == "wal"
    assert store.scalar("PRAGMA foreign_keys") == 1
    assert store.scalar("PRAGMA busy_timeout") >= 5000
    assert store.scalar("PRAGMA user_version") == len(STEPS)


def test_every_connection_commits_durably(tmp_path):
    """synchronous = FULL on every thread's connection: a commit answered to a caller survives power loss."""
    store = Store(tmp_path / "a.db")
    seen = [store.scalar("PRAGMA synchronous")]
    worker = threading.Thread(target=lambda: seen.append(store.scalar("PRAGMA synchronous")))
    worker.start()
    worker.join()
    assert seen == [2, 2]  # 2 is FULL


def test_only_the_owner_can_read_the_database_files(tmp_path):
    old = os.umask(0o022)
    try:
        store = Store(tmp_path / "a.db")
        store.conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', 'now')")  # -wal, -shm
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
        assert modes == {"a.db": 0o600, "a.db-wal": 0o600, "a.db-shm": 0o600}
        store.close()
        (tmp_path / "b.db").touch(mode=0o644)  # made by an earlier version, with the umask
        Store(tmp_path / "b.db")
        assert stat.S_IMODE((tmp_path / "b.db").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_migrating_twice_changes_nothing(tmp_path):
    Store(tmp_path / "a.db").conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', 'now')")

    again = Store(tmp_path / "a.db")

    assert again.scalar("SELECT count(*) FROM groups") == 1
    assert again.scalar("PRAGMA user_version") == len(STEPS)


def test_a_failed_transaction_leaves_nothing(tmp_path):
    store = Store(tmp_path / "a.db")

    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', 'now')")
        raise RuntimeError("half way")

    assert store.scalar("SELECT count(*) FROM groups") == 0


def test_foreign_keys_are_enforced(tmp_path):
    store = Store(tmp_path / "a.db")

    with pytest.raises(sqlite3.IntegrityError), store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES ('nope', 'nobody')")


def test_transactions_take_the_write_lock_up_front(tmp_path):
    """BEGIN IMMEDIATE: a second writer waits for the first instead of failing at its first write."""
    store = Store(tmp_path / "a.db")
    entered, release = threading.Event(), threading.Event()
    order: list[str] = []

    def first() -> None:
        with store.transaction() as conn:
            entered.set()
            release.wait(5)
            conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('a', 'A', 'now')")
            order.append("first")

    def second() -> None:
        entered.wait(5)
        with store.transaction() as conn:
            order.append("second")
            conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('b', 'B', 'now')")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    entered.wait(5)
    release.set()
    for t in threads:
        t.join(10)

    assert order == ["first", "second"]
    assert store.scalar("SELECT count(*) FROM groups") == 2
