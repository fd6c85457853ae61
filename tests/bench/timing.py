"""The timing loop the read benchmarks share. A bench script imports it as `timing`: run as a script,
its own folder is on the import path."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure(candidates: dict[str, Callable[[], int]], runs: int, warm: int) -> dict[str, tuple[float, float]]:
    """(p50 wall ms, min CPU ms) of each, run in turn so that drift of the machine hits all alike."""
    for run in candidates.values():  # warm: statements prepared, pages cached
        for _ in range(warm):
            run()
    wall: dict[str, list[float]] = {name: [] for name in candidates}
    cpu: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(runs):
        for name, run in candidates.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            cpu[name].append((time.process_time() - start_cpu) * 1000)
            wall[name].append((time.perf_counter() - start) * 1000)
    return {name: (statistics.median(wall[name]), min(cpu[name])) for name in candidates}
