"""One SQLite file shared by every thread of the process.

Each thread gets its own connection (SQLite connections must not be shared across threads
while a transaction is open); all of them see the same file in WAL mode, so readers never
block the single writer and `BEGIN IMMEDIATE` serialises writers. Commits are durable when they
return (`synchronous = FULL`), and only the owner may read the files.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.migrations import migrate

if TYPE_CHECKING:
    import sqlite_utils

BUSY_TIMEOUT_MS = 10_000


def owner_only(path: Path) -> None:
    """The database and its -wal and -shm, 0600 like the key file: they hold bookings and guests'
    messages. SQLite gives -wal and -shm the mode of the database file, so it is made 0600 before SQLite
    first opens it; files of an earlier version, made with the umask, are narrowed."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            if each.stat().st_mode & 0o077:
                each.chmod(0o600)


def new_id() -> str:
    return str(uuid.uuid4())


def utc_now() -> str:
    """UTC timestamp without zone, microsecond precision: 2026-11-21T10:03:29.335485."""
    return datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        owner_only(self.path)
        self._local = threading.local()
        migrate(self.conn)

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection as sqlite-utils sees it (imported here: a tenth of a second of start-up that
        the engine's own SQL never needs)."""
        db = getattr(self._local, "db", None)
        if db is None:
            import sqlite_utils

            db = sqlite_utils.Database(self.conn)
            self._local.db = db
        return db

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN ourselves, so sqlite3 never opens hidden transactions.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit is on disk (the WAL fsynced) before it returns, so whatever a caller was answered
        # 200/201 for survives a power cut; NORMAL would keep it only through a crash of the process.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        # Deleted and replaced content is overwritten with zeros, not left in free pages: a value masked or purged
        # (a card number, a message) must not stay readable in the file.
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("PRAGMA recursive_triggers = ON")  # as sqlite-utils, which opened the connections, set it
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

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database and empty it, so that no older version of a row stays in it."""
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def data_version(self) -> int:
        """Changes when another connection commits; the console polls it for live refresh."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = self._local.db = None
