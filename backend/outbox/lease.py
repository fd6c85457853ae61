"""Who runs the deliverer: a lease row per database. `frontdesk serve` takes it from anyone but another live server;
the console takes it only when nobody holds it. A holder renews it well before it expires; one that stops (a crash,
`kill -9`) loses it when it expires, or at once when its process is known to be gone (same host, pid not running).

The row lives in a small database of its own beside the main one (`<db>-lease`): renewing it every few seconds
must not count as a change of the data, which a console watching the main database's `data_version` would reload
its screen for.

A server that holds the lease also records there where its listeners are, so that a console on the same database
can reach them (the tester's capture). The record is trusted only while its server holds a live lease: one left by
a server that crashed counts for nothing once that lease has expired or its process is gone, and the next holder
clears it.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from storage import owner_only

TTL = 15.0  # seconds a lease lasts unrenewed
NAME = "deliverer"


@dataclass(frozen=True)
class ServerAddresses:
    """Where the listeners of a `frontdesk serve` listen, and their public addresses when it was given them."""

    main: str
    secure: str
    pci: str
    public_main: str | None = None
    public_secure: str | None = None
    public_pci: str | None = None


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


def lease_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-lease")


class Lease:
    def __init__(self, db_path: Path, kind: str, *, ttl: float = TTL, addresses: ServerAddresses | None = None) -> None:
        """`addresses`: a server's listeners, recorded while it holds the lease."""
        self.kind, self.ttl = kind, ttl  # kind: serve | console
        self.addresses = addresses
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        path = lease_path(db_path)
        owner_only(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
                           "kind TEXT NOT NULL, expires_at REAL NOT NULL)")
        self._conn.execute("CREATE TABLE IF NOT EXISTS servers (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
                           "addresses TEXT NOT NULL)")

    def acquire(self) -> bool:
        """Take or renew the lease (and record this server's addresses with it); whether this holder has it now."""
        now = time.time()
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = self._conn.execute("SELECT holder, kind, expires_at FROM leases WHERE name = ?", (NAME,)).fetchone()
                taken = row is None or row["holder"] == self.holder or self._may_take(row, now)
                if taken:
                    self._conn.execute(
                        "INSERT INTO leases (name, holder, kind, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT(name) "
                        "DO UPDATE SET holder = excluded.holder, kind = excluded.kind, expires_at = excluded.expires_at",
                        (NAME, self.holder, self.kind, now + self.ttl))
                    self._record()
            finally:
                self._conn.execute("COMMIT")
        return taken

    def _record(self) -> None:
        """This holder's addresses, or none: a record left by an earlier holder goes."""
        if self.addresses is None:
            self._conn.execute("DELETE FROM servers WHERE name = ?", (NAME,))
            return
        self._conn.execute("INSERT INTO servers (name, holder, addresses) VALUES (?, ?, ?) ON CONFLICT(name) "
                           "DO UPDATE SET holder = excluded.holder, addresses = excluded.addresses",
                           (NAME, self.holder, json.dumps(asdict(self.addresses))))

    def _may_take(self, row: sqlite3.Row, now: float) -> bool:
        return _gone(row["holder"], row["expires_at"], now) or (self.kind == "serve" and row["kind"] == "console")

    def release(self) -> None:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (NAME, self.holder))
                self._conn.execute("DELETE FROM servers WHERE name = ? AND holder = ?", (NAME, self.holder))
            finally:
                self._conn.execute("COMMIT")

    def holder_kind(self) -> str | None:
        """Who holds the lease now (serve or console), if anyone live does."""
        with self._lock:
            row = self._conn.execute("SELECT kind, expires_at FROM leases WHERE name = ?", (NAME,)).fetchone()
        return row["kind"] if row and row["expires_at"] >= time.time() else None

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def running_server(db_path: Path) -> ServerAddresses | None:
    """The addresses of the `frontdesk serve` that holds this database's lease now, if one does. Only reads: a
    database that no server or console ever ran on has no lease file, and gets none."""
    path = lease_path(db_path)
    if not path.exists():
        return None
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute("SELECT s.addresses, l.holder, l.expires_at FROM servers s JOIN leases l "
                           "ON l.name = s.name AND l.holder = s.holder WHERE s.name = ? AND l.kind = 'serve'",
                           (NAME,)).fetchone()
    except sqlite3.OperationalError:  # a lease file from before servers recorded their addresses
        return None
    finally:
        conn.close()
    if row is None or _gone(row[1], row[2], time.time()):
        return None
    try:
        return ServerAddresses(**json.loads(row[0]))
    except (ValueError, TypeError):  # not a record this version wrote: no address to trust
        return None
