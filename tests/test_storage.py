"""The SQLite store: pragmas, migrations and the transaction helper."""

from __future__ import annotations

import sqlite3
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
