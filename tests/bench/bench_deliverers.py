"""Commit to webhook receiver on PostgreSQL, with two engines delivering (two `serve` processes, two hosts: each
claims destinations of its own) against one delivering, in the same run.

Two engines over one database take changes alike (each commits half of them, in its property's scope, as a booking
is); 8 webhooks, each of its own property, POST to receivers on loopback. With one deliverer, the changes the other
engine commits reach it at its next look (after its own commits, or its poll); with two, the stamper's NOTIFY wakes
the other, and each serves the destinations it claimed (4 threads each). Figure: p50 and p99 of commit to arrival
over `CHANGES` changes, paced (`PACE`) and in a burst (all at once), and the ratios two / one. The modes alternate
twice; the better run of each is kept. Both engines are in this one process (one interpreter lock, as the
receivers): two hosts would not share it.

    .venv/bin/python tests/bench/bench_deliverers.py
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale_out import DURABLE

from backend.core.config import Config
from backend.core.scopes import property_scope
from backend.engine import Engine
from backend.outbox.record import record
from tests.postgres_cluster import Cluster, server_bin
from tests.receiver import Receiver

HOOKS, CHANGES, PACE = 8, 400, 0.02  # paced: 50 changes a second, which one deliverer keeps up with


def build(target: str, keys: Path, receivers: list[Receiver]) -> tuple[Engine, Engine, list[str]]:
    config = Config(keys_path=keys, fetch_private_addresses=True)
    first, second = Engine.open(target, config), Engine.open(target, config)
    actor, _ = first.identity.add_user("bench-deliverers@example.com")
    properties = []
    for number, receiver in enumerate(receivers):
        properties.append(first.properties.create(actor, {"title": f"Hotel {number}", "currency": "EUR"})["id"])
        first.webhooks.create(actor, {"property_id": properties[-1], "callback_url": receiver.url, "event_mask": "*"})
    return first, second, properties


def run(engines: tuple[Engine, Engine], properties: list[str], receivers: list[Receiver], pace: float) -> list[float]:
    """Commit-to-arrival times (ms) of `CHANGES` changes, committed by the two engines in turn."""
    for receiver in receivers:
        receiver.received.clear()
    committed: dict[str, float] = {}
    for number in range(CHANGES):
        engine, property_id = engines[number % 2], properties[number % len(properties)]
        with engine.store.transaction(property_scope(property_id)) as conn:
            event_id = record(conn, "booking_new", property_id, {"n": number})
        committed[event_id] = time.time()
        engine.events.publish("booking.changed", property_id)
        time.sleep(pace)
    deadline = time.monotonic() + 60
    while sum(len(r.received) for r in receivers) < CHANGES:
        if time.monotonic() > deadline:
            raise AssertionError("not every change arrived")
        time.sleep(0.01)
    return [(each.at - committed[each.headers["webhook-id"]]) * 1000 for r in receivers for each in r.received]


def figures(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]


def main() -> None:
    if server_bin() is None:
        sys.exit("needs Debian's PostgreSQL server: apt-get install postgresql")
    folder = Path(tempfile.mkdtemp(prefix="bench-deliverers-"))
    cluster = Cluster(server_bin(), settings=DURABLE).start()
    receivers = [Receiver() for _ in range(HOOKS)]
    best: dict[tuple[str, str], tuple[float, float]] = {}
    try:
        first, second, properties = build(cluster.empty("bench"), folder / "bench.keys", receivers)
        for _ in range(2):  # alternating, so that drift of the machine hits both alike
            for mode, delivering in (("1 delivering", (first,)), ("2 delivering", (first, second))):
                with ExitStack() as stack:
                    for engine in delivering:
                        stack.enter_context(engine.delivering("serve"))
                    time.sleep(0.5)  # both deliverers up, listening
                    for load, pace in (("paced", PACE), ("burst", 0.0)):
                        got = figures(run((first, second), properties, receivers, pace))
                        if (mode, load) not in best or got[0] < best[(mode, load)][0]:
                            best[(mode, load)] = got
        first.close()
        second.close()
    finally:
        for receiver in receivers:
            receiver.close()
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for load in ("paced", "burst"):
        (one50, one99), (two50, two99) = best[("1 delivering", load)], best[("2 delivering", load)]
        print(f"SUMMARY commit to webhook receiver, {HOOKS} webhooks, {CHANGES} changes {load}, PostgreSQL: "
              f"2 engines delivering p50 {two50:.1f} ms / p99 {two99:.1f} ms, 1 delivering p50 {one50:.1f} ms / "
              f"p99 {one99:.1f} ms: p50 {two50 / one50:.2f}x, p99 {two99 / one99:.2f}x of one")


if __name__ == "__main__":
    main()
