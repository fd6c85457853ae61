"""Shopping `property_list` at 1,000 and 20,000 properties on one channel, on SQLite and (when Debian's PostgreSQL
is installed) PostgreSQL: with a 3-night stay and `filter[is_available]=true`, answered from the sellable index
(backend/inventory/sellable.py), and the plain first page (no dates).

Figures: each one's p50 at both sizes and the ratio of 20,000 to 1,000 (aims: the stay under 100 ms at 20,000; the
plain first page within 2x of its time at 1,000). The channel written back whole (every property and plan, as a
client PUTs what it read: no cap, its checks read them in chunks) is timed once at each size. The computed way
(every mapped plan of every property priced, as the list answers children's ages and stays beyond 30 nights) is
run once at each size, beside, and must find the same properties.

The portfolio is that of bench_property_list.py: per property 1-3 room types with 2 rate plans each, 45 days of ARI,
three properties in eight unable to sell the stays (a sold-out night, or stop sell). Fifty properties are made
through the engine (bench_property_list.py's `build`); the rest are plain SQL copies of them (new ids, their titles
numbered), and the index is then built by the engine's own `sellable.rebuild`.

    .venv/bin/python tests/bench/bench_property_list_scale.py
    SIZES=100,1000 .venv/bin/python tests/bench/bench_property_list_scale.py   # a quick run at other sizes
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_property_list import build
from timing import measure

from backend.engine import Engine
from backend.inventory import sellable
from backend.shopping.stay_query import parse_stay
from tests.postgres_cluster import Cluster, server_bin

BASE = 50  # properties made through the engine
SIZES = tuple(int(s) for s in os.environ.get("SIZES", "1000,20000").split(","))
ARI_DAYS = 45
NIGHTS = 3
ARRIVALS = (10, 11, 17, 24)  # days from today
RUNS = 30
AIM_MS = 100.0
AIM_PAGE = 2.0
# What each copied table's key columns become in copy n: the id with "#n" after it (a NULL parent stays NULL).
COPIED = {"properties": ("id",), "room_types": ("id", "property_id"),
          "rate_plans": ("id", "property_id", "room_type_id", "parent_rate_plan_id"),
          "availability": ("room_type_id",), "restrictions": ("rate_plan_id",),
          "channel_properties": ("property_id",), "channel_rate_plans": ("id", "rate_plan_id")}


def grow(engine: Engine, copies: range) -> float:
    """Copies of the BASE properties (numbered from copies.start), by SQL; then the index rebuilt by the engine.
    Seconds the rebuild took."""
    last = copies.stop - 1
    numbers = f"WITH RECURSIVE k(n) AS (SELECT {copies.start} UNION ALL SELECT n + 1 FROM k WHERE n < {last})"
    with engine.store.transaction() as conn:
        for table, keys in COPIED.items():
            columns = [c for c in engine.store.one(f"SELECT * FROM {table} LIMIT 1").keys() if c != "rowid"]
            suffix = "'#' || CAST(k.n AS TEXT)"
            values = [f"t.{c} || {suffix}" if c in keys else
                      "t.title || ' ' || CAST(k.n AS TEXT)" if (table, c) == ("properties", "title") else f"t.{c}"
                      for c in columns]
            base = ("t.property_id IN (SELECT id FROM properties WHERE id NOT LIKE '%#%')" if "property_id" in columns
                    else "t.id NOT LIKE '%#%'" if table == "properties" else
                    f"t.{keys[0]} NOT LIKE '%#%'")
            conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) {numbers} SELECT {', '.join(values)} "
                         f"FROM {table} t CROSS JOIN k WHERE {base}")
    started = time.perf_counter()
    with engine.store.transaction():
        sellable.rebuild(engine.store)
    rebuilt = time.perf_counter() - started
    engine.store.conn.execute("ANALYZE")
    return rebuilt


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-property-list-"))
    cluster = Cluster(server_bin()).start() if server_bin() else None
    today = datetime.now(UTC).date()
    stays = [((today + timedelta(days=a)).isoformat(), (today + timedelta(days=a + NIGHTS)).isoformat())
             for a in ARRIVALS]
    try:
        for store in ("sqlite", "postgresql") if cluster else ("sqlite",):
            target = folder / "bench.db" if store == "sqlite" else cluster.empty("bench")
            started = time.perf_counter()
            engine, channel, _, _ = build(target, False, properties=BASE, days=ARI_DAYS, keys=folder / f"{store}.keys")
            operator = engine.identity.operator()
            built, copied = time.perf_counter() - started, 1
            turn = iter(range(1 << 62))

            def indexed() -> int:
                checkin, checkout = stays[next(turn) % len(stays)]
                return engine.shopping.property_list([channel], [("checkin_date", checkin), ("checkout_date", checkout),
                                                                 ("filter[is_available]", "true")])[1]["total"]

            def first_page() -> int:
                return len(engine.shopping.property_list([channel], [])[0])

            figures = {}
            for size in SIZES:
                rebuilt = grow(engine, range(copied, size // BASE))
                copied = size // BASE
                assert engine.store.scalar("SELECT count(*) FROM properties WHERE id IN (SELECT property_id FROM "
                                           "channel_properties WHERE channel_id = ?)", (channel,)) == size
                checkin, checkout = stays[0]
                started = time.perf_counter()
                computed = engine.shopping.best_offers([channel], parse_stay([("checkin_date", checkin),
                                                                              ("checkout_date", checkout)]), None)
                computed_ms = (time.perf_counter() - started) * 1000
                turn = iter(range(1 << 62))
                assert indexed() == len(computed), (indexed, len(computed))
                turn = iter(range(1 << 62))
                rows = engine.store.scalar("SELECT count(*) FROM sellable_nights")
                whole = engine.channels.get(operator, channel)  # the channel written back whole, as a PUT does
                started = time.perf_counter()
                engine.channels.update(operator, channel, {"properties": whole["properties"],
                                                           "rate_plans": whole["rate_plans"]})
                written_ms = (time.perf_counter() - started) * 1000
                figures[size] = measure({"indexed": indexed, "page": first_page}, RUNS, warm=3)
                print(f"{store} {size:,} properties: {rows:,} index rows, rebuilt in {rebuilt:.1f} s; "
                      f"{len(computed):,} sell the first stay; computed way once: {computed_ms:,.0f} ms; "
                      f"indexed p50 {figures[size]['indexed'][0]:.1f} ms (min CPU {figures[size]['indexed'][1]:.1f}), "
                      f"first page p50 {figures[size]['page'][0]:.2f} ms (min CPU {figures[size]['page'][1]:.2f}); "
                      f"the channel ({len(whole['rate_plans']):,} plans) written back whole once: {written_ms:,.0f} ms")
            small, large = figures[SIZES[0]], figures[SIZES[1]]
            ratio = large["indexed"][0] / small["indexed"][0]
            print(f"SUMMARY {store} property_list {NIGHTS} nights, filter[is_available]=true: "
                  f"{small['indexed'][0]:.1f} ms at {SIZES[0]:,}, {large['indexed'][0]:.1f} ms at {SIZES[1]:,} "
                  f"({ratio:.2f}x; aim < {AIM_MS:.0f} ms at {SIZES[1]:,}: "
                  f"{'within aim' if large['indexed'][0] < AIM_MS else 'ABOVE AIM'}; engine build {built:.0f} s)")
            ratio = large["page"][0] / small["page"][0]
            print(f"SUMMARY {store} property_list first page, no dates: {small['page'][0]:.2f} ms at {SIZES[0]:,}, "
                  f"{large['page'][0]:.2f} ms at {SIZES[1]:,} ({ratio:.2f}x; aim <= {AIM_PAGE}x: "
                  f"{'within aim' if ratio <= AIM_PAGE else 'ABOVE AIM'})")
            engine.close()
    finally:
        if cluster:
            cluster.stop()
        shutil.rmtree(folder)  # databases of a few GB


if __name__ == "__main__":
    main()
