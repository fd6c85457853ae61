"""push_booking over real HTTP on the secure listener: new bookings per second, against /api/v1/health.

Figure: bookings/s of `POST /api/v1/meta/OpenShopping/{property_id}/push_booking` (each a new booking
with a guarantee card, so the card is sealed on the secure listener) over requests/s of
`GET /api/v1/health` on the same server, loaded the same way in the same run: CLIENTS threads, each
with its own keep-alive httpx client, the server uvicorn in a thread of this process as
tests/conftest.py `LiveServer` runs it. Rounds alternate between the two so that drift of the
machine hits both alike. No aim: the ratio says how much of a request the booking itself costs. The
whole run is made twice, with commits durable on disk (`synchronous = FULL`, as shipped) and relaxed to
`NORMAL`, to show what durability costs (durability.py).

One property (state_length 400), one room type with 10,000 rooms (the most an availability value
may hold) on each of 400 days, one rate plan mapped to an OpenShopping channel. Every booking has
its own reservation_id and a stay of 1-5 nights somewhere in the year. Afterwards the total
availability must have dropped by exactly the room-nights booked; that check is printed.

    .venv/bin/python tests/bench/bench_push_booking.py
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # for tests.conftest

import httpx

from backend.core.config import Config
from backend.engine import Engine
from tests.bench.durability import MODES, open_engine
from tests.conftest import CONTACT, LiveServer, free_port

DAYS = 400
ROOMS = 10_000
CLIENTS = 4
BOOKINGS = 2_400  # per kind and run, split over the rounds
ROUNDS = 4
WARMUP = 40
CARD = {"card_number": "4111111111111111", "cvv": "123", "expiration_date": "12/2031", "cardholder_name": "B Ench",
        "card_type": "visa"}


def build(path: Path, port: int, mode: str) -> tuple[Engine, str, str, str, date]:
    url = f"http://127.0.0.1:{port}"
    engine = open_engine(path, Config(base_url=url, secure_url=url), mode)
    op = engine.identity.operator()
    today = datetime.now(UTC).date()
    prop = engine.properties.create(op, {"title": "Bench Booking Hotel", "currency": "EUR", **CONTACT,
                                         "settings": {"state_length": DAYS}})["id"]
    room = engine.inventory.room_types.create(op, {"property_id": prop, "title": "Double", "count_of_rooms": ROOMS,
                                                   "occ_adults": 2, "occ_children": 1})["id"]
    plan = engine.inventory.rate_plans.create(op, {"property_id": prop, "room_type_id": room, "title": "Standard",
                                                   "options": [{"occupancy": 1, "rate": "80"},
                                                               {"occupancy": 2, "rate": "100", "is_primary": True}]})["id"]
    engine.channels.create(op, {"title": "OpenShopping", "channel_code": "OpenShopping", "property_ids": [prop],
                                "rate_plan_ids": [plan]})
    first, last = today.isoformat(), (today + timedelta(days=DAYS - 1)).isoformat()
    engine.inventory.ari.set_availability(op, [{"property_id": prop, "room_type_id": room, "date_from": first,
                                                "date_to": last, "availability": ROOMS}])
    engine.inventory.ari.set_restrictions(op, [{"property_id": prop, "rate_plan_id": plan, "date_from": first,
                                                "date_to": last, "rate": "120.00"}])
    return engine, prop, room, plan, today


class Bookings:
    """Bodies of new bookings, each with its own reservation_id; counts the room-nights handed out."""

    def __init__(self, room: str, plan: str, today: date) -> None:
        self.room, self.plan, self.today = room, plan, today
        self.lock = threading.Lock()
        self.serial = 0
        self.nights = 0

    def next(self) -> dict:
        with self.lock:
            n = self.serial
            self.serial += 1
            arrival = self.today + timedelta(days=5 + (n * 37) % (DAYS - 20))
            nights = 1 + n % 5
            self.nights += nights
        return {"booking": {
            "status": "new", "reservation_id": f"BENCH-{n:06d}", "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + timedelta(days=nights)).isoformat(), "currency": "EUR",
            "customer": {"name": "Bench", "surname": f"Guest {n}"}, "guarantee": CARD,
            "rooms": [{"room_type_code": self.room, "rate_plan_code": self.plan, "occupancy": {"adults": 2}}]}}


def load(clients: list[httpx.Client], count: int, request: Callable[[httpx.Client], None]) -> float:
    """Requests per second of `count` requests shared by the clients, one thread each."""
    share = [count // len(clients) + (i < count % len(clients)) for i in range(len(clients))]
    failures: list[BaseException] = []

    def work(client: httpx.Client, n: int) -> None:
        try:
            for _ in range(n):
                request(client)
        except Exception as exc:  # re-raised in the main thread below
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(c, n)) for c, n in zip(clients, share, strict=True)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise failures[0]
    return count / elapsed


def main() -> None:
    rates = {mode: run(mode) for mode in MODES}
    print(f"SUMMARY durable commits (FULL) cost push_booking {100 * (1 - rates['FULL'] / rates['NORMAL']):.0f}% of "
          f"its throughput: {rates['FULL']:.0f} bookings/s against {rates['NORMAL']:.0f} with NORMAL")


def run(mode: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        engine, prop, room, plan, today = build(Path(folder) / "bench.db", port, mode)
        bodies = Bookings(room, plan, today)
        before = engine.store.scalar("SELECT sum(availability) FROM availability WHERE room_type_id = ?", (room,))

        def book(client: httpx.Client) -> None:
            response = client.post(f"/api/v1/meta/OpenShopping/{prop}/push_booking", json=bodies.next())
            if response.status_code != 201:
                raise RuntimeError(f"push_booking answered {response.status_code}: {response.text[:500]}")

        def health(client: httpx.Client) -> None:
            response = client.get("/api/v1/health")
            if response.status_code != 200:
                raise RuntimeError(f"health answered {response.status_code}: {response.text[:500]}")

        with LiveServer(engine, "secure", port) as server:
            clients = [httpx.Client(base_url=server.url, timeout=30) for _ in range(CLIENTS)]
            try:
                load(clients, WARMUP, health)
                load(clients, WARMUP, book)
                rates: dict[str, list[float]] = {"book": [], "health": []}
                for _ in range(ROUNDS):
                    rates["health"].append(load(clients, BOOKINGS // ROUNDS, health))
                    rates["book"].append(load(clients, BOOKINGS // ROUNDS, book))
            finally:
                for client in clients:
                    client.close()
        after = engine.store.scalar("SELECT sum(availability) FROM availability WHERE room_type_id = ?", (room,))
        stored = engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (prop,))
        cards = engine.store.scalar("SELECT count(*) FROM vault_cards WHERE profile_name = 'booking'")
        booked = sum(rates["book"]) / ROUNDS, sum(rates["health"]) / ROUNDS
        print(f"secure listener, uvicorn in-process; {CLIENTS} client threads with keep-alive; {ROUNDS} alternating "
              f"rounds of {BOOKINGS // ROUNDS} requests per kind, after {WARMUP} of each to warm up")
        print(f"  per round: push_booking {', '.join(f'{r:.0f}' for r in rates['book'])} bookings/s; "
              f"health {', '.join(f'{r:.0f}' for r in rates['health'])} req/s")
        drop = before - after
        print(f"  {stored} bookings stored ({cards} cards in the vault), {bodies.serial} pushed; availability dropped by "
              f"{drop:,} room-nights, the bookings hold {bodies.nights:,}: "
              f"{'exact' if drop == bodies.nights and stored == bodies.serial else 'MISMATCH'}")
        print(f"SUMMARY push_booking over HTTP (secure, synchronous = {mode}): {booked[0]:.0f} bookings/s, GET /api/v1/health "
              f"{booked[1]:.0f} req/s on the same server, ratio {booked[1] / booked[0]:.1f}x "
              f"(a booking costs {1000 / booked[0] - 1000 / booked[1]:.2f} ms of server time over a bare request; "
              f"mean latency {CLIENTS * 1000 / booked[0]:.1f} ms with {CLIENTS} in flight)")
        return booked[0]


if __name__ == "__main__":
    main()
