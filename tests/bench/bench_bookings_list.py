"""The newest bookings, a page of 50, as the table grows: 1,000 bookings against 100,000, on SQLite and PostgreSQL.

Figure: the engine's first page of `GET /api/v1/bookings?pagination[limit]=50` (newest first, with its total) at
100,000 bookings over the same at 1,000, each store in the same run. Aim: <= 2x (issue 24: a fixed-size page must
not cost more as the table grows). Also printed: the raw SQL read of the same 50 rows, the floor.

One booking is made through the engine (taken by the property on its direct channel); the rest are copies of it
with plain SQL, each a booking and its revision with ids and times of its own (the engine would take an hour to
write 100,000 one by one).

    .venv/bin/python tests/bench/bench_bookings_list.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from timing import measure

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from storage import new_id
from tests.conftest import CONTACT
from tests.postgres_cluster import Cluster, server_bin

SIZES = (1_000, 100_000)
AIM = 2.0
PAGE = ListQuery.from_params([("pagination[limit]", "50")])
RAW = ("SELECT b.*, r.attributes FROM bookings b JOIN booking_revisions r ON r.id = b.revision_id "
       "ORDER BY b.inserted_at DESC, b.id LIMIT 50")


def build(target: str | Path, count: int, keys: Path) -> Engine:
    engine = Engine.open(target, Config(keys_path=keys))
    operator = engine.identity.operator()
    prop = engine.properties.create(operator, {"title": "Bench", "currency": "EUR", **CONTACT})["id"]
    room = engine.inventory.room_types.create(operator, {"property_id": prop, "title": "Double",
                                                         "count_of_rooms": 5, "occ_adults": 2})["id"]
    plan = engine.inventory.rate_plans.create(operator, {"property_id": prop, "room_type_id": room, "title": "Flex",
                                                         "options": [{"occupancy": 2, "rate": "100",
                                                                      "is_primary": True}]})["id"]
    today = datetime.now(UTC).date()
    engine.inventory.ari.set_availability(operator, [{"property_id": prop, "room_type_id": room,
                                                      "date_from": today.isoformat(),
                                                      "date_to": (today + timedelta(days=30)).isoformat(),
                                                      "availability": 5}])
    engine.inventory.ari.set_restrictions(operator, [{"property_id": prop, "rate_plan_id": plan,
                                                      "date_from": today.isoformat(),
                                                      "date_to": (today + timedelta(days=30)).isoformat(),
                                                      "rate": "120.00"}])
    engine.bookings.take(operator, {
        "property_id": prop, "status": "new", "arrival_date": (today + timedelta(days=3)).isoformat(),
        "departure_date": (today + timedelta(days=4)).isoformat(), "currency": "EUR",
        "customer": {"surname": "Doe", "name": "Jane"},
        "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2}}]}, secure=False)
    _copies(engine, count - 1)
    return engine


def _copies(engine: Engine, count: int) -> None:
    booking = dict(engine.store.one("SELECT * FROM bookings"))
    revision = dict(engine.store.one("SELECT * FROM booking_revisions"))
    start = datetime(2026, 1, 1)
    with engine.store.transaction() as conn:
        for chunk in range(0, count, 5000):
            bookings, revisions = [], []
            for n in range(chunk, min(count, chunk + 5000)):
                at = (start + timedelta(seconds=n)).isoformat(timespec="microseconds")
                booking_id, revision_id = new_id(), new_id()
                attributes = {**json.loads(revision["attributes"]), "id": booking_id, "reservation_id": f"R{n}"}
                bookings.append({**booking, "id": booking_id, "reservation_id": f"R{n}", "unique_id": f"OSH-R{n}",
                                 "revision_id": revision_id, "inserted_at": at, "updated_at": at})
                revisions.append({**revision, "id": revision_id, "booking_id": booking_id,
                                  "attributes": json.dumps(attributes), "inserted_at": at, "acked_at": at})
            for table, rows in (("bookings", bookings), ("booking_revisions", revisions)):
                columns = list(rows[0])
                conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                                 [tuple(row[c] for c in columns) for row in rows])


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-bookings-"))
    cluster = Cluster(server_bin()).start() if server_bin() else None
    try:
        for store in ("sqlite", "postgresql") if cluster else ("sqlite",):
            times = {}
            for size in SIZES:
                target = folder / f"{size}.db" if store == "sqlite" else cluster.empty(f"b{size}")
                engine = build(target, size, folder / f"{store}{size}.keys")
                operator = engine.identity.operator()
                assert engine.bookings.list(operator, PAGE)[1]["total"] == size
                times[size] = measure({"engine": lambda: len(engine.bookings.list(operator, PAGE)[0]),
                                       "raw": lambda: len(engine.store.query(RAW))}, runs=30, warm=3)
                engine.close()
            small, large = times[SIZES[0]], times[SIZES[1]]
            ratio = large["engine"][0] / small["engine"][0]
            print(f"SUMMARY {store}: newest 50 bookings, engine {small['engine'][0]:.1f} ms at {SIZES[0]:,}, "
                  f"{large['engine'][0]:.1f} ms at {SIZES[1]:,} (raw read {small['raw'][0]:.1f} / "
                  f"{large['raw'][0]:.1f} ms): {ratio:.2f}x (aim <= {AIM}x: "
                  f"{'within aim' if ratio <= AIM else 'BELOW AIM'})")
    finally:
        if cluster:
            cluster.stop()


if __name__ == "__main__":
    main()
