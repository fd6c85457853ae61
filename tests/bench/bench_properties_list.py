"""List properties with a title filter, 10,000 properties in the database, a page of 10.

Figure: the engine's p50 (`engine.properties.list`) over the p50 of the raw SQL read of the same ten
rows with sqlite3, both measured here, warm, interleaved. Aim: ≤ 3×. Three filters: a tenth of the
rows, two pages' worth, and fewer than a page. The engine also counts every match for `meta.total`,
which the raw read of one page does not; the count's own p50 is printed beside, so that what the
engine adds over "read + count" can be told apart from what the contract itself costs.

    .venv/bin/python tests/bench/bench_properties_list.py
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from backend.core.listing import Filter, ListQuery
from backend.engine import Engine
from backend.identity.models import Actor
from backend.properties.facilities import facility_id
from storage import new_id, placeholders

TOTAL = 10_000
RUNS = 500
AIM = 3.0
# Ten templates, copied with a serial: "Alpenrose" is in a tenth of the titles, "123" in 20, "Krone 99" in 9.
TEMPLATES = ["Hotel Edelweiss", "Chalet Les Aiguilles", "Pension Alpenrose", "Casa do Mar", "Harbour Lights",
             "Riad Yasmine", "Ryokan Hanabi", "Northern Lights Hostel", "Villa Oleandro", "Gasthof Krone"]
FILTERS = {"a tenth of the rows": "Alpenrose", "two pages": "123", "under a page": "Krone 99"}


def build(path: Path) -> tuple[Engine, Actor]:
    """TOTAL properties of one user: the templates made by the engine, then copied row by row in SQL."""
    engine = Engine.open(path)
    actor, _ = engine.identity.add_user("bench@example.com")
    templates = [engine.properties.create(actor, _template(title))["id"] for title in TEMPLATES]
    copies = [(new_id(), f"{TEMPLATES[i % len(TEMPLATES)]} {i:04d}", templates[i % len(TEMPLATES)])
              for i in range(TOTAL - len(TEMPLATES))]
    with engine.store.transaction() as conn:
        rest = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(properties)") if r[1] not in ("id", "title"))
        conn.executemany(f"INSERT INTO properties (id, title, {rest}) SELECT ?1, ?2, {rest} FROM properties "
                         "WHERE id = ?3", copies)
        conn.executemany("INSERT INTO property_facilities SELECT ?1, facility_id, position FROM property_facilities "
                         "WHERE property_id = ?2", [(copy_id, template_id) for copy_id, _, template_id in copies])
        photos: dict[str, list[tuple]] = {}  # each template's photos, rows of the photo store
        for row in conn.execute("SELECT property_id, url, kind, position, inserted_at FROM photos"):
            photos.setdefault(row[0], []).append(tuple(row)[1:])
        conn.executemany("INSERT INTO photos (id, property_id, url, kind, position, inserted_at, updated_at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(new_id(), copy_id, url, kind, position, at, at) for copy_id, _, template_id in copies
                          for url, kind, position, at in photos[template_id]])
    # Steady state of a long-lived database: statistics gathered, the bulk insert moved out of the WAL.
    engine.store.conn.execute("ANALYZE")
    engine.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return engine, actor


def _template(title: str) -> dict:
    return {"title": title, "currency": "EUR", "property_type": "hotel", "email": "desk@example.com",
            "phone": "+44 20 7946 0000", "zip_code": "EC1A 1BB", "country": "GB", "state": "England",
            "city": "London", "address": "1 Example Street", "longitude": "-0.1278", "latitude": "51.5074",
            "timezone": "Europe/London", "facilities": [facility_id(f) for f in ("Free WiFi", "Breakfast", "Bar")],
            "settings": {"min_price": "80", "max_price": "900", "cut_off_time": "18:00:00"},
            "content": {"description": "A bench property. " * 10,
                        "photos": [{"url": f"https://example.com/{n}.jpg", "kind": "photo"} for n in range(3)]}}


def engine_list(engine: Engine, actor: Actor, text: str) -> Callable[[], int]:
    query = ListQuery(filters=[Filter("title", "has", text)])
    return lambda: len(engine.properties.list(actor, query)[0])


def raw_read(conn: sqlite3.Connection, actor: Actor, text: str) -> Callable[[], int]:
    groups = actor.group_list()
    marks = placeholders(groups)
    sql = f"SELECT * FROM properties WHERE group_id IN ({marks}) AND title LIKE ? ORDER BY title LIMIT 10"
    return lambda: len(conn.execute(sql, [*groups, f"%{text}%"]).fetchall())


def raw_count(conn: sqlite3.Connection, actor: Actor, text: str) -> Callable[[], int]:
    groups = actor.group_list()
    marks = placeholders(groups)
    sql = f"SELECT count(*) FROM properties WHERE group_id IN ({marks}) AND title LIKE ?"
    return lambda: conn.execute(sql, [*groups, f"%{text}%"]).fetchone()[0]


def p50s(candidates: dict[str, Callable[[], int]], runs: int) -> dict[str, float]:
    """Median milliseconds of each, run in turn so that drift of the machine hits all of them alike."""
    for run in candidates.values():  # warm: statements prepared, pages cached
        for _ in range(20):
            run()
    samples: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(runs):
        for name, run in candidates.items():
            start = time.perf_counter()
            run()
            samples[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        engine, actor = build(path)
        raw = sqlite3.connect(path)
        print(f"{engine.store.scalar('SELECT count(*) FROM properties')} properties; p50 of {RUNS} runs, page of 10")
        ratios, contract_ratios = [], []
        for label, text in FILTERS.items():
            candidates = {"engine": engine_list(engine, actor, text), "raw": raw_read(raw, actor, text),
                          "count": raw_count(raw, actor, text)}
            rows = candidates["count"]()
            assert candidates["engine"]() == candidates["raw"]() == min(rows, 10)
            ms = p50s(candidates, RUNS)
            ratios.append(ms["engine"] / ms["raw"])
            contract_ratios.append(ms["engine"] / (ms["raw"] + ms["count"]))
            print(f"  title has {text!r} ({label}, {rows} rows): engine {ms['engine']:.3f} ms, raw read "
                  f"{ms['raw']:.3f} ms, ratio {ratios[-1]:.2f}x; raw count {ms['count']:.3f} ms, "
                  f"engine over read + count {contract_ratios[-1]:.2f}x")
        raw.close()
        verdict = "within aim" if max(ratios) <= AIM else "ABOVE AIM"
        print(f"SUMMARY properties list ({TOTAL:,} rows, title filter, page of 10): engine/raw-read ratio "
              f"worst {max(ratios):.2f}x, best {min(ratios):.2f}x (aim <= {AIM:.0f}x: {verdict}); "
              f"engine/(raw read + count) worst {max(contract_ratios):.2f}x")


if __name__ == "__main__":
    main()
