"""The newest 50 reviews (`GET /api/v1/reviews?pagination[limit]=50`, newest first, with its total) at 100,000
reviews, through the engine against the raw SQL read of the same 50 rows (the floor), on SQLite and PostgreSQL, in
the same run; and the same page at 1,000 reviews, to show it stays flat. Also one property's newest 50 and the
newest 50 unanswered, each against the raw read of its own rows.

Aim: the engine's page within 3x the raw read, and within 2x of itself at 1,000. The reviews are four properties'
on one Booking.com channel: one made through the engine, the rest copies of it in plain SQL with ids, times and
scores of their own, and the kept counts set to match (the engine would take many minutes to take 100,000 in).

    .venv/bin/python tests/bench/bench_reviews_list.py
"""

from __future__ import annotations

import sys
import tempfile
from datetime import datetime, timedelta
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
AIM_RAW, AIM_FLAT = 3.0, 2.0
CHUNK = 5000
PROPERTIES = 4
RAW = ("SELECT r.*, p.title AS property_title FROM reviews r JOIN properties p ON p.id = r.property_id {where}"
       "ORDER BY r.received_at DESC, r.id LIMIT 50")


def build(target: str | Path, count: int, keys: Path) -> tuple[Engine, list[str]]:
    engine = Engine.open(target, Config(keys_path=keys))
    operator = engine.identity.operator()
    props = [engine.properties.create(operator, {"title": f"Bench {n}", "currency": "EUR", **CONTACT})["id"]
             for n in range(PROPERTIES)]
    channel = engine.channels.create(operator, {"title": "Booking.com", "channel_code": "BookingCom",
                                                "property_ids": props})
    adapter = engine.store.one("SELECT * FROM channels WHERE id = ?", (channel["id"],))
    engine.reviews.receive(adapter, {
        "ota_review_id": "R0", "property_id": props[0], "guest_name": "Jane Doe", "overall_score": 9.0,
        "content": "Lovely stay, spotless room and a great breakfast.", "received_at": "2025-01-01T00:00:00Z",
        "scores": [{"category": c, "score": 9} for c in ("clean", "comfort", "location", "staff", "value")]})
    with engine.store.transaction() as conn:
        _copy_reviews(conn, props, count - 1)
    with engine.store.transaction() as conn:
        conn.execute("ANALYZE")  # as autovacuum would after a load this size: PostgreSQL's plans follow statistics
    return engine, props


def _copy_reviews(conn: Connection, props: list[str], count: int) -> None:
    review = dict(conn.execute("SELECT * FROM reviews").fetchone())
    start = datetime(2026, 1, 1)
    for chunk in range(0, count, CHUNK):
        rows = []
        for n in range(chunk, min(count, chunk + CHUNK)):
            at = (start + timedelta(seconds=n)).isoformat(timespec="microseconds")
            rows.append({**review, "id": new_id(), "ota_review_id": f"R{n + 1}", "property_id": props[n % len(props)],
                         "overall_score": float(1 + n % 10), "received_at": at, "inserted_at": at, "updated_at": at})
        columns = list(rows[0])
        conn.executemany(f"INSERT INTO reviews ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                         [tuple(row[c] for c in columns) for row in rows])
    # The kept counts, as the engine would have kept them review by review.
    conn.execute("DELETE FROM review_counts")
    conn.execute("INSERT INTO review_counts (property_id, channel_id, ota, reviews, unreplied, scored, score_total, "
                 "inserted_at, updated_at) SELECT property_id, channel_id, ota, count(*), count(*), count(*), "
                 "CAST(round(sum(overall_score) * 100) AS INTEGER), min(inserted_at), max(updated_at) FROM reviews "
                 "GROUP BY property_id, channel_id, ota")


def _page(*params: tuple[str, str]) -> ListQuery:
    return ListQuery.from_params([*params, ("pagination[limit]", "50")])


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-reviews-"))
    cluster = Cluster(server_bin()).start() if server_bin() else None
    try:
        for store in ("sqlite", "postgresql") if cluster else ("sqlite",):
            times: dict[int, dict[str, tuple[float, float]]] = {}
            for size in SIZES:
                target = folder / f"{size}.db" if store == "sqlite" else cluster.empty(f"r{size}")
                engine, props = build(target, size, folder / f"{store}{size}.keys")
                operator = engine.identity.operator()
                pages = {"newest 50": _page(), "one property's newest 50": _page(("filter[property_id]", props[1])),
                         "newest 50 unanswered": _page(("filter[is_replied]", "false"))}
                raws = {"newest 50": (RAW.format(where=""), []),
                        "one property's newest 50": (RAW.format(where="WHERE r.property_id = ? "), [props[1]]),
                        "newest 50 unanswered": (RAW.format(where="WHERE r.is_replied = 0 "), [])}
                for name, query in pages.items():
                    items = engine.reviews.list(operator, query)[0]
                    assert [r["id"] for r in items] == [r["id"] for r in engine.store.query(*raws[name])], name
                assert engine.reviews.list(operator, pages["newest 50"])[1]["total"] == size
                candidates = {name: (lambda query=query: len(engine.reviews.list(operator, query)[0]))
                              for name, query in pages.items()}
                floors = {f"raw {name}": (lambda sql=sql, params=params: len(engine.store.query(sql, params)))
                          for name, (sql, params) in raws.items()}
                times[size] = measure({**candidates, **floors}, runs=20, warm=3)
                engine.close()
            small, large = times[SIZES[0]], times[SIZES[1]]
            for name in pages:
                raw = large[f"raw {name}"][0]
                over_raw, flat = large[name][0] / raw, large[name][0] / small[name][0]
                near = "within aim" if over_raw <= AIM_RAW else "ABOVE AIM"
                print(f"SUMMARY {store}: {name}: {large[name][0]:.2f} ms at {SIZES[1]:,}, the raw read of its rows "
                      f"{raw:.2f} ms: {over_raw:.2f}x (aim <= {AIM_RAW}x: {near}); "
                      f"{small[name][0]:.2f} ms at {SIZES[0]:,}: {flat:.2f}x "
                      f"(aim <= {AIM_FLAT}x: {'within aim' if flat <= AIM_FLAT else 'ABOVE AIM'})")
    finally:
        if cluster:
            cluster.stop()


if __name__ == "__main__":
    main()
