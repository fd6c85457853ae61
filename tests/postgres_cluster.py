"""A throwaway PostgreSQL cluster for the suite's PostgreSQL leg and the benchmarks: Debian's server
(scripts/install-test-servers), started on loopback on a free port from a fresh data directory, fsync off (what it
holds dies with it), stopped and removed at the end. initdb refuses to run as root, so as root it runs as the
`postgres` user.

Each test gets a database of its own, copied from a template that is migrated once (`fresh`). Logins are trusted on
loopback, but for the role `frontdesk_secret`, whose password is checked (the wrong-password test).
"""

from __future__ import annotations

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
SETTINGS = {
    "listen_addresses": "127.0.0.1", "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
    "max_connections": "400", "shared_buffers": "128MB", "log_min_messages": "fatal", "logging_collector": "off",
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
            "host all all 127.0.0.1/32 trust\nlocal all all trust\n")
        options = " ".join(f"-c {name}={value}" for name, value in {
            **self.settings, "port": self.port, "unix_socket_directories": str(self.root)}.items())
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-t", "60", "-l",
                  str(self.root / "server.log"), "start")
        with self.admin() as conn:
            conn.execute(f"CREATE ROLE {SECRET_ROLE} LOGIN SUPERUSER PASSWORD '{SECRET_PASSWORD}'")
        return self

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


def attach(port: int, data: Path) -> Cluster:
    """The cluster the suite's first process started (on `port`, its files in `data`), as seen from a worker."""
    cluster = Cluster.__new__(Cluster)
    cluster.port, cluster.data = port, data
    return cluster
