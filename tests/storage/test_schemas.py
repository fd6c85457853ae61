"""The two stores' schemas are one: PostgreSQL's baseline and the pairs after it make every table and column that
SQLite's migrations make, each as nullable, read by sqlite-utils on the SQLite side and by information_schema on
the PostgreSQL side (where SQLite's implicit `rowid` is a column of its own). A migration written for one store and
forgotten for the other fails here."""

from __future__ import annotations

import os

import psycopg
import pytest
import sqlite_utils

from storage import open_store
from storage.copy import TEXT_INDEXES
from tests.stores import PORT_ENV, cluster

# The outbox's commit-safe positions, which SQLite needs not (its position is the sequence: storage/dialect.py), and
# the inbox's search text and messages' words, which SQLite keeps in text indexes (its FTS5 tables, not tables
# PostgreSQL has).
POSTGRESQL_ONLY = {("events", "xid"), ("events", "pos"), ("message_threads", "search_text"),
                   ("messages", "search_words")}


def _sqlite_schema(path) -> dict[str, dict[str, bool]]:
    """table -> column -> nullable (a primary key is not, as PostgreSQL has it; SQLite lets a text one be NULL)."""
    db = sqlite_utils.Database(path)
    return {table.name: {column.name: not column.notnull and column.name not in table.pks for column in table.columns}
            for table in db.tables if not table.name.startswith(("sqlite_", *TEXT_INDEXES))}


def _postgres_schema(url: str) -> dict[str, dict[str, bool]]:
    schema: dict[str, dict[str, bool]] = {}
    with psycopg.connect(url) as conn:
        for table, column, nullable in conn.execute(
                "SELECT table_name, column_name, is_nullable FROM information_schema.columns "
                "WHERE table_schema = current_schema()"):
            # rowid: SQLite's implicit row number, which lists ordered by insertion read
            if column != "rowid" and (table, column) not in POSTGRESQL_ONLY:
                schema.setdefault(table, {})[column] = nullable == "YES"
    return schema


def test_postgresql_makes_the_tables_and_columns_sqlite_makes(tmp_path):
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    open_store(tmp_path / "schema.db").close()
    url = cluster().fresh()
    open_store(url).close()
    sqlite, postgres = _sqlite_schema(tmp_path / "schema.db"), _postgres_schema(url)
    bookkeeping = set(postgres) - set(sqlite)  # PostgreSQL's own records of its migrations, servers and outbox head

    assert {table: postgres.get(table) for table in sqlite} == sqlite
    assert bookkeeping <= {"schema_version", "servers", "outbox_head"}, bookkeeping
