"""Processes that start the same work at the same moment on one database: for what must hold across processes."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from tests.stores import Database


def at_once(work: Callable[..., None], database: Database, *args: Any, count: int = 4,
            timeout: float = 60) -> list[int | None]:
    """Run `work(database, barrier, *args)` in `count` new processes (spawned: none inherits this one's connections),
    each waiting at the barrier before it starts its part; their exit codes."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(count)
    given = Database(database.target, database.keys)
    processes = [context.Process(target=work, args=(given, barrier, *args)) for _ in range(count)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout)
    return [process.exitcode for process in processes]
