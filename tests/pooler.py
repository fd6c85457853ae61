"""PgBouncer in front of the suite's PostgreSQL cluster, as an operator runs it for many hosts: transaction pooling,
on a free loopback port, any database by its own name, logins trusted (Debian's package, scripts/install-test-servers).
PgBouncer refuses to run as root: as root it runs as the `postgres` user, as the cluster does. It logs each login,
which shows what came through it."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg


@dataclass
class Pooler:
    port: int
    log: Path

    def url(self, direct_url: str) -> str:
        """The pooler's address of the database at `direct_url`."""
        return direct_url.replace(direct_url.split("@", 1)[1].split("/", 1)[0], f"127.0.0.1:{self.port}", 1)

    def logins(self, database: str) -> int:
        return self.log.read_text().count(f"login attempt: db={database} ")


@contextmanager
def pgbouncer(server_port: int, port: int) -> Iterator[Pooler]:
    root = Path(tempfile.mkdtemp(prefix="frontdesk-pgbouncer-"))
    (root / "users.txt").write_text('"frontdesk" ""\n')
    (root / "pgbouncer.ini").write_text(f"""[databases]
* = host=127.0.0.1 port={server_port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {root / "users.txt"}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
logfile = {root / "pgbouncer.log"}
""")
    as_postgres = os.geteuid() == 0
    if as_postgres:
        shutil.chown(root, "postgres")
        for path in root.iterdir():
            shutil.chown(path, "postgres")
    process = subprocess.Popen([*(["runuser", "-u", "postgres", "--"] if as_postgres else []), "pgbouncer",
                                str(root / "pgbouncer.ini")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _until_it_answers(port, process)
        yield Pooler(port, root / "pgbouncer.log")
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(root, ignore_errors=True)


def _until_it_answers(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while True:
        try:
            psycopg.connect(f"postgresql://frontdesk@127.0.0.1:{port}/postgres", connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"pgbouncer did not start (exit {process.poll()})") from None
            time.sleep(0.1)
