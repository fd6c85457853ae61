"""A SQLite database moved into an empty PostgreSQL one, whole (`frontdesk db copy`).

Every table SQLite's schema has, in an order that puts each row after the rows it refers to (a derived rate plan
after its parent), in one PostgreSQL transaction: all of it or nothing. Blobs go as bytes; the tables that list
rows in insertion order keep it (SQLite's rowid becomes their `rowid` column); the outbox's positions (SQLite's sequence) and the
audit log's numbers carry on where SQLite's stopped (its sequence, not its largest remaining row: events pruned
since must not be issued again). The inbox's counts, which triggers keep, are SQLite's as they were; SQLite's text
indexes are not tables to PostgreSQL, which builds its own. Each table's
rows are counted on both sides before the commit. A target that holds any row is refused, and so is a source of
another schema version than the target's (both are migrated to this version's on opening).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

import psycopg
import sqlite_utils

from storage.postgres import PostgresStore, answer
from storage.sqlite import SqliteStore
from storage.store import StoreError

CHUNK = 1000  # rows a statement: memory stays bounded whatever the table's size
ORDERED = ("channel_properties", "channel_rate_plans", "booking_reports", "thread_notes")  # rowid: their order
KEPT_BY_TRIGGERS = ("thread_counts", "booking_counts")
# SQLite's text indexes (FTS5 tables and their shadows), which PostgreSQL keeps as indexes of its tables.
TEXT_INDEXES = ("thread_search", "message_search")
GENERATED = {"events": "seq", "vault_audit": "id", **{table: "rowid" for table in ORDERED}}
FIRST = {"rate_plans": "parent_rate_plan_id IS NOT NULL, rowid"}  # a parent before the plans derived from it


def copy_database(source: SqliteStore, target: PostgresStore) -> dict[str, int]:
    """Copy every table; how many rows each held."""
    try:
        return _copy(source, target)
    except psycopg.Error as refused:  # a value PostgreSQL will not take: the transaction rolled back whole
        raise StoreError(f"the copy stopped, and nothing was copied: {' '.join(str(refused).split())}") from None


def _copy(source: SqliteStore, target: PostgresStore) -> dict[str, int]:
    db = sqlite_utils.Database(source.conn)
    ordered = in_dependency_order(db)
    tables = [t for t in ordered if t not in KEPT_BY_TRIGGERS] + [t for t in ordered if t in KEPT_BY_TRIGGERS]
    copied: dict[str, int] = {}
    with target.transaction() as conn:
        held = [table for table in tables if conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()]
        if held:
            raise StoreError(f"the PostgreSQL database {target.location} is not empty ({', '.join(held[:5])} hold "
                             "rows): copy into a new database")
        for table in tables:
            if table in KEPT_BY_TRIGGERS:
                conn.execute(f"DELETE FROM {table}")  # what the triggers made of the threads copied: SQLite's instead
            columns = [column.name for column in db[table].columns] + (["rowid"] if table in ORDERED else [])
            order = FIRST.get(table, "rowid" if db.table(table).use_rowid else ", ".join(db.table(table).pks))
            rows = source.tuples(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
            insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            for chunk in _chunks(rows):
                conn.executemany(insert, chunk)
            copied[table] = answer(conn.execute(f"SELECT count(*) FROM {table}"))[0]
            expected = source.scalar(f"SELECT count(*) FROM {table}")
            if copied[table] != expected:
                raise StoreError(f"{table}: {copied[table]} rows arrived of {expected}; nothing was copied")
        for table, column in GENERATED.items():
            issued = max(source.scalar(SqliteStore.dialect.last_issued(table, column)) if table == "events" else 0,
                         answer(conn.execute(f"SELECT coalesce(max({column}), 0) FROM {table}"))[0])
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), CAST(? AS bigint), ? = 1)",
                         (max(issued, 1), int(issued > 0)))
            if table == "events":  # SQLite's positions are its sequence: the cursors copied count in them
                conn.execute("UPDATE events SET pos = seq")
                conn.execute("UPDATE outbox_head SET pos = ?", (issued,))
        # A thread's search text was taken as it arrived, before its messages: taken again now they are here.
        conn.execute("UPDATE message_threads SET search_text = thread_search_text(title, last_message_id)")
    return copied


def in_dependency_order(db: sqlite_utils.Database) -> list[str]:
    """SQLite's tables (but its own), each after the tables it refers to."""
    names = [name for name in db.table_names()
             if not name.startswith("sqlite_") and not name.startswith(TEXT_INDEXES)]
    after = {name: {fk.other_table for fk in db.table(name).foreign_keys if fk.other_table != name} for name in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [name for name in names if name not in ordered and after[name] <= set(ordered)]
        if not ready:
            raise StoreError("the SQLite database's tables refer to each other in a circle")
        ordered += ready
    return ordered


def _chunks(rows: Iterable[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    iterator = iter(rows)
    while chunk := list(islice(iterator, CHUNK)):
        yield chunk
