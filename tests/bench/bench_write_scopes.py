"""push_booking across 64 properties on PostgreSQL: writers scoped to their property against every writer under the
one database-wide lock (as before write scopes), in the same run, over real HTTP from wrk.

Figure: bookings/s (and p50/p99) with scopes over bookings/s without, at 16 and 64 connections, `--workers 2`, on a
durable cluster (fsync and synchronous_commit on). Aim: >= 2x. The run without scopes is the same code with
`PostgresStore.transaction` told to drop its scope (tests/bench/one_writer/sitecustomize.py, on PYTHONPATH, so
that the spawned workers have it too). The machine's cores are shared by wrk and the servers.

Two places for the database:
- on this host, over loopback: a push's CPU sets the pace, not the lock. The lock is held for the transaction's own
  work, which is part of a push's CPU (HTTP, JSON and validation outside it), so on 2 cores busy with wrk and the
  servers the ratio cannot pass 2x whatever the scopes do;
- on another host, one network hop away, as in a deployment of many hosts over one primary: every statement of a
  transaction waits a round trip, and the one lock holds every other writer through those waits. This machine's
  kernel has no netem, so the hop is a proxy that holds each chunk DELAY_US each way (tests/bench/latency/delay.c,
  compiled here with gcc; 0.5 ms round trip, as between hosts in one data centre). The figure is this one.

    .venv/bin/python tests/bench/bench_write_scopes.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale_out import DURABLE, build, frontdesk, pushes, wrk

from tests.conftest import free_port
from tests.postgres_cluster import Cluster, server_bin

AIM = 2.0
ONE_WRITER = {"PYTHONPATH": str(Path(__file__).resolve().parent / "one_writer")}
DELAY_US = 250  # each way


@contextmanager
def another_host(cluster: Cluster, database: str, folder: Path) -> Iterator[str]:
    """`database`'s URL through the delaying proxy: the database one network hop away."""
    program = folder / "delay"
    subprocess.run(["gcc", "-O2", "-o", str(program), str(Path(__file__).resolve().parent / "latency" / "delay.c")],
                   check=True)
    port = free_port()
    proxy = subprocess.Popen([str(program), str(port), str(cluster.port), str(DELAY_US)])
    try:
        yield cluster.url(database).replace(f":{cluster.port}/", f":{port}/")
    finally:
        proxy.kill()
        proxy.wait()


def main() -> None:
    if shutil.which("wrk") is None or server_bin() is None or shutil.which("gcc") is None:
        sys.exit("needs wrk, gcc and Debian's PostgreSQL server: apt-get install wrk gcc postgresql")
    folder = Path(tempfile.mkdtemp(prefix="bench-scopes-"))
    cluster = Cluster(server_bin(), settings=DURABLE).start()
    figures: dict[tuple[str, str, int], dict] = {}
    try:
        target, keys = cluster.empty("bench"), folder / "bench.keys"
        built = build(target, keys)
        with another_host(cluster, "bench", folder) as away:
            for _ in range(2):  # alternating, so that drift of the machine hits every setup alike
                for where, database in (("this host", target), ("another host", away)):
                    for mode, env in (("scoped", None), ("one lock", ONE_WRITER)):
                        with frontdesk(database, keys, 2, env) as url:
                            for connections in (16, 64):
                                got = wrk(f"{url}/", connections, script=pushes(built))
                                best = figures.get((where, mode, connections))
                                if best is None or got["rps"] > best["rps"]:
                                    figures[(where, mode, connections)] = got
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for where in ("this host", "another host"):
        for connections in (16, 64):
            summary(where, connections, figures[(where, "scoped", connections)],
                    figures[(where, "one lock", connections)])


def summary(where: str, connections: int, scoped: dict, one: dict) -> None:
    ratio = scoped["rps"] / one["rps"]
    refused = scoped["errors"] + one["errors"]
    hop = f"{DELAY_US * 2 / 1000:.1f} ms away" if where == "another host" else "on loopback"
    print(f"SUMMARY push_booking over 64 properties, {connections} connections, 2 workers, PostgreSQL on {where} "
          f"({hop}): scoped {scoped['rps']:,.0f}/s (p50 {scoped['p50']:.1f} ms, p99 {scoped['p99']:.0f} ms), one "
          f"lock {one['rps']:,.0f}/s (p50 {one['p50']:.1f} ms, p99 {one['p99']:.0f} ms): {ratio:.2f}x"
          + (f" (aim >= {AIM}x: {'within aim' if ratio >= AIM else 'BELOW AIM'})" if where == "another host" else "")
          + (f"; {refused} REFUSED" if refused else ""))


if __name__ == "__main__":
    main()
