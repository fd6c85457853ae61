"""Storage: the one interface the engine reaches a database through (storage/store.py), an implementation per
database (SQLite, embedded, the default; PostgreSQL), their dialect helpers and migrations, and reads sent to a
PostgreSQL primary's hot standbys (storage/reads.py, storage/replicas.py). Knows no domain rule."""

from __future__ import annotations

from pathlib import Path

from storage.dialect import Dialect
from storage.sqlite import SqliteStore, owner_only
from storage.store import Connection, Lease, Row, Store, StoreError, chunked, new_id, placeholders, utc_now


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def open_store(target: str | Path, *, direct: str | None = None) -> Store:
    """The store at `target`: a `postgresql://` URL, else a SQLite file's path (made if missing). `direct`: the
    server's own URL when `target` is a pooler's (storage/postgres.py)."""
    if is_postgres_url(target):
        from storage.postgres import PostgresStore  # psycopg is imported only by those who use it

        return PostgresStore(str(target), direct_url=direct)
    return SqliteStore(target)


__all__ = ["Connection", "Dialect", "Lease", "Row", "SqliteStore", "Store", "StoreError", "chunked", "is_postgres_url",
           "new_id", "open_store", "owner_only", "placeholders", "utc_now"]
