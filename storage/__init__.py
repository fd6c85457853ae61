"""Storage: the one interface the engine reaches a database through (storage/store.py), an implementation per
database (SQLite, embedded, the default; PostgreSQL), their dialect helpers and migrations, and reads sent to a
PostgreSQL primary's hot standbys (storage/reads.py, storage/replicas.py). Knows no domain rule."""

from __future__ import annotations

import sys
from pathlib import Path

from storage.dialect import Dialect
from storage.reads import Reads
from storage.sqlite import SqliteStore, owner_only
from storage.store import Connection, Lease, Row, Store, StoreError, chunked, new_id, placeholders, timestamp, utc_now


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def unreachable(error: BaseException) -> bool:
    """Whether `error` is the database server gone or not answering (a restart, a lost network, a full pool): the
    request may succeed if tried again. psycopg is looked at only if something imported it."""
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(error, psycopg.OperationalError)


def open_store(target: str | Path, *, direct: str | None = None) -> Store:
    """The store at `target`: a `postgresql://` URL, else a SQLite file's path (made if missing). `direct`: the
    server's own URL when `target` is a pooler's (storage/postgres.py)."""
    if is_postgres_url(target):
        from storage.postgres import PostgresStore  # psycopg is imported only by those who use it

        return PostgresStore(str(target), direct_url=direct)
    return SqliteStore(target)


__all__ = ["Connection", "Dialect", "Lease", "Reads", "Row", "SqliteStore", "Store", "StoreError", "chunked",
           "is_postgres_url", "new_id", "open_store", "owner_only", "placeholders", "timestamp", "unreachable",
           "utc_now"]
