"""The embedded store: one SQLite file shared by every thread of every process that opens it.

Each thread gets its own connection (SQLite connections must not be shared across threads while a transaction is
open); all of them see the same file in WAL mode, so readers never block the single writer and `BEGIN IMMEDIATE`
serialises writers. Commits are durable when they return (`synchronous = FULL`), and only the owner may read the
files.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from storage.dialect import SQLITE
from storage.migrations import migrate_sqlite
from storage.store import WriterQueue, joined

BUSY_TIMEOUT_MS = 10_000
MMAP_BYTES = 1 << 28  # the first 256 MiB of the file read through the mapping; the rest as before


def owner_only(path: Path) -> None:
    """The database and its -wal and -shm, 0600 like the key file: they hold bookings and guests'
    messages. SQLite gives -wal and -shm the mode of the database file, so it is made 0600 before SQLite
    first opens it; files of an earlier version, made with the umask, are narrowed."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            if each.stat().st_mode & 0o077:
                each.chmod(0o600)


class SqliteConnection(sqlite3.Connection):
    """sqlite3's connection, which says its dialect (`conn.dialect`) to code given only a connection."""

    dialect = SQLITE

    def batch(self) -> AbstractContextManager[object]:
        """Nothing to group: a statement is a call into the library, not a round trip."""
        return nullcontext()


class _ThreadConnection:
    """A thread's connection, closed when the thread ends and its locals go. sqlite3's connection sits in a reference
    cycle (its statement cache refers back to it), so left to the collector it kept its three files open until a full
    collection: a process whose short-lived threads read (the console's workers) held hundreds."""

    def __init__(self, conn: SqliteConnection) -> None:
        self.conn = conn

    def __del__(self) -> None:
        self.conn.close()


class SqliteStore:
    dialect = SQLITE

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        owner_only(self.path)
        self._local = threading.local()
        self._writers = WriterQueue()
        self._host_line = _HostLine(self.path.with_name(self.path.name + "-writers"))
        self.created = migrate_sqlite(self.conn)

    @property
    def location(self) -> str:
        return str(self.path)

    @property
    def conn(self) -> SqliteConnection:
        """This thread's connection."""
        held: _ThreadConnection | None = getattr(self._local, "held", None)
        if held is None:
            held = self._local.held = _ThreadConnection(self._connect())
        return held.conn

    def _connect(self) -> SqliteConnection:
        # isolation_level=None: we issue BEGIN ourselves, so sqlite3 never opens hidden transactions.
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, factory=SqliteConnection)
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
        conn.execute("PRAGMA recursive_triggers = ON")
        # Reads map the file rather than copy its pages into each connection's small cache (2 MB, ~500 pages): a
        # shopping read of 200 plans over a week touches more pages than that, and each miss was a pread. The mapping
        # is the kernel's page cache, shared by every connection; writes still go through the write-ahead log.
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        return conn

    @contextmanager
    def transaction(self, *scope: str) -> Iterator[SqliteConnection]:
        """`BEGIN IMMEDIATE` … COMMIT, or ROLLBACK on any exception, after waiting in line: this process's writers
        first come first served, then the host's, by a lock on a file beside the database, for which the kernel
        wakes a waiter the moment it is free (SQLite's own busy handler stays for writers that do not line up: a
        `sqlite3` shell, an older Frontdesk). One writer at a time whatever the scope. Nested use joins the outer
        one."""
        conn = self.conn
        if conn.in_transaction:
            joined(getattr(self._local, "scope", ()), scope)
            yield conn
            return
        with self._writers, self._host_line:
            conn.execute("BEGIN IMMEDIATE")
            self._local.scope = scope
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        cursor = self.conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, params)

    def forget_history(self) -> None:
        """Merge every full-text index (FTS5 keeps a replaced word in its segments until they are merged: a card number
        masked in a message stayed in the inbox's search index), then copy the write-ahead log into the database and
        empty it, so that no older version of a row stays in it."""
        with self.transaction() as conn:
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                        "AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5(%'").fetchall():
                conn.execute(f"INSERT INTO {name} ({name}) VALUES ('optimize')")
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def change_stamp(self) -> int:
        """SQLite's data_version: it changes when another connection commits."""
        stamp: int = self.conn.execute("PRAGMA data_version").fetchone()[0]
        return stamp

    def lease(self, name: str, kind: str, *, ttl: float, record: dict[str, Any] | None = None) -> SqliteLease:
        return SqliteLease(lease_path(self.path), name, kind, ttl=ttl, record=record)

    def leased_record(self, name: str) -> dict[str, Any] | None:
        return leased_record(lease_path(self.path), name)

    def close(self) -> None:
        held: _ThreadConnection | None = getattr(self._local, "held", None)
        if held is not None:
            held.conn.close()
            self._local.held = None
        self._host_line.close()


class _HostLine:
    """The host's writers in line: an exclusive lock on a file beside the database, held from BEGIN to COMMIT. One
    writer of each process reaches it (the process's WriterQueue first), so the lock is taken by one thread at a
    time and its file opened once per store."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> None:
        if self._fd is None:
            owner_only(self.path)
            self._fd = os.open(self.path, os.O_RDWR)
        fcntl.flock(self._fd, fcntl.LOCK_EX)

    def __exit__(self, *_: object) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


# --- the lease -----------------------------------------------------------------------------------------------------
#
# The lease row lives in a small database of its own beside the main one (`<db>-lease`): renewing it every few
# seconds must not count as a change of the data, which a console watching the main database's data_version would
# reload its screen for. A holder that stops (a crash, `kill -9`) loses the lease when it expires, or at once when
# its process is known to be gone (same host, pid not running). A record kept with a lease is trusted only while its
# holder's lease is live: one left by a server that crashed counts for nothing, and the next holder clears it.


def lease_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-lease")


def holder_name() -> str:
    """Who holds a lease: this host and process, and a random part for each lease it takes."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _gone(holder: str, expires_at: float, now: float) -> bool:
    """Whether a holder's lease no longer counts: expired, or its process is gone from this host."""
    if expires_at < now:
        return True
    host, pid, _ = holder.rsplit(":", 2)
    return host == socket.gethostname() and pid.isdigit() and not _alive(int(pid))


class SqliteLease:
    """One holder at a time, which alone delivers (SQLite has one writer anyway): its claim of every destination is
    the lease itself."""

    def __init__(self, path: Path, name: str, kind: str, *, ttl: float, record: dict[str, Any] | None) -> None:
        self.name, self.kind, self.ttl, self.record = name, kind, ttl, record  # kind: serve | console
        self.holder = holder_name()
        owner_only(path)
        self._lock = threading.Lock()
        self._held = False
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
                           "kind TEXT NOT NULL, expires_at REAL NOT NULL)")
        self._conn.execute("CREATE TABLE IF NOT EXISTS servers (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
                           "addresses TEXT NOT NULL)")

    def acquire(self) -> bool:
        """Take or renew the lease (and keep this holder's record with it); whether this holder has it now."""
        now = time.time()
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = self._conn.execute("SELECT holder, kind, expires_at FROM leases WHERE name = ?",
                                         (self.name,)).fetchone()
                taken = row is None or row["holder"] == self.holder or self._may_take(row, now)
                if taken:
                    self._conn.execute(
                        "INSERT INTO leases (name, holder, kind, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT(name) "
                        "DO UPDATE SET holder = excluded.holder, kind = excluded.kind, expires_at = excluded.expires_at",
                        (self.name, self.holder, self.kind, now + self.ttl))
                    self._keep_record()
            finally:
                self._conn.execute("COMMIT")
        self._held = taken
        return taken

    def _keep_record(self) -> None:
        """This holder's record, or none: a record left by an earlier holder goes."""
        if self.record is None:
            self._conn.execute("DELETE FROM servers WHERE name = ?", (self.name,))
            return
        self._conn.execute("INSERT INTO servers (name, holder, addresses) VALUES (?, ?, ?) ON CONFLICT(name) "
                           "DO UPDATE SET holder = excluded.holder, addresses = excluded.addresses",
                           (self.name, self.holder, json.dumps(self.record)))

    def _may_take(self, row: sqlite3.Row, now: float) -> bool:
        return _gone(row["holder"], row["expires_at"], now) or (self.kind == "serve" and row["kind"] == "console")

    def release(self) -> None:
        with self._lock:
            self._held = False
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (self.name, self.holder))
                self._conn.execute("DELETE FROM servers WHERE name = ? AND holder = ?", (self.name, self.holder))
            finally:
                self._conn.execute("COMMIT")

    def holder_kind(self) -> str | None:
        """Who holds the lease now (serve or console), if anyone live does."""
        with self._lock:
            row = self._conn.execute("SELECT kind, expires_at FROM leases WHERE name = ?", (self.name,)).fetchone()
        return row["kind"] if row and row["expires_at"] >= time.time() else None

    def delivering(self) -> bool:
        return self._held

    def claim(self, key: str) -> bool:
        return self._held

    def claimed(self, key: str) -> bool:
        return self._held

    def unclaim(self, key: str) -> None:
        """Nothing to let go of: the lease is the claim."""

    def listen(self, wake: Callable[[], None]) -> None:
        """Nothing to hear: the one deliverer's own commits wake it, another process's are found by its poll."""

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def leased_record(path: Path, name: str) -> dict[str, Any] | None:
    """The record of the `serve` that holds the lease now, if one does. Only reads: a database that no server or
    console ever ran on has no lease file, and gets none."""
    if not path.exists():
        return None
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute("SELECT s.addresses, l.holder, l.expires_at FROM servers s JOIN leases l "
                           "ON l.name = s.name AND l.holder = s.holder WHERE s.name = ? AND l.kind = 'serve'",
                           (name,)).fetchone()
    except sqlite3.OperationalError:  # a lease file from before servers recorded their addresses
        return None
    finally:
        conn.close()
    if row is None or _gone(row[1], row[2], time.time()):
        return None
    try:
        record = json.loads(row[0])
    except ValueError:
        return None
    return record if isinstance(record, dict) else None
