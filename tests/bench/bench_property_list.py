"""Shopping `property_list` with a stay and `filter[is_available]=true`, 1,000 properties on one channel.

Figure: the engine's p50 (`engine.shopping.property_list`), which prices the stay over every mapped
rate plan of all 1,000 properties to compute `best_offer` and availability, over the p50 of the
raw SQL read of the ARI rows of the stay for all mapped plans (their restrictions rows and their
room types' availability rows, with a plain sqlite3 connection, fetchall), both measured here, warm,
interleaved. Aim: engine p50 under 300 ms; the ratio is printed beside. The minimum CPU time
(process_time) of each is printed too, for noisy machines.

Each property has 1-3 room types with 2 rate plans each (2 options), and ~60 days of ARI; three
properties in eight can't sell the stays (sold out on a night of each, or stop sell), so
the filter has something to drop. Stays of 3 nights start on a few arrival dates in turn, the same
ones for the engine and the raw read.

The same portfolio with a third of the rate plans derived (every third plan follows a plan before it in
its property: less 10%, plus 5.00, inheriting closed to arrival and stop sell), in a database of its own, is
measured in the same run: derived plans, computed from their parents on every read, may cost at most 1.2x
plain ones.

    .venv/bin/python tests/bench/bench_property_list.py
"""

from __future__ import annotations

import sqlite3
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from timing import measure

from backend.core.config import Config
from backend.engine import Engine

PROPERTIES = 1_000
PLANS_PER_ROOM = 2
ARI_DAYS = 60
NIGHTS = 3
ARRIVALS = (10, 11, 17, 24)  # days from today
RUNS = 40
AIM_MS = 300.0
AIM_DERIVED = 1.2
DERIVED_EVERY = 3
DERIVED = {"rate_mode": "derived", "inherit_closed_to_arrival": True, "inherit_stop_sell": True}
MODIFIERS = {"rate": [["decrease_by_percent", "10"], ["increase_by_amount", "5.00"]]}
CONTACT = {"email": "desk@example.com", "phone": "+44 20 7946 0000", "zip_code": "EC1A 1BB", "country": "GB",
           "state": "England", "city": "London", "address": "1 Example Street", "longitude": "-0.1278",
           "latitude": "51.5074"}
CITIES = ["London", "Paris", "Lisbon", "Rome", "Vienna", "Zermatt", "Kyoto", "Marrakesh"]


def build(target: str | Path, derived: bool, *, properties: int = PROPERTIES, days: int = ARI_DAYS,
          keys: Path | None = None) -> tuple[Engine, str, date, dict[str, int]]:
    """Properties, rooms, plans and the channel through the engine services; `days` of ARI as date ranges. With
    `derived`, a third of the plans derived. On either store (bench_property_list_scale.py builds from here)."""
    engine = Engine.open(target, Config(keys_path=keys) if keys else None)
    op = engine.identity.operator()
    today = datetime.now(UTC).date()
    first, last = today.isoformat(), (today + timedelta(days=days - 1)).isoformat()
    props, plans, availability, restrictions = [], [], [], []
    derived_plans = 0
    for n in range(properties):
        prop = engine.properties.create(op, {"title": f"Bench Hotel {n:04d}", "currency": "EUR",
                                             **CONTACT, "city": CITIES[n % len(CITIES)]})["id"]
        props.append(prop)
        own_rooms, own_plans = [], []
        for r in range(1 + n % 3):
            room = engine.inventory.room_types.create(op, {"property_id": prop, "title": f"Room {r}",
                                                           "count_of_rooms": 10, "occ_adults": 2,
                                                           "occ_children": 1})["id"]
            own_rooms.append(room)
            availability.append({"property_id": prop, "room_type_id": room, "date_from": first, "date_to": last,
                                 "availability": 3 + (n + r) % 5})
            for k in range(PLANS_PER_ROOM):
                options = [{"occupancy": 1, "rate": "80"}, {"occupancy": 2, "rate": "100", "is_primary": True}]
                body = {"property_id": prop, "room_type_id": room, "title": f"Plan {r}-{k}", "options": options}
                # A third derived: each follows the plan before it in its property (the first plan can't).
                if derived and own_plans and derived_plans < (len(plans) + len(own_plans) + 1) // DERIVED_EVERY:
                    options[1]["derived_option"] = MODIFIERS  # the primary option
                    body.update(DERIVED, parent_rate_plan_id=own_plans[-1])
                    derived_plans += 1
                plan = engine.inventory.rate_plans.create(op, body)["id"]
                own_plans.append(plan)
                base = {"property_id": prop, "rate_plan_id": plan, "date_from": first, "date_to": last}
                restrictions.append({**base, "rate": f"{90 + (7 * n + 13 * r + k) % 150}.00"})
                restrictions.append({**base, "days": ["fr", "sa"], "rate": f"{120 + (3 * n + k) % 90}.00",
                                     "min_stay_arrival": 2})
        plans.extend(own_plans)
        # Three properties in eight can't sell the stays: sold out on a night of each, or stop sell throughout.
        if n % 8 in (1, 5):
            availability.extend({"property_id": prop, "room_type_id": room, "date": night, "availability": 0}
                                for room in own_rooms for night in _nights(today))
        elif n % 8 == 3:
            restrictions.extend({"property_id": prop, "rate_plan_id": plan, "date_from": first, "date_to": last,
                                 "stop_sell": True} for plan in own_plans)
    channel = engine.channels.create(op, {"title": "OpenShopping", "channel": "OpenShopping", "properties": props,
                                          "rate_plans": [{"rate_plan_id": plan} for plan in plans]})["id"]
    for chunk in range(0, len(availability), 5_000):
        engine.inventory.ari.set_availability(op, availability[chunk:chunk + 5_000])
    for chunk in range(0, len(restrictions), 5_000):
        engine.inventory.ari.set_restrictions(op, restrictions[chunk:chunk + 5_000])
    with engine.store.transaction() as conn:
        conn.execute("ANALYZE")
    if engine.store.dialect.name == "sqlite":
        engine.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    counts = {"properties": len(props), "room types": len({v["room_type_id"] for v in availability}),
              "rate plans": len(plans), "derived plans": derived_plans}
    return engine, channel, today, counts


def _nights(today: date) -> list[str]:
    """One night inside each of the measured stays."""
    return sorted({(today + timedelta(days=a + 1)).isoformat() for a in ARRIVALS})


def engine_list(engine: Engine, channel: str, stays: list[tuple[str, str]]) -> Callable[[], int]:
    turn = iter(range(1 << 62))

    def run() -> int:
        checkin, checkout = stays[next(turn) % len(stays)]
        _, meta = engine.shopping.property_list([channel], [("checkin_date", checkin), ("checkout_date", checkout),
                                                            ("filter[is_available]", "true")])
        return meta["total"]

    return run


def raw_read(conn: sqlite3.Connection, channel: str, stays: list[tuple[str, str]]) -> Callable[[], int]:
    restrictions = ("SELECT rate_plan_id, date, rate, min_stay_arrival, min_stay_through, max_stay, closed_to_arrival, "
                    "closed_to_departure, stop_sell FROM restrictions WHERE rate_plan_id IN "
                    "(SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id = ?) AND date >= ? AND date <= ?")
    availability = ("SELECT room_type_id, date, availability FROM availability WHERE room_type_id IN "
                    "(SELECT p.room_type_id FROM rate_plans p JOIN channel_rate_plans c ON c.rate_plan_id = p.id "
                    "WHERE c.channel_id = ?) AND date >= ? AND date <= ?")
    turn = iter(range(1 << 62))

    def run() -> int:
        checkin, checkout = stays[next(turn) % len(stays)]
        return (len(conn.execute(restrictions, (channel, checkin, checkout)).fetchall())
                + len(conn.execute(availability, (channel, checkin, checkout)).fetchall()))

    return run


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        started = time.perf_counter()
        engine, channel, today, counts = build(path, derived=False)
        derived_engine, derived_channel, _, derived_counts = build(Path(folder) / "derived.db", derived=True)
        built = time.perf_counter() - started
        stays = [((today + timedelta(days=a)).isoformat(), (today + timedelta(days=a + NIGHTS)).isoformat())
                 for a in ARRIVALS]
        raw = sqlite3.connect(path)
        candidates = {"engine": engine_list(engine, channel, stays), "raw": raw_read(raw, channel, stays),
                      "derived": engine_list(derived_engine, derived_channel, stays)}
        available = [candidates["engine"]() for _ in stays]
        derived_available = [candidates["derived"]() for _ in stays]
        rows = [candidates["raw"]() for _ in stays]
        print(", ".join(f"{v:,} {k}" for k, v in counts.items() if k != "derived plans") + " on one OpenShopping "
              f"channel; {engine.store.scalar('SELECT count(*) FROM restrictions'):,} restriction rows, "
              f"{engine.store.scalar('SELECT count(*) FROM availability'):,} availability rows; the same with "
              f"{derived_counts['derived plans']:,} plans derived in a database of its own (built in {built:.0f} s)")
        print(f"  {NIGHTS}-night stays from {len(stays)} arrival dates: {min(available)}-{max(available)} properties "
              f"available each ({min(derived_available)}-{max(derived_available)} with derived plans); raw read "
              f"{min(rows):,}-{max(rows):,} rows; {RUNS} interleaved runs")
        figures = measure(candidates, RUNS, warm=5)
        raw.close()
        (engine_ms, engine_cpu), (raw_ms, raw_cpu) = figures["engine"], figures["raw"]
        derived_ms, derived_cpu = figures["derived"]
        print(f"  min CPU: engine {engine_cpu:.1f} ms, raw ARI read {raw_cpu:.1f} ms, "
              f"ratio {engine_cpu / raw_cpu:.1f}x; a third derived {derived_cpu:.1f} ms, {derived_cpu / engine_cpu:.2f}x plain")
        verdict = "within aim" if engine_ms < AIM_MS else "ABOVE AIM"
        print(f"SUMMARY property_list {NIGHTS} nights, filter[is_available]=true ({counts['properties']:,} properties, "
              f"{counts['rate plans']:,} plans): engine p50 {engine_ms:.1f} ms, raw ARI read p50 {raw_ms:.1f} ms, "
              f"ratio {engine_ms / raw_ms:.1f}x (aim < {AIM_MS:.0f} ms: {verdict})")
        derived_ratio = derived_ms / engine_ms
        verdict = "within aim" if derived_ratio <= AIM_DERIVED else "ABOVE AIM"
        print(f"SUMMARY property_list, a third of the plans derived: engine p50 {derived_ms:.1f} ms, "
              f"{derived_ratio:.2f}x plain (aim <= {AIM_DERIVED}x: {verdict})")


if __name__ == "__main__":
    main()
