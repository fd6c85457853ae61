"""A database as an older Frontdesk left it: every migration step before the one a test is about."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.migrations import STEPS, statements


def migrated_up_to(path: Path, step: str) -> sqlite3.Connection:
    """A database at `path` with the steps before `step` applied (not `step` itself), and the `groups` row `g`."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    for name in STEPS[:STEPS.index(step)]:
        for statement in statements("sqlite", name):
            conn.execute(statement)
    conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', '2026-01-01T00:00:00.000000')")
    return conn


def apply(conn: sqlite3.Connection, step: str) -> None:
    for statement in statements("sqlite", step):
        conn.execute(statement)
