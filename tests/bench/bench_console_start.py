"""Console cold start with 10,000 properties in the database: from process start to the first page
painted. The console opens on the Inbox; these properties have no chat app, so the inbox is empty and
this measures the start itself (bench_console_inbox.py opens on 10,000 threads).

Figure: the median of 5 cold starts of the real `frontdesk --db PATH` command, in a fresh process
on a pseudo-terminal of 120x40, over the median of 5 cold starts of a floor measured the same way
in the same run: a bare Textual app showing one DataTable of 50 rows (see cold_start.py). Aim: under 1.5 s.

    .venv/bin/python tests/bench/bench_console_start.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from cold_start import frontdesk_against_floor, report

from backend.engine import Engine
from storage import new_id

TOTAL = 10_000
RUNS = 5
AIM_S = 1.5


def build(path: Path) -> None:
    """TOTAL properties: a few made by the engine, the rest copied from them row by row in SQL."""
    engine = Engine.open(path)
    actor = engine.identity.operator()
    templates = [engine.properties.create(actor, {
        "title": title, "currency": "EUR", "property_type": "hotel", "city": "London", "country": "GB",
        "settings": {"cut_off_time": "18:00:00"}, "content": {"description": "A bench property."}})["id"]
        for title in ("Hotel Edelweiss", "Casa do Mar", "Pension Alpenrose", "Riad Yasmine", "Ryokan Hanabi")]
    copies = [(new_id(), f"Property {n:05d}", templates[n % len(templates)]) for n in range(TOTAL - len(templates))]
    with engine.store.transaction() as conn:
        rest = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(properties)") if r[1] not in ("id", "title"))
        conn.executemany(f"INSERT INTO properties (id, title, {rest}) SELECT ?1, ?2, {rest} FROM properties "
                         "WHERE id = ?3", copies)
    engine.store.conn.execute("ANALYZE")
    engine.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        build(db)
        ours, base = frontdesk_against_floor(db, Path(folder), RUNS)
        print(f"{TOTAL:,} properties; cold start to the first painted page, {RUNS} runs each")
        report("console cold start", ours, base, AIM_S)


if __name__ == "__main__":
    main()
