"""One SQLite file shared by every thread of the process.

Each thread gets its own connection (SQLite connections must not be shared across threads
while a transaction is open); all of them see the same file in WAL mode, so readers never
block the single writer and `BEGIN IMMEDIATE` serialises writers.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from storage.migrations import migrate

BUSY_TIMEOUT_MS = 10_000


def new_id() -> str:
    return str(uuid.uuid4())


def utc_now() -> str:
    """UTC timestamp without zone, microsecond precision: 2026-11-21T10:03:29.335485."""
    return datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        migrate(self.conn)

    @property
    def db(self) -> sqlite_utils.Database:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite_utils.Database(self._connect())
            self._local.db = db
        return db

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN ourselves, so sqlite3 never opens hidden transactions.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """`BEGIN IMMEDIATE` … COMMIT, or ROLLBACK on any exception. Nested use joins the outer one."""
        conn = self.conn
        if conn.in_transaction:
            yield conn
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def query(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        return self.conn.execute(sql, params).fetchone()

    def scalar(self, sql: str, params: Any = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def data_version(self) -> int:
        """Changes when another connection commits; the console polls it for live refresh."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None
