"""Shopping `rooms` with a read replica: `frontdesk serve --workers 2` over a PostgreSQL primary alone, against the
same with `--read-db` a hot standby of it, over real HTTP from wrk, in the same run; and the standby's lag.

Figures:
- requests/s of shopping `rooms` (one property of 200 rate plans, a 7-night stay: tests/bench/bench_shopping_rooms.py)
  from 16 connections, with the replica over without, first alone, then beside a write load (one-night ARI writes,
  POST /api/v1/restrictions, from 8 connections) whose own requests/s are printed too; and the share of the
  statements the standby served while the reads ran alone (pg_stat_database's transactions, on both servers);
- the standby's lag under that write load, and under ARI writes alone from 8 connections (which go faster), measured
  from outside: every 50 ms the primary's flushed WAL position is taken, and the time until the standby has
  replayed it is one sample (p50, p99, max), against the bound (--replica-lag-bound, 1 s by default) past which the
  server reads the primary instead.

The primary is a throwaway cluster of Debian's server with durable commits, the standby one made from it with
pg_basebackup (tests/postgres_cluster.py), both on this machine: its 2 cores are shared by wrk, the server's
workers, the primary and the standby, so a replica here takes CPU from the rest rather than adding a machine's
worth. Read the ratio as what moving reads off the primary costs or gains on one box, not as what a replica host
adds.

    .venv/bin/python tests/bench/bench_shopping_replica.py
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
from bench_scale_out import DURABLE, build, frontdesk, rates, rooms_url, wrk

from tests.postgres_cluster import Cluster, HotStandby, server_bin

WORKERS = 2
READERS, WRITERS = 16, 8
LAG_EVERY = 0.05


def caught_up(primary: str, standby: str) -> None:
    with psycopg.connect(primary, autocommit=True) as p, psycopg.connect(standby, autocommit=True) as s:
        flushed = p.execute("SELECT pg_current_wal_flush_lsn() - '0/0'").fetchone()[0]
        while s.execute("SELECT pg_last_wal_replay_lsn() - '0/0'").fetchone()[0] < flushed:
            time.sleep(0.01)


class LagProbe:
    """Samples of the standby's lag while it runs: the seconds from a flushed position on the primary to its replay."""

    def __init__(self, primary: str, standby: str) -> None:
        self.primary, self.standby = primary, standby
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with psycopg.connect(self.primary, autocommit=True) as p, psycopg.connect(self.standby, autocommit=True) as s:
            while not self._stop.is_set():
                start = time.monotonic()
                flushed = p.execute("SELECT pg_current_wal_flush_lsn() - '0/0'").fetchone()[0]
                while s.execute("SELECT pg_last_wal_replay_lsn() - '0/0'").fetchone()[0] < flushed:
                    time.sleep(0.002)
                self.samples.append(time.monotonic() - start)
                self._stop.wait(LAG_EVERY)

    def __enter__(self) -> LagProbe:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def statements(url: str) -> int:
    """Transactions the database at `url` has run (each autocommit statement is one), as its server counts them."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").fetchone()[0]


def served(target: str, replica: str, run):
    """`run()`, and the share of the statements meanwhile that the standby served (servers report theirs within 1 s)."""
    before = statements(target), statements(replica)
    got = run()
    time.sleep(1.5)
    primary, standby = statements(target) - before[0], statements(replica) - before[1]
    return got, standby / max(1, primary + standby)


def loaded(url: str, built: dict) -> tuple[dict, dict]:
    """`rooms` from READERS connections while ARI writes come from WRITERS: both figures."""
    writes: dict = {}
    writer = threading.Thread(target=lambda: writes.update(wrk(f"{url}/", WRITERS, script=rates(built))))
    writer.start()
    reads = wrk(rooms_url(url, built), READERS)
    writer.join()
    return reads, writes


@contextmanager
def standing_by(prefix: str) -> Iterator[tuple[str, Path, str, dict]]:
    """A durable cluster with the bench's database built, and a hot standby of it caught up: the database's URL,
    its keys, the standby's URL of it, and what was built."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    cluster = Cluster(server_bin(), settings=DURABLE).start()
    standby = None
    try:
        target, keys = cluster.empty("bench"), folder / "bench.keys"
        built = build(target, keys)
        standby = HotStandby(cluster).start()
        replica = standby.url(target)
        caught_up(target, replica)
        yield target, keys, replica, built
    finally:
        if standby is not None:
            standby.remove()
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    if shutil.which("wrk") is None or server_bin() is None:
        sys.exit("needs wrk and Debian's PostgreSQL server: apt-get install wrk postgresql")
    figures: dict[str, dict] = {}
    with standing_by("bench-replica-") as (target, keys, replica, built):
        for _ in range(2):  # alternating, so that drift of the machine hits both alike
            for mode, read_dbs in (("primary", []), ("replica", [replica])):
                with frontdesk(target, keys, WORKERS, options=tuple(f"--read-db={db}" for db in read_dbs)) as url:
                    alone, share = served(target, replica, lambda: wrk(rooms_url(url, built), READERS))
                    figures.setdefault("share", {})[mode] = share
                    with LagProbe(target, replica) as probe:
                        reads, writes = loaded(url, built)
                    for name, got in ((f"{mode} alone", alone), (f"{mode} loaded", reads),
                                      (f"{mode} writes", writes)):
                        if name not in figures or got["rps"] > figures[name]["rps"]:
                            figures[name] = got
                    if mode == "replica":
                        figures.setdefault("lag loaded", {"samples": []})["samples"] += probe.samples
                        with LagProbe(target, replica) as probe:
                            writes = wrk(f"{url}/", WRITERS, script=rates(built))
                        lag = figures.setdefault("lag writes", {"samples": [], "rps": 0.0})
                        lag["samples"] += probe.samples
                        lag["rps"] = max(lag["rps"], writes["rps"])
    report(figures)


def report(figures: dict[str, dict]) -> None:
    for kind in ("alone", "loaded"):
        one, two = figures[f"primary {kind}"], figures[f"replica {kind}"]
        beside = (f", beside ARI writes from {WRITERS} connections ({figures['primary writes']['rps']:,.0f}/s and "
                  f"{figures['replica writes']['rps']:,.0f}/s)") if kind == "loaded" else ""
        print(f"SUMMARY shopping rooms, {READERS} connections, {WORKERS} workers{beside}: primary alone "
              f"{one['rps']:,.0f} req/s (p50 {one['p50']:.1f} ms, p99 {one['p99']:.0f} ms), with a replica "
              f"{two['rps']:,.0f} req/s (p50 {two['p50']:.1f} ms, p99 {two['p99']:.0f} ms): "
              f"{two['rps'] / one['rps']:.2f}x" + (f"; {one['errors'] + two['errors']} REFUSED"
                                                    if one["errors"] + two["errors"] else ""))
    share = figures["share"]
    print(f"SUMMARY statements the standby served during the reads alone: {share['replica']:.0%} with --read-db, "
          f"{share['primary']:.0%} without")
    for kind, load in (("loaded", "beside the reads"), ("writes", f"alone, {figures['lag writes']['rps']:,.0f}/s")):
        lags = sorted(figures[f"lag {kind}"]["samples"])
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        print(f"SUMMARY standby lag under ARI writes from {WRITERS} connections {load} ({len(lags)} samples): p50 "
              f"{statistics.median(lags) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms "
              f"(bound 1,000 ms: {sum(lag > 1.0 for lag in lags)} samples past it)")


if __name__ == "__main__":
    main()
