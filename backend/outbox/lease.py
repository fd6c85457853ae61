"""Who runs the deliverer: a lease row per database. `frontdesk serve` takes it from anyone but another live server;
the console takes it only when nobody holds it. A holder renews it well before it expires; one that stops (a crash,
`kill -9`) loses it when it expires, or at once when its process is known to be gone (same host, pid not running).

The row lives in a small database of its own beside the main one (`<db>-lease`): renewing it every few seconds
must not count as a change of the data, which a console watching the main database's `data_version` would reload
its screen for.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
import uuid
from pathlib import Path

from storage import owner_only

TTL = 15.0  # seconds a lease lasts unrenewed
NAME = "deliverer"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Lease:
    def __init__(self, db_path: Path, kind: str, *, ttl: float = TTL) -> None:
        self.kind, self.ttl = kind, ttl  # kind: serve | console
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        path = db_path.with_name(db_path.name + "-lease")
        owner_only(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
                           "kind TEXT NOT NULL, expires_at REAL NOT NULL)")

    def acquire(self) -> bool:
        """Take or renew the lease; whether this holder has it now."""
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
            finally:
                self._conn.execute("COMMIT")
        return taken

    def _may_take(self, row: sqlite3.Row, now: float) -> bool:
        if row["expires_at"] < now:
            return True
        host, pid, _ = row["holder"].rsplit(":", 2)
        if host == socket.gethostname() and pid.isdigit() and not _alive(int(pid)):
            return True
        return self.kind == "serve" and row["kind"] == "console"

    def release(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (NAME, self.holder))

    def holder_kind(self) -> str | None:
        """Who holds the lease now (serve or console), if anyone live does."""
        with self._lock:
            row = self._conn.execute("SELECT kind, expires_at FROM leases WHERE name = ?", (NAME,)).fetchone()
        return row["kind"] if row and row["expires_at"] >= time.time() else None

    def close(self) -> None:
        with self._lock:
            self._conn.close()
