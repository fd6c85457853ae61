"""push_booking across 64 properties on PostgreSQL: writers scoped to their property against every writer under the
one database-wide lock (as before write scopes), in the same run, over real HTTP from wrk.

Figure: bookings/s (and p50/p99) with scopes over bookings/s without, at 16 and 64 connections, `--workers 2`, on a
durable cluster (fsync and synchronous_commit on). Aim: >= 2x. The run without scopes is the same code with
`PostgresStore.transaction` told to drop its scope (tests/bench/one_writer/sitecustomize.py, on PYTHONPATH, so
that the spawned workers have it too). The machine's cores are shared by wrk and the servers.

    .venv/bin/python tests/bench/bench_write_scopes.py
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale_out import DURABLE, build, frontdesk, pushes, wrk

from tests.postgres_cluster import Cluster, server_bin

AIM = 2.0
ONE_WRITER = {"PYTHONPATH": str(Path(__file__).resolve().parent / "one_writer")}


def main() -> None:
    if shutil.which("wrk") is None or server_bin() is None:
        sys.exit("needs wrk and Debian's PostgreSQL server: apt-get install wrk postgresql")
    folder = Path(tempfile.mkdtemp(prefix="bench-scopes-"))
    cluster = Cluster(server_bin(), settings=DURABLE).start()
    try:
        target, keys = cluster.empty("bench"), folder / "bench.keys"
        built = build(target, keys)
        figures: dict[tuple[str, int], dict] = {}
        for _ in range(2):  # alternating, so that drift of the machine hits both alike
            for mode, env in (("scoped", None), ("one lock", ONE_WRITER)):
                with frontdesk(target, keys, 2, env) as url:
                    for connections in (16, 64):
                        got = wrk(f"{url}/", connections, script=pushes(built))
                        best = figures.get((mode, connections))
                        if best is None or got["rps"] > best["rps"]:
                            figures[(mode, connections)] = got
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for connections in (16, 64):
        scoped, one = figures[("scoped", connections)], figures[("one lock", connections)]
        ratio = scoped["rps"] / one["rps"]
        refused = scoped["errors"] + one["errors"]
        print(f"SUMMARY push_booking over 64 properties, {connections} connections, 2 workers, PostgreSQL: scoped "
              f"{scoped['rps']:,.0f}/s (p50 {scoped['p50']:.1f} ms, p99 {scoped['p99']:.0f} ms), one lock "
              f"{one['rps']:,.0f}/s (p50 {one['p50']:.1f} ms, p99 {one['p99']:.0f} ms): {ratio:.2f}x (aim >= {AIM}x: "
              f"{'within aim' if ratio >= AIM else 'BELOW AIM'})" + (f"; {refused} REFUSED" if refused else ""))


if __name__ == "__main__":
    main()
