"""`frontdesk db copy`: a SQLite database, demo data, bookings, cards and events included, moved into an empty
PostgreSQL database whole, which then serves as the original did."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import sqlite_utils

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.tools.demo import load_demo
from backend.vault import samples
from storage import SqliteStore
from storage.copy import in_dependency_order
from tests.postgres_cluster import Cluster
from tests.stores import PORT_ENV, cluster


@pytest.fixture
def pg() -> Cluster:
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    return cluster()


def frontdesk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "console", *args], capture_output=True, text=True, timeout=120)


def rows(engine: Engine, table: str, columns: list[str]) -> list[tuple]:
    return sorted(tuple(row) for row in engine.store.tuples(f"SELECT {', '.join(columns)} FROM {table}"))


@pytest.fixture
def original(tmp_path) -> Engine:
    engine = Engine.open(tmp_path / "old.db")
    load_demo(engine)
    engine.tokenisation.tokenise("frontdesk", samples.message("bookings"), "tests")  # cards sealed with its key
    with engine.store.transaction() as conn:  # events since pruned: the outbox's position is beyond its last row
        conn.execute("DELETE FROM events WHERE seq > (SELECT max(seq) - 5 FROM events)")
    return engine


def test_every_table_arrives_whole_and_the_copy_serves_as_the_original(original, pg, tmp_path):
    url, keys = pg.empty("copy_whole"), tmp_path / "copy.keys"
    done = frontdesk("db", "copy", "--from", str(original.store.path), "--to", url, "--keys", str(keys))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Copied ") and "bookings: " in done.stdout
    copy = Engine.open(url, Config(keys_path=keys))
    source = sqlite_utils.Database(original.store.conn)
    for table in in_dependency_order(source):
        columns = [column.name for column in source[table].columns]
        assert rows(copy, table, columns) == rows(original, table, columns), table
    # The insertion order of ordered lists, the vault's cards (same key), the outbox's position.
    op = original.identity.operator()
    for channel in original.channels.list(op, ListQuery())[0]:
        assert copy.channels.get(copy.identity.operator(), channel["id"])["properties"] == channel["properties"]
    token = original.store.scalar("SELECT token FROM vault_cards LIMIT 1")
    assert copy.vault.card(token, "tests")["card_number"] == original.vault.card(token, "tests")["card_number"]
    last = original.store.scalar(SqliteStore.dialect.last_issued("events", "seq"))
    with copy.store.transaction() as conn:
        conn.execute("INSERT INTO events (id, event, payload, inserted_at) VALUES ('after', 'ari', '{}', 'now')")
    assert copy.store.scalar("SELECT seq FROM events WHERE id = 'after'") == last + 1
    assert copy.chat.unread_threads(copy.identity.operator()) == original.chat.unread_threads(op)
    copy.close()


def test_a_target_that_holds_rows_or_other_keys_is_refused_and_left_as_it_was(original, pg, tmp_path):
    url, keys = pg.empty("copy_refused"), tmp_path / "copy.keys"
    assert frontdesk("db", "copy", "--from", str(original.store.path), "--to", url, "--keys", str(keys)).returncode == 0
    again = frontdesk("db", "copy", "--from", str(original.store.path), "--to", url, "--keys", str(keys))
    assert again.returncode == 1 and "is not empty" in again.stderr and again.stderr.count("\n") == 1
    other = pg.empty("copy_other_keys")
    Engine.open(tmp_path / "another.db").close()  # a key file of its own
    refused = frontdesk("db", "copy", "--from", str(original.store.path), "--to", other,
                        "--keys", str(tmp_path / "another.db.keys"))
    assert refused.returncode == 1 and "holds other keys" in refused.stderr
    missing = frontdesk("db", "copy", "--from", str(tmp_path / "nowhere.db"), "--to", other, "--keys", str(keys))
    assert missing.returncode == 2 and "is not a database file" in missing.stderr
