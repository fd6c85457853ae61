"""What durable commits cost: the write benchmarks run on the store as shipped (`synchronous = FULL`: a
commit is on disk before its answer leaves) and, in the same run, on one relaxed to `NORMAL` (what
Frontdesk used before: durable through a crash of the process, not through a power cut). Imported as
`durability` by a bench script run from this folder."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from backend.core.config import Config
from backend.engine import Engine
from storage import SqliteStore

MODES = ("FULL", "NORMAL")


class _RelaxedStore(SqliteStore):
    def _connect(self) -> sqlite3.Connection:
        conn = super()._connect()
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn


def open_engine(path: Path, config: Config, mode: str) -> Engine:
    return Engine(SqliteStore(path) if mode == "FULL" else _RelaxedStore(path), config)
