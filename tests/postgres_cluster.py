"""A throwaway PostgreSQL cluster for the suite's PostgreSQL leg and the benchmarks: Debian's server
(scripts/install-test-servers), started on loopback on a free port from a fresh data directory, fsync off (what it
holds dies with it), stopped and removed at the end. initdb refuses to run as root, so as root it runs as the
`postgres` user.

Each test gets a database of its own, copied from a template that is migrated once (`fresh`). Logins are trusted on
loopback, but for the role `frontdesk_secret`, whose password is checked (the wrong-password test).

The cluster streams its WAL to standbys (`wal_level=replica`, the role `frontdesk_replica` trusted for replication
on loopback): `HotStandby` makes one from it with `pg_basebackup -R` on a free port, for the read replica tests
alone (the suite's start costs nothing more).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg

TEMPLATE = "frontdesk_template"
SECRET_ROLE, SECRET_PASSWORD = "frontdesk_secret", "s3cret-for-tests"
REPLICATION_ROLE = "frontdesk_replica"
SETTINGS = {
    "listen_addresses": "127.0.0.1", "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
    "max_connections": "400", "shared_buffers": "128MB", "log_min_messages": "fatal", "logging_collector": "off",
    # Standbys (HotStandby): WAL for them, kept a while for one that was stopped and started again.
    "wal_level": "replica", "max_wal_senders": "10", "wal_keep_size": "128MB", "hot_standby": "on",
}


def server_bin() -> Path | None:
    """The newest installed server's programs, if any is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, bin_dir: Path, settings: dict[str, str] | None = None) -> None:
        """`settings`: the server's, over SETTINGS (a benchmark's durable commits)."""
        self.bin = bin_dir
        self.settings = {**SETTINGS, **(settings or {})}
        self.root = Path(tempfile.mkdtemp(prefix="frontdesk-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self._as_postgres else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, cwd="/")

    def start(self) -> Cluster:
        if self._as_postgres:
            shutil.chown(self.root, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "frontdesk", "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        (self.data / "pg_hba.conf").write_text(
            f"host all {SECRET_ROLE} 127.0.0.1/32 scram-sha-256\n"
            "host all all 127.0.0.1/32 trust\nlocal all all trust\n"
            f"host replication {REPLICATION_ROLE} 127.0.0.1/32 trust\n")
        self._pg_ctl_start(self.data, self.port, self.root / "server.log")
        with self.admin() as conn:
            conn.execute(f"CREATE ROLE {SECRET_ROLE} LOGIN SUPERUSER PASSWORD '{SECRET_PASSWORD}'")
            conn.execute(f"CREATE ROLE {REPLICATION_ROLE} LOGIN REPLICATION")
        return self

    def _pg_ctl_start(self, data: Path, port: int, log: Path) -> None:
        options = " ".join(f"-c {name}={value}" for name, value in {
            **self.settings, "port": port, "unix_socket_directories": str(data.parent)}.items())
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-t", "60", "-l", str(log), "start")

    def url(self, database: str = "postgres", user: str = "frontdesk", password: str | None = None) -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def admin(self) -> psycopg.Connection:
        return psycopg.connect(self.url(), autocommit=True)

    def make_template(self) -> None:
        """The template every test's database is copied from, migrated once."""
        from storage.postgres import PostgresStore

        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {TEMPLATE} TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
        PostgresStore(self.url(TEMPLATE)).close()

    def fresh(self, prefix: str = "t") -> str:
        """A new, migrated database of its own: its URL."""
        name = f"{prefix}_{uuid.uuid4().hex[:16]}"
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return self.url(name)

    def empty(self, name: str, collation: str = "C") -> str:
        """A new database with no schema (a `db copy` target, a first open), sorting by `collation`."""
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0 LC_COLLATE '{collation}' LC_CTYPE '{collation}'")
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with self.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


class HotStandby:
    """A hot standby of `primary`, copied with `pg_basebackup -R` (it streams from the primary from then on), on a free
    port, in a folder of its own; started, stopped and started again as a test needs, removed at the end."""

    def __init__(self, primary: Cluster) -> None:
        self.primary = primary
        self.root = Path(tempfile.mkdtemp(prefix="frontdesk-standby-"))
        self.data = self.root / "data"
        self.port = _free_port()
        if primary._as_postgres:
            shutil.chown(self.root, "postgres")
        primary._run(str(primary.bin / "pg_basebackup"), "-D", str(self.data), "-R", "-X", "stream", "-c", "fast",
                     "--no-sync", "-h", "127.0.0.1", "-p", str(primary.port), "-U", REPLICATION_ROLE)

    def start(self) -> HotStandby:
        self.primary._pg_ctl_start(self.data, self.port, self.root / "server.log")
        return self

    def stop(self) -> None:
        self.primary._run(str(self.primary.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, primary_url: str) -> str:
        """The standby's address of the primary's database at `primary_url`."""
        return primary_url.replace(f":{self.primary.port}/", f":{self.port}/")

    def replay(self, on: bool) -> None:
        """Replay the primary's WAL as it comes (as a standby does), or hold it: what the standby shows stops."""
        with psycopg.connect(self.url(self.primary.url()), autocommit=True) as conn:
            conn.execute("SELECT pg_wal_replay_resume()" if on else "SELECT pg_wal_replay_pause()")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # stopped already
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def attach(port: int, data: Path) -> Cluster:
    """The cluster the suite's first process started (on `port`, its files in `data`), as seen from a worker."""
    cluster = Cluster.__new__(Cluster)
    cluster.port, cluster.data = port, data
    cluster.bin, cluster.settings, cluster._as_postgres = server_bin(), SETTINGS, os.geteuid() == 0
    return cluster
