"""Commit to webhook receiver on PostgreSQL (durable commits) with 2 hosts delivering against 1, in the same run:
`frontdesk serve --workers 1` processes over one database, each standing for a host, every one of them delivering
(each claims destinations of its own, up to its 4 threads).

`HOOKS` properties, each with a webhook of its own (`*`) to one receiver on loopback that notes each call's arrival
time: `HOOKS` destinations for the hosts to claim. `CHANGES` one-night ARI writes (POST /api/v1/restrictions) over
HTTP from `CLIENTS` client threads, spread over the properties and, with 2 hosts, sent to each host in turn: paced
(one every `PACE` s) and in a burst (all at once). Each write's answer time is noted; its event is found in the
outbox by its property and night, and its latency is its first arrival at the receiver minus that answer (a
delivery that beats the answer back counts below zero). Figure: p50 and p99 for each setup and the ratios two /
one. The setups alternate twice; the better run of each is kept. The clients and the receiver run here, the hosts
and PostgreSQL beside them, all on this machine's cores: a second host adds a process and its deliverer, not a
machine.

    .venv/bin/python tests/bench/bench_deliverers.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import psycopg
from bench_scale_out import DURABLE, frontdesk, shop

from backend.core.config import Config
from backend.engine import Engine
from tests.postgres_cluster import Cluster, server_bin
from tests.receiver import Receiver

HOOKS, CHANGES, CLIENTS, PACE = 16, 320, 8, 0.05  # paced: 20 writes a second
SETUPS = {"1 host": 1, "2 hosts": 2}


def build(target: str, keys: Path, receiver: Receiver) -> dict:
    engine = Engine.open(target, Config(keys_path=keys, fetch_private_addresses=True))
    actor, token = engine.identity.add_user("bench-deliverers@example.com")
    today = datetime.now(UTC).date()
    shops = [shop(engine, actor, n, today) for n in range(HOOKS)]
    for n, (property_id, _, _) in enumerate(shops):
        engine.webhooks.create(actor, {"property_id": property_id, "callback_url": f"{receiver.url}/hook{n}",
                                       "event_mask": "*"})
    engine.close()
    return {"token": token.token, "shops": shops, "today": today}


def run(urls: list[str], built: dict, receiver: Receiver, target: str, pace: float, rate: int) -> list[float]:
    """Commit-to-arrival times (ms) of `CHANGES` writes at `rate`, write n to host n % len(urls)."""
    receiver.received.clear()
    answered: dict[tuple[str, str], float] = {}
    clients = [httpx.Client(base_url=url, timeout=60, headers={"Authorization": f"Bearer {built['token']}"})
               for url in urls]

    def write(n: int) -> None:
        property_id, _, plan = built["shops"][n % HOOKS]
        night = (built["today"] + timedelta(days=1 + n // HOOKS)).isoformat()
        response = clients[n % len(clients)].post("/api/v1/restrictions", json={"values": [{
            "property_id": property_id, "rate_plan_id": plan, "date": night, "rate": f"{rate}.00"}]})
        answered[(property_id, night)] = time.time()
        if response.status_code != 200:
            raise AssertionError(f"write {n}: {response.status_code} {response.text}")

    with ThreadPoolExecutor(CLIENTS) as pool:
        writes = []
        for n in range(CHANGES):
            writes.append(pool.submit(write, n))
            time.sleep(pace)
        for each in writes:
            each.result()
    for client in clients:
        client.close()
    receiver.wait_for(CHANGES, 60)
    first: dict[str, float] = {}
    for call in list(receiver.received):
        first.setdefault(call.headers["webhook-id"], call.at)
    with psycopg.connect(target) as conn:
        rows = conn.execute("SELECT id, property_id, payload FROM events WHERE id = ANY(%s)", (list(first),))
        nights = {event_id: (property_id, json.loads(payload)["date_from"]) for event_id, property_id, payload in rows}
    return [(at - answered[nights[event_id]]) * 1000 for event_id, at in first.items()
            if nights.get(event_id) in answered]


def figures(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]


def main() -> None:
    if server_bin() is None:
        sys.exit("needs Debian's PostgreSQL server: apt-get install postgresql")
    folder = Path(tempfile.mkdtemp(prefix="bench-deliverers-"))
    cluster = Cluster(server_bin(), settings=DURABLE).start()
    receiver = Receiver()
    best: dict[tuple[str, str], tuple[float, float]] = {}
    try:
        target, keys = cluster.empty("bench"), folder / "bench.keys"
        built = build(target, keys, receiver)
        rate = 100
        for _ in range(2):  # alternating, so that drift of the machine hits both alike
            for setup, count in SETUPS.items():
                with ExitStack() as stack:
                    urls = [stack.enter_context(frontdesk(target, keys, 1, options=("--fetch-private-addresses",)))
                            for _ in range(count)]
                    time.sleep(1)  # every deliverer up, listening
                    for load, pace in (("paced", PACE), ("burst", 0.0)):
                        rate += 1  # a new value for every night, so that every write is a change
                        got = figures(run(urls, built, receiver, target, pace, rate))
                        if (setup, load) not in best or got[0] < best[(setup, load)][0]:
                            best[(setup, load)] = got
    finally:
        receiver.close()
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for load in ("paced", "burst"):
        (one50, one99), (two50, two99) = best[("1 host", load)], best[("2 hosts", load)]
        print(f"SUMMARY commit to webhook receiver, {HOOKS} webhooks, {CHANGES} ARI writes over HTTP {load} from "
              f"{CLIENTS} clients, PostgreSQL: 2 hosts delivering p50 {two50:.1f} ms / p99 {two99:.1f} ms, 1 host "
              f"p50 {one50:.1f} ms / p99 {one99:.1f} ms: p50 {two50 / one50:.2f}x, p99 {two99 / one99:.2f}x of one")


if __name__ == "__main__":
    main()
