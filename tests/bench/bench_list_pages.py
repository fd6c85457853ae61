"""Pages that stay flat (issue 24, item 6): a page of 50 at 100,000 rows against the same page at 1,000, on SQLite
and PostgreSQL, in the same run.

- the newest 50 bookings (`GET /api/v1/bookings?pagination[limit]=50`, newest first, with its total);
- an inbox search (`filter[search][has]`) for a word in every thread (a full page, so its total is counted) and for
  a guest's name (one thread: the page tells its own total, the search must still look through every thread).

Aim: <= 2x. Also printed: the raw SQL read of the same 50 bookings, the floor.

One booking is made through the engine, the rest are copies of it with plain SQL, each with ids, times and a guest
of its own; the conversations go in with plain SQL too, on the property's Booking.com channel (the engine would
take an hour to write 100,000 of each one by one).

    .venv/bin/python tests/bench/bench_list_pages.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from timing import measure

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from storage import Connection, new_id
from tests.conftest import CONTACT
from tests.postgres_cluster import Cluster, server_bin

SIZES = (1_000, 100_000)
AIM = 2.0
CHUNK = 5000
RAW = ("SELECT b.*, r.attributes FROM bookings b JOIN booking_revisions r ON r.id = b.revision_id "
       "ORDER BY b.inserted_at DESC, b.id LIMIT 50")


def _page(*filters: tuple[str, str]) -> ListQuery:
    return ListQuery.from_params([*filters, ("pagination[limit]", "50")])


PAGES = {"newest 50 bookings": ("bookings", _page()),
         "inbox search, a word in every thread": ("threads", _page(("filter[search][has]", "breakfast"))),
         "inbox search, one guest's name": ("threads", _page(("filter[search][has]", "Guest 00042 ")))}


def build(target: str | Path, count: int, keys: Path) -> Engine:
    """A property on a Booking.com channel with the chat app, `count` bookings and `count` conversations."""
    engine = Engine.open(target, Config(keys_path=keys))
    operator = engine.identity.operator()
    prop = engine.properties.create(operator, {"title": "Bench", "currency": "EUR", **CONTACT})["id"]
    engine.applications.install(operator, {"property_id": prop, "application_code": "chat"})
    room = engine.inventory.room_types.create(operator, {"property_id": prop, "title": "Double",
                                                         "count_of_rooms": 5, "occ_adults": 2})["id"]
    plan = engine.inventory.rate_plans.create(operator, {"property_id": prop, "room_type_id": room, "title": "Flex",
                                                         "options": [{"occupancy": 2, "rate": "100",
                                                                      "is_primary": True}]})["id"]
    channel = engine.channels.create(operator, {"title": "Booking.com", "channel_code": "BookingCom",
                                                "property_ids": [prop], "rate_plan_ids": [plan]})
    today = datetime.now(UTC).date()
    nights = {"property_id": prop, "date_from": today.isoformat(), "date_to": (today + timedelta(days=30)).isoformat()}
    engine.inventory.ari.set_availability(operator, [{**nights, "room_type_id": room, "availability": 5}])
    engine.inventory.ari.set_restrictions(operator, [{**nights, "rate_plan_id": plan, "rate": "120.00"}])
    engine.bookings.take(operator, {
        "property_id": prop, "status": "new", "arrival_date": (today + timedelta(days=3)).isoformat(),
        "departure_date": (today + timedelta(days=4)).isoformat(), "currency": "EUR",
        "customer": {"surname": "Doe", "name": "Jane"},
        "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2}}]}, secure=False)
    with engine.store.transaction() as conn:
        _copy_bookings(conn, count - 1)
        _copy_threads(conn, prop, channel["id"], count)
    with engine.store.transaction() as conn:
        conn.execute("ANALYZE")  # as autovacuum would after a load this size: PostgreSQL's plans follow statistics
    return engine


def _copy_bookings(conn: Connection, count: int) -> None:
    booking = dict(conn.execute("SELECT * FROM bookings").fetchone())
    revision = dict(conn.execute("SELECT * FROM booking_revisions").fetchone())
    start = datetime(2026, 1, 1)
    for chunk in range(0, count, CHUNK):
        bookings, revisions = [], []
        for n in range(chunk, min(count, chunk + CHUNK)):
            at = (start + timedelta(seconds=n)).isoformat(timespec="microseconds")
            booking_id, revision_id = new_id(), new_id()
            attributes = {**json.loads(revision["attributes"]), "id": booking_id, "reservation_id": f"R{n}"}
            bookings.append({**booking, "id": booking_id, "reservation_id": f"R{n}", "unique_id": f"OSH-R{n}",
                             "revision_id": revision_id, "inserted_at": at, "updated_at": at})
            revisions.append({**revision, "id": revision_id, "booking_id": booking_id,
                              "attributes": json.dumps(attributes), "inserted_at": at, "acked_at": at})
        _insert(conn, "bookings", bookings)
        _insert(conn, "booking_revisions", revisions)


def _copy_threads(conn: Connection, property_id: str, channel_id: str, count: int) -> None:
    """Threads of guests `Guest 00000`…, each with one guest message that mentions breakfast, set as the thread's
    last message once written, as the engine does (the thread's search text follows it)."""
    start = datetime(2026, 1, 1)
    for chunk in range(0, count, CHUNK):
        threads, messages = [], []
        for n in range(chunk, min(count, chunk + CHUNK)):
            at = (start + timedelta(seconds=n)).isoformat(timespec="microseconds")
            thread_id, message_id = new_id(), new_id()
            messages.append({"id": message_id, "thread_id": thread_id, "sender": "guest",
                             "message": f"Is breakfast included on day {n % 7}?", "inserted_at": at, "updated_at": at})
            threads.append({"id": thread_id, "property_id": property_id, "channel_id": channel_id,
                            "provider": "BookingCom", "title": f"Guest {n:05d} Smith", "message_count": 1,
                            "unread_count": n % 2, "last_message_received_at": at, "inserted_at": at,
                            "updated_at": at})
        _insert(conn, "message_threads", threads)
        _insert(conn, "messages", messages)
        conn.executemany("UPDATE message_threads SET last_message_id = ? WHERE id = ?",
                         [(m["id"], m["thread_id"]) for m in messages])


def _insert(conn: Connection, table: str, rows: list[dict]) -> None:
    columns = list(rows[0])
    conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                     [tuple(row[c] for c in columns) for row in rows])


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    cluster = Cluster(server_bin()).start() if server_bin() else None
    try:
        for store in ("sqlite", "postgresql") if cluster else ("sqlite",):
            times: dict[int, dict[str, tuple[float, float]]] = {}
            for size in SIZES:
                target = folder / f"{size}.db" if store == "sqlite" else cluster.empty(f"b{size}")
                engine = build(target, size, folder / f"{store}{size}.keys")
                operator = engine.identity.operator()
                lists: dict[str, Callable] = {"bookings": engine.bookings.list, "threads": engine.chat.threads}
                assert engine.bookings.list(operator, PAGES["newest 50 bookings"][1])[1]["total"] == size
                candidates = {name: (lambda read=lists[kind], query=query: len(read(operator, query)[0]))
                              for name, (kind, query) in PAGES.items()}
                times[size] = measure({**candidates, "raw": lambda: len(engine.store.query(RAW))}, runs=20, warm=3)
                engine.close()
            small, large = times[SIZES[0]], times[SIZES[1]]
            for name in PAGES:
                ratio = large[name][0] / small[name][0]
                print(f"SUMMARY {store}: {name}: {small[name][0]:.1f} ms at {SIZES[0]:,}, {large[name][0]:.1f} ms at "
                      f"{SIZES[1]:,}: {ratio:.2f}x (aim <= {AIM}x: {'within aim' if ratio <= AIM else 'ABOVE AIM'})")
            print(f"  raw read of the newest 50 bookings: {small['raw'][0]:.1f} / {large['raw'][0]:.1f} ms")
    finally:
        if cluster:
            cluster.stop()


if __name__ == "__main__":
    main()
