"""Guest messages in over real HTTP: inbound messages per second, each durably committed before the answer.

Figure: messages/s of `POST /api/v1/inbound/{channel_id}/messages` (each a guest message on one of 200
bookings' threads, committed in its own transaction in WAL mode before the 200 answer) over requests/s of
`GET /api/v1/health` on the same server, loaded the same way: CLIENTS threads with keep-alive clients,
the server uvicorn in a thread of this process. Afterwards the stored message count must equal the
number of 200 answers; that check is printed. The run is made twice, with commits durable on disk
(`synchronous = FULL`, as shipped) and relaxed to `NORMAL`, to show what durability costs (durability.py).

    .venv/bin/python tests/bench/bench_inbound_messages.py
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # for tests.conftest

import httpx

from backend.core.config import Config
from backend.engine import Engine
from tests.bench.durability import MODES, open_engine
from tests.conftest import CONTACT, LiveServer, free_port

CLIENTS = 4
MESSAGES = 2_000
BOOKINGS = 200


def build(path: Path, port: int, mode: str) -> tuple[Engine, str, str, list[str]]:
    engine = open_engine(path, Config(base_url=f"http://127.0.0.1:{port}"), mode)
    op = engine.identity.operator()
    prop = engine.properties.create(op, {"title": "Bench Inbox Hotel", "currency": "EUR", **CONTACT})["id"]
    engine.applications.install(op, {"property_id": prop, "application_code": "chat"})
    room = engine.inventory.room_types.create(op, {"property_id": prop, "title": "Double", "count_of_rooms": 50,
                                                   "occ_adults": 2})["id"]
    plan = engine.inventory.rate_plans.create(op, {"property_id": prop, "room_type_id": room, "title": "Standard",
                                                   "options": [{"occupancy": 2, "rate": "100"}]})["id"]
    channel = engine.channels.create(op, {"title": "Booking.com", "channel_code": "BookingCom", "property_ids": [prop],
                                          "rate_plan_ids": [plan]})
    row = engine.bookings.channel_by_key(channel["id"], channel["inbound_key"])
    arrival = datetime.now(UTC).date() + timedelta(days=30)
    bookings = [engine.bookings.inbound(row, {
        "status": "new", "reservation_id": f"B{n:05d}", "property_id": prop, "arrival_date": arrival.isoformat(),
        "departure_date": (arrival + timedelta(days=2)).isoformat(), "currency": "EUR",
        "customer": {"surname": f"Guest {n}"},
        "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2}}]}, secure=False)[0]["id"]
        for n in range(BOOKINGS)]
    return engine, channel["id"], channel["inbound_key"], bookings


def hammer(url: str, total: int, send: Callable[[httpx.Client, int], httpx.Response]) -> tuple[float, int]:
    """`total` requests from CLIENTS threads; (requests per second, successful answers)."""
    ok = [0] * CLIENTS

    def client(number: int) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            for n in range(number, total, CLIENTS):
                ok[number] += send(http, n).status_code == 200

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return total / (time.perf_counter() - start), sum(ok)


def main() -> None:
    rates = {mode: run(mode) for mode in MODES}
    print(f"SUMMARY durable commits (FULL) cost inbound messages {100 * (1 - rates['FULL'] / rates['NORMAL']):.0f}% "
          f"of their throughput: {rates['FULL']:.0f} messages/s against {rates['NORMAL']:.0f} with NORMAL")


def run(mode: str) -> float:
    port = free_port()
    engine, channel_id, key, bookings = build(Path(tempfile.mkdtemp()) / "inbound.db", port, mode)
    before = engine.store.scalar("SELECT count(*) FROM messages")
    with LiveServer(engine, "main", port) as server:
        def message(http: httpx.Client, n: int) -> httpx.Response:
            return http.post(f"/api/v1/inbound/{channel_id}/messages", headers={"api-key": key},
                             json={"message": {"booking_id": bookings[n % BOOKINGS], "message": f"Guest note {n}"}})

        def health(http: httpx.Client, _: int) -> httpx.Response:
            return http.get("/api/v1/health")

        hammer(server.url, 100, health)  # warm
        rates, stored = [], 0
        for _ in range(2):
            rate, ok = hammer(server.url, MESSAGES // 2, message)
            rates.append(rate)
            stored += ok
        floor, _ = hammer(server.url, MESSAGES, health)
    count = engine.store.scalar("SELECT count(*) FROM messages") - before
    print(f"  rounds: {', '.join(f'{r:.0f}' for r in rates)} messages/s; health {floor:.0f} req/s")
    print(f"  {stored} answered 200, {count} stored: {'exact' if stored == count else 'MISMATCH'}")
    rate = sum(rates) / len(rates)
    print(f"SUMMARY inbound guest messages over HTTP (synchronous = {mode}): {rate:.0f} messages/s, each committed "
          f"before its answer; GET /api/v1/health {floor:.0f} req/s on the same server, ratio {floor / rate:.1f}x")
    return rate


if __name__ == "__main__":
    main()
