"""The databases tests run on: each engine and HTTP test runs on SQLite and on PostgreSQL (tests/conftest.py makes
`store_kind` a parameter of every test that asks for a database), console and browser tests on SQLite alone.

A `Database` is where an engine opens, as a test or a `frontdesk` command names it: a SQLite file in the test's
folder, or a PostgreSQL database of its own on the suite's throwaway cluster (tests/postgres_cluster.py), with its
keys file (a PostgreSQL database has no "beside" for one).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from backend.core.config import Config
from backend.engine import Engine
from storage import SqliteStore
from tests.postgres_cluster import Cluster, attach

SQLITE, POSTGRESQL = "sqlite", "postgresql"
PORT_ENV = "FRONTDESK_TEST_POSTGRES_PORT"  # the suite's cluster, for its worker processes
DATA_ENV = "FRONTDESK_TEST_POSTGRES_DATA"  # and its data directory


def cluster() -> Cluster:
    return attach(int(os.environ[PORT_ENV]), Path(os.environ[DATA_ENV]))


def on_disk(engine: Engine) -> bytes:
    """Everything the engine's database holds, as an attacker with its files would read them. SQLite: the file and
    its write-ahead log. PostgreSQL: every row of every table as text (values compressed on disk are read as they
    are), and the database's files once the server has written its buffers out (CHECKPOINT)."""
    store = engine.store
    if isinstance(store, SqliteStore):
        wal = store.path.with_name(store.path.name + "-wal")
        return store.path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    rows = [str(row[0]) for (table,) in store.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            for row in store.query(f"SELECT t::text FROM {table} t")]
    store.conn.execute("CHECKPOINT")
    oid = store.scalar("SELECT oid FROM pg_database WHERE datname = current_database()")
    files = sorted((cluster().data / "base" / str(oid)).iterdir())
    return "\n".join(rows).encode() + b"".join(path.read_bytes() for path in files if path.is_file())


@dataclass(frozen=True)
class Database:
    target: str | Path
    keys: Path | None = None  # PostgreSQL's keys file; SQLite keeps its own beside the file
    opened: list[Engine] = field(default_factory=list, compare=False, repr=False)

    @property
    def kind(self) -> str:
        return POSTGRESQL if isinstance(self.target, str) else SQLITE

    def config(self, config: Config | None = None) -> Config:
        """`config` with this database's keys, unless it names its own."""
        config = config or Config()
        return replace(config, keys_path=self.keys) if self.keys and config.keys_path is None else config

    def engine(self, config: Config | None = None) -> Engine:
        """An engine over it, closed when the database is dropped."""
        self.opened.append(Engine.open(self.target, self.config(config)))
        return self.opened[-1]

    def args(self) -> list[str]:
        """How a `frontdesk` command is pointed at it."""
        return ["--db", str(self.target), *(["--keys", str(self.keys)] if self.keys else [])]

    def drop(self) -> None:
        for engine in self.opened:
            engine.close()
        if self.kind == POSTGRESQL:
            cluster().drop(str(self.target))


def new_database(kind: str, folder: Path, name: str = "frontdesk") -> Database:
    """A new, empty database of `kind`: `name`.db in `folder`, or a PostgreSQL database of its own (keys in
    `folder`)."""
    if kind == SQLITE:
        return Database(folder / f"{name}.db")
    return Database(cluster().fresh(), folder / f"{name}.keys")
