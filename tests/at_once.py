"""Processes that start the same work at the same moment on one database: for what must hold across processes."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from pathlib import Path
from typing import Any


def at_once(work: Callable[[str, Any], None], path: Path, count: int = 4, timeout: float = 60) -> list[int | None]:
    """Run `work(path, barrier)` in `count` forked processes, each waiting at the barrier before it starts its part;
    their exit codes."""
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(count)
    processes = [context.Process(target=work, args=(str(path), barrier)) for _ in range(count)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout)
    return [process.exitcode for process in processes]
