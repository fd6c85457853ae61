"""Shopping `rooms` on 1 host, 2 hosts, and 2 hosts reading a replica: `frontdesk serve` processes over one
PostgreSQL primary (durable commits), loaded by wrk over real HTTP, in the same run.

Setups, each `serve` process standing for a host:
- 1 host: one `serve --workers 1`, wrk straight at it; and one `serve --workers 2` (the CPU of the two hosts below);
- 2 hosts: two `serve --workers 1` behind haproxy (tests/balancer.py, round robin, as docs/operations.md's "Many hosts" runs it);
- 2 hosts + replica: the same, each with `--read-db` a hot standby of the primary (tests/postgres_cluster.py), and
  the share of the statements the standby served.

Figure: requests/s of shopping `rooms` (one property of 200 rate plans, a 7-night stay: bench_scale_out.build) from
16 connections, p50 and p99, and the ratios against 1 host. The setups alternate twice; the better run of each is
kept. Everything — wrk, haproxy, the hosts, the primary and the standby — shares this machine's cores: a second host
here adds processes, not a machine, so read the ratios as what two hosts and a replica cost on one box (the
balancer's hop, a second pool of connections, the standby's replay), not as what they add on machines of their own.

    .venv/bin/python tests/bench/bench_hosts_shopping.py
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale_out import frontdesk, rooms_url, wrk
from bench_shopping_replica import served, standing_by

from tests.balancer import haproxy
from tests.conftest import free_port
from tests.postgres_cluster import server_bin

READERS = 16
SETUPS = ("1 host", "1 host, 2 workers", "2 hosts", "2 hosts + replica")


@contextmanager
def hosts(target: str, keys: Path, count: int, options: tuple[str, ...] = ()) -> Iterator[str]:
    """`count` hosts of `serve --workers 1` behind haproxy: its URL."""
    with ExitStack() as stack:
        urls = [stack.enter_context(frontdesk(target, keys, 1, options=options)) for _ in range(count)]
        yield stack.enter_context(haproxy(free_port(), [int(url.rsplit(":", 1)[1]) for url in urls]))


def setup(name: str, target: str, keys: Path, replica: str):
    return {"1 host": lambda: frontdesk(target, keys, 1),
            "1 host, 2 workers": lambda: frontdesk(target, keys, 2),
            "2 hosts": lambda: hosts(target, keys, 2),
            "2 hosts + replica": lambda: hosts(target, keys, 2, (f"--read-db={replica}",))}[name]()


def main() -> None:
    if shutil.which("wrk") is None or shutil.which("haproxy") is None or server_bin() is None:
        sys.exit("needs wrk, haproxy and Debian's PostgreSQL server: apt-get install wrk haproxy postgresql")
    figures: dict[str, dict] = {}
    with standing_by("bench-hosts-") as (target, keys, replica, built):
        for _ in range(2):  # alternating, so that drift of the machine hits every setup alike
            for name in SETUPS:
                with setup(name, target, keys, replica) as url:
                    got, share = served(target, replica, lambda: wrk(rooms_url(url, built), READERS))
                if name not in figures or got["rps"] > figures[name]["rps"]:
                    figures[name] = {**got, "share": share}
    report(figures)


def report(figures: dict[str, dict]) -> None:
    one, same = figures["1 host"]["rps"], figures["1 host, 2 workers"]["rps"]
    for name in SETUPS:
        got = figures[name]
        print(f"SUMMARY shopping rooms, {READERS} connections, {name}: {got['rps']:,.0f} req/s (p50 {got['p50']:.1f} "
              f"ms, p99 {got['p99']:.0f} ms): {got['rps'] / one:.2f}x of 1 host, {got['rps'] / same:.2f}x of 1 host "
              f"with 2 workers; the standby served {got['share']:.0%} of the statements"
              + (f"; {got['errors']} REFUSED" if got["errors"] else ""))


if __name__ == "__main__":
    main()
