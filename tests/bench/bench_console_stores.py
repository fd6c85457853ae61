"""The console's cold start on PostgreSQL against SQLite: `frontdesk --db postgresql://…` and `frontdesk --db
PATH` over the same demo portfolio, from process start to the first page painted (the inbox), on a
pseudo-terminal of 120x40 (cold_start.py).

Figure: the median of RUNS cold starts on each store, interleaved, and their ratio; the SQLite start is the floor
measured in the same run. PostgreSQL is a throwaway cluster of Debian's server (tests/postgres_cluster.py).

    .venv/bin/python tests/bench/bench_console_stores.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cold_start import STAMPED_FRONTDESK, cold_start

from backend.core.config import Config
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.postgres_cluster import Cluster, server_bin

RUNS = 7


def main() -> None:
    if server_bin() is None:
        sys.exit("needs Debian's PostgreSQL server: scripts/install-test-servers")
    cluster = Cluster(server_bin()).start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            stores = {"sqlite": [str(Path(folder) / "bench.db")],
                      "postgresql": [cluster.empty("bench"), "--keys", str(Path(folder) / "bench.keys")]}
            for target, *keys in stores.values():
                engine = Engine.open(target, Config(keys_path=Path(keys[1]) if keys else None))
                load_demo(engine)
                engine.close()
            marker = Path(folder) / "painted"
            commands = {store: [sys.executable, "-c", STAMPED_FRONTDESK, "--db", *args] for store, args in stores.items()}
            times: dict[str, list[float]] = {store: [] for store in commands}
            for command in commands.values():
                cold_start(command, marker)  # warm the OS file cache, as a user's second start would be
            for _ in range(RUNS):
                for store, command in commands.items():
                    times[store].append(cold_start(command, marker))
    finally:
        cluster.stop()
    medians = {store: statistics.median(found) for store, found in times.items()}
    for store, found in times.items():
        print(f"  {store}: median {medians[store]:.3f} s ({', '.join(f'{s:.2f}' for s in found)})")
    print(f"SUMMARY console cold start on the demo: PostgreSQL {medians['postgresql']:.2f} s, SQLite "
          f"{medians['sqlite']:.2f} s: {medians['postgresql'] / medians['sqlite']:.2f}x")


if __name__ == "__main__":
    main()
