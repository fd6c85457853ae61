"""Events out: what the outbox costs a write, how soon a change reaches a receiver, and how fast and how coalesced
the deliverer sends. Every receiver is a real HTTP server on loopback; the deliverer runs as `frontdesk serve` runs
it (`Engine.delivering`).

1. **Write path**: an ARI write of 365 days x 50 rate plans (one value per plan) on a property whose plans are mapped
   to 3 push channels (the service's JSON) and which has 2 webhooks (`*`), the deliverer running and sending
   meanwhile, against the same write on a twin database with no destination and no deliverer. Aim: <= 1.3x.
2. **Coalescing**: the calls the 3 push channels got for that write, per 10,000 changed nights.
3. **Latency**: a single change (one night of availability) from its commit to a webhook receiver's arrival,
   p50 and p99 over 200 changes. Aim: p50 < 200 ms. Floor: a bare POST to the same receiver.
4. **Throughput**: 2,000 events to one webhook receiver, each its own signed call, against the same number of bare
   POSTs from one client.

    .venv/bin/python tests/bench/bench_events.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # for tests.receiver

import httpx

from backend.core.config import Config
from backend.engine import Engine
from backend.outbox.record import record
from tests.receiver import Receiver

ROOM_TYPES, PLANS_PER_ROOM, DAYS = 25, 2, 365
PUSH_CHANNELS, WEBHOOKS = 3, 2
WRITES = 12
SINGLES = 200
EVENTS = 2000
CONTACT = {"email": "desk@example.com", "phone": "+44 20 7946 0000", "zip_code": "EC1A 1BB", "country": "GB",
           "state": "England", "city": "London", "address": "1 Example Street", "longitude": "-0.1278",
           "latitude": "51.5074"}


def build(path: Path) -> tuple[Engine, str, list[str], list[str]]:
    engine = Engine.open(path, Config(fetch_private_addresses=True))
    op = engine.identity.operator()
    prop = engine.properties.create(op, {"title": "Bench Events Hotel", "currency": "EUR", **CONTACT,
                                         "settings": {"state_length": 500}})["id"]
    rooms, plans = [], []
    for r in range(ROOM_TYPES):
        room = engine.inventory.room_types.create(op, {"property_id": prop, "title": f"Room {r:02d}",
                                                       "count_of_rooms": 10, "occ_adults": 2})["id"]
        rooms.append(room)
        for n in range(PLANS_PER_ROOM):
            plans.append(engine.inventory.rate_plans.create(op, {
                "property_id": prop, "room_type_id": room, "title": f"Plan {r:02d}-{n}",
                "options": [{"occupancy": 2, "rate": "100", "is_primary": True}]})["id"])
    return engine, prop, rooms, plans


def subscribe(engine: Engine, prop: str, plans: list[str], channels: list[Receiver],
              hooks: list[Receiver]) -> list[str]:
    """The push channels and the webhooks; the webhooks' ids."""
    op = engine.identity.operator()
    for number, receiver in enumerate(channels):
        engine.channels.create(op, {"title": f"Push {number}", "channel": "BookingCom", "properties": [prop],
                                    "rate_plans": [{"rate_plan_id": p} for p in plans],
                                    "settings": {"ari_distribution": "push", "ari_url": receiver.url,
                                                 "ari_format": "json"}})
    return [engine.webhooks.create(op, {"property_id": prop, "callback_url": receiver.url, "event_mask": "*"})["id"]
            for receiver in hooks]


def year_of_rates(prop: str, plans: list[str], run: int) -> list[dict]:
    first = datetime.now(UTC).date() + timedelta(days=2)
    return [{"property_id": prop, "rate_plan_id": plan, "date_from": first.isoformat(),
             "date_to": (first + timedelta(days=DAYS - 1)).isoformat(), "rate": f"{100 + run}.00"} for plan in plans]


def timed(write) -> float:
    start = time.perf_counter()
    write()
    return (time.perf_counter() - start) * 1000


def caught_up(engine: Engine, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while engine.store.scalar("SELECT count(*) FROM destinations WHERE cursor < (SELECT max(seq) FROM events) "
                              "AND failing_since IS NULL"):
        if time.monotonic() > deadline:
            raise AssertionError("the deliverer did not catch up")
        time.sleep(0.05)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-events-"))
    channels = [Receiver() for _ in range(PUSH_CHANNELS)]
    hooks = [Receiver() for _ in range(WEBHOOKS)]
    subscribed, prop, rooms, plans = build(folder / "subscribed.db")
    webhooks = subscribe(subscribed, prop, plans, channels, hooks)
    bare, bare_prop, _, bare_plans = build(folder / "bare.db")
    op_s, op_b = subscribed.identity.operator(), bare.identity.operator()
    print(f"{len(plans)} rate plans on {ROOM_TYPES} room types; {PUSH_CHANNELS} push channels (JSON) and {WEBHOOKS} "
          f"webhooks on loopback receivers; a twin database with none")

    with subscribed.delivering("serve"):
        # 1 and 2: the year of rates, interleaved with the twin; each write starts with the deliverer idle (it sends
        # the previous write's events in this process, and would slow whichever write came while it did)
        # The twin goes first on even runs and second on odd ones, so that neither gains from its place.
        with_ms, without_ms = [], []
        for run in range(WRITES):
            if run % 2 == 0:
                without_ms.append(timed(lambda: bare.inventory.ari.set_restrictions(
                    op_b, year_of_rates(bare_prop, bare_plans, run))))
            calls_before = sum(len(r.received) for r in channels)
            with_ms.append(timed(lambda: subscribed.inventory.ari.set_restrictions(
                op_s, year_of_rates(prop, plans, run))))
            caught_up(subscribed)
            calls = sum(len(r.received) for r in channels) - calls_before
            if run % 2 == 1:
                without_ms.append(timed(lambda: bare.inventory.ari.set_restrictions(
                    op_b, year_of_rates(bare_prop, bare_plans, run))))
        nights = DAYS * len(plans)
        ratio = statistics.median(with_ms) / statistics.median(without_ms)
        print(f"SUMMARY write of {DAYS} days x {len(plans)} plans: {statistics.median(with_ms):.1f} ms p50 subscribed "
              f"(deliverer running), {statistics.median(without_ms):.1f} ms without, ratio {ratio:.2f}x "
              f"(aim <= 1.3x: {'within aim' if ratio <= 1.3 else 'ABOVE AIM'})")
        print(f"SUMMARY coalescing: {calls} calls to {PUSH_CHANNELS} push channels for {nights:,} changed nights each, "
              f"{calls / PUSH_CHANNELS / (nights / 10_000):.1f} calls per 10,000 changed nights per channel")

        # 3: single changes, commit to arrival at a webhook receiver
        room = rooms[0]
        latencies = []
        for n in range(SINGLES):
            seen = len(hooks[0].received)
            day = (datetime.now(UTC).date() + timedelta(days=2 + n % 300)).isoformat()
            subscribed.inventory.ari.set_availability(op_s, [{"property_id": prop, "room_type_id": room, "date": day,
                                                              "availability": n % 7}])
            committed = time.time()
            latencies.append((hooks[0].wait_for(seen + 1)[-1].at - committed) * 1000)
            caught_up(subscribed)
        with httpx.Client() as client:
            bare_posts = []
            for _ in range(SINGLES):
                start = time.time()
                client.post(hooks[1].url, content=b"{}")
                bare_posts.append((time.time() - start) * 1000)
        latencies.sort()
        print(f"SUMMARY latency commit -> receiver, single changes: p50 {statistics.median(latencies):.1f} ms, "
              f"p99 {latencies[int(len(latencies) * 0.99) - 1]:.1f} ms (aim p50 < 200 ms: "
              f"{'within aim' if statistics.median(latencies) < 200 else 'ABOVE AIM'}); a bare POST p50 "
              f"{statistics.median(bare_posts):.1f} ms")

        # 4: throughput to one receiver (the other webhook paused, so that one destination is measured)
        subscribed.webhooks.update(op_s, webhooks[1], {"is_active": False})
        seen = len(hooks[0].received)
        start = time.perf_counter()
        with subscribed.store.transaction() as conn:
            for n in range(EVENTS):
                record(conn, "message", prop, {"id": f"bench-{n}", "message": "hello", "message_thread_id": None,
                                               "booking_id": None, "sender": "guest", "attachments": [],
                                               "have_attachment": False, "ota_message_id": None})
        subscribed.events.publish("bench", "events")
        hooks[0].wait_for(seen + EVENTS, timeout=300)
        delivered_s = time.perf_counter() - start
    with httpx.Client() as client:
        start = time.perf_counter()
        for _ in range(EVENTS):
            client.post(hooks[1].url, content=b'{"event":"message"}')
        bare_s = time.perf_counter() - start
    print(f"SUMMARY throughput to one webhook receiver: {EVENTS / delivered_s:,.0f} events/s, each signed and logged; "
          f"bare POSTs from one client: {EVENTS / bare_s:,.0f}/s; ratio {delivered_s / bare_s:.2f}x the bare time")
    for receiver in (*channels, *hooks):
        receiver.close()


if __name__ == "__main__":
    main()
