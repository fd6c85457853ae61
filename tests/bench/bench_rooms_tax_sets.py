"""Shopping `rooms` with tax sets against without: the property of bench_shopping_rooms.py (20 room types x 10 rate
plans, 7-night stays, 730 days of ARI), in three databases of the same rows, measured in the same run, interleaved:

- plain: no taxes;
- one set: every plan priced with one tax set of three taxes on two levels (a 5.00 fee per booking at level 1,
  10% VAT inclusive and a 2.50 city tax per person per night at level 0);
- own sets: every plan with the same three taxes embedded (`taxes[]`), so 200 sets of their own.

Figure: each taxed p50 over the plain p50 (the floor: the same offers without taxes). Aim: <= 1.25x. The minimum
CPU time of each is printed beside, for noisy machines.

    .venv/bin/python tests/bench/bench_rooms_tax_sets.py
"""

from __future__ import annotations

import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_shopping_rooms import NIGHTS, build_property, engine_rooms
from timing import measure

from backend.engine import Engine

RUNS = 300
AIM = 1.25
EMBEDDED = [{"title": "Cleaning", "mode": "per_booking", "rate": "5.00", "inclusive": False, "type": "fee",
             "level": 1},
            {"title": "VAT", "mode": "percent", "rate": "10", "inclusive": True},
            {"title": "City tax", "mode": "per_person_per_night", "rate": "2.50", "inclusive": False}]


def one_set(engine: Engine, prop: str, plans: list[str]) -> None:
    op = engine.identity.operator()
    members = []
    for tax in EMBEDDED:
        made = engine.inventory.taxes.create(op, {
            "property_id": prop, "title": tax["title"], "logic": tax["mode"], "type": tax.get("type", "tax"),
            "rate": tax["rate"], "is_inclusive": tax["inclusive"],
            **({} if tax["mode"] == "percent" else {"currency": "EUR"})})
        members.append({"id": made["id"], "level": tax.get("level", 0)})
    engine.inventory.tax_sets.create(op, {"title": "Standard", "property_id": prop, "currency": "EUR",
                                          "taxes": members, "associated_rate_plan_ids": plans})


def own_sets(engine: Engine, prop: str, plans: list[str]) -> None:
    op = engine.identity.operator()
    for plan in plans:
        engine.inventory.rate_plans.update(op, plan, {"taxes": EMBEDDED})


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        plain_path = Path(folder) / "plain.db"
        engine = Engine.open(plain_path)
        op = engine.identity.operator()
        today = datetime.now(UTC).date()
        prop, rooms, plans = build_property(engine, op, today, derived=False)
        channel = engine.channels.create(op, {"title": "OpenShopping", "channel": "OpenShopping", "properties": [prop],
                                              "rate_plans": [{"rate_plan_id": p} for p in plans]})["id"]
        engine.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        engines = {"plain": engine}
        for name, add in (("one set", one_set), ("own sets", own_sets)):
            path = Path(folder) / f"{name.replace(' ', '_')}.db"
            shutil.copy(plain_path, path)
            shutil.copy(f"{plain_path}.keys", f"{path}.keys")  # the database's keys go with it
            engines[name] = Engine.open(path)
            add(engines[name], prop, plans)
        for each in engines.values():
            each.store.conn.execute("ANALYZE")
        took = time.perf_counter() - started
        stays = [((today + timedelta(days=30 + k)).isoformat(), (today + timedelta(days=30 + k + NIGHTS)).isoformat())
                 for k in (0, 3, 9, 45, 101, 200)]
        candidates = {name: engine_rooms(each, channel, prop, stays) for name, each in engines.items()}
        offers = {name: [run() for _ in stays] for name, run in candidates.items()}
        assert offers["plain"] == offers["one set"] == offers["own sets"], offers
        sample = engines["one set"].shopping.rooms(channel, prop, {"checkin_date": stays[0][0],
                                                                   "checkout_date": stays[0][1]})
        assert len(sample[0]["rate_plans"][0]["taxes"]) == 3
        print(f"{len(rooms)} room types, {len(plans)} rate plans, {NIGHTS}-night stays from {len(stays)} arrival "
              f"dates, {min(offers['plain'])}-{max(offers['plain'])} offers each, 3 taxes each when taxed "
              f"(built in {took:.1f} s); {RUNS} interleaved runs")
        figures = measure(candidates, RUNS, warm=20)
        plain_ms, plain_cpu = figures["plain"]
        print(f"  plain p50 {plain_ms:.2f} ms (min CPU {plain_cpu:.2f} ms)")
        for name in ("one set", "own sets"):
            taxed_ms, taxed_cpu = figures[name]
            ratio = taxed_ms / plain_ms
            verdict = "within aim" if ratio <= AIM else "ABOVE AIM"
            print(f"SUMMARY rooms with tax sets ({name}): p50 {taxed_ms:.2f} ms, {ratio:.2f}x plain {plain_ms:.2f} ms "
                  f"(min CPU {taxed_cpu / plain_cpu:.2f}x; aim <= {AIM}x: {verdict})")
        for each in engines.values():
            each.close()


if __name__ == "__main__":
    main()
