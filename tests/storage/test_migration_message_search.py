"""Migration 0039 on a database of the version before it, on both stores: the messages written before it are in
the full-text index at once (SQLite's 'rebuild' of its FTS5 table, PostgreSQL's generated column filled as the
column is added), folded for case and accents."""

from __future__ import annotations

import os
import uuid

import psycopg
import pytest

from storage.migrations import STEPS, postgresql_steps, script
from tests.old_database import apply, migrated_up_to
from tests.stores import PORT_ENV, cluster

STEP = "0039_message_search.sql"
NOW = "2026-01-01T00:00:00.000000"
# Only messages: their thread is beside the point here (the references are off for these rows).
OLD_MESSAGES = [("m1", "Is the Café open at night?"), ("m2", "Thanks, see you")]
INSERT = "INSERT INTO messages (id, thread_id, sender, message, inserted_at, updated_at) VALUES (?, 't', 'guest', ?, ?, ?)"


def test_sqlite_indexes_the_messages_written_before_it(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", STEP)
    conn.execute("PRAGMA foreign_keys = OFF")
    for message_id, text in OLD_MESSAGES:
        conn.execute(INSERT, (message_id, text, NOW, NOW))

    apply(conn, STEP)

    found = conn.execute("SELECT m.id FROM message_search s JOIN messages m ON m.rowid = s.rowid "
                         "WHERE message_search MATCH '\"cafe\"'").fetchall()
    assert found == [("m1",)]
    conn.execute("UPDATE messages SET message = 'Now about parking' WHERE id = 'm1'")  # the triggers follow
    assert conn.execute("SELECT count(*) FROM message_search WHERE message_search MATCH 'cafe'").fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM message_search WHERE message_search MATCH 'parking'").fetchone() == (1,)
    conn.execute("DELETE FROM messages WHERE id = 'm1'")
    assert conn.execute("SELECT count(*) FROM message_search WHERE message_search MATCH 'parking'").fetchone() == (0,)
    conn.execute("INSERT INTO message_search (message_search) VALUES ('integrity-check')")


def test_postgresql_indexes_the_messages_written_before_it():
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    url = cluster().empty(f"old_{uuid.uuid4().hex[:16]}")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            for number, name in postgresql_steps():
                if number <= STEPS.index(STEP):
                    conn.execute(script("postgresql", name))
            conn.execute("SET session_replication_role = replica")  # no thread for these messages
            for message_id, text in OLD_MESSAGES:
                conn.execute(INSERT.replace("?", "%s"), (message_id, text, NOW, NOW))

            conn.execute(script("postgresql", STEP))

            assert conn.execute("SELECT id FROM messages WHERE search_words @@ to_tsquery('message_search', 'CAFE')"
                                ).fetchall() == [("m1",)]
    finally:
        cluster().drop(url)
