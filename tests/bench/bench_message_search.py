"""The inbox's search over every message (issue 26, 5 of 5, §3): the first page of `filter[search]` over 1,000,000
messages (50,000 threads of 20), on each store, against the floor of the same run: the bare full-text lookup of the
same text (the query the search makes of it: FTS5's MATCH on SQLite, its last word completed from the index's words;
the tsvector's @@ on PostgreSQL), its newest RANKED + 1 messages (the read that tells a search to rank from one
to read newest first), without threads, access, ranking by thread or snippets.

- a rare word (about 10 messages), a word of about 100 messages (both ranked: at most RANKED, 500, matching
  messages), a word of about 10,000 messages and a word every message holds (read newest match first), and the
  start of that word ("break", as typed: on SQLite completed from the index's words, where FTS5's own query of a
  start merges the messages of every word it starts first);
- a rare word and the common one together (ranked: read by the rare word, and on SQLite weighed by it, where
  bm25 counted the common word's every message).

Aim: < 50 ms for the page. The data goes in with one INSERT … SELECT each (a recursive CTE on SQLite,
generate_series on PostgreSQL: a throwaway cluster of Debian's server, tests/postgres_cluster.py); the indexes are
filled by the store's triggers and generated column.

    .venv/bin/python tests/bench/bench_message_search.py [messages] [--stores sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from timing import measure

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from backend.chat.store import RANKED
from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from tests.conftest import CONTACT
from tests.postgres_cluster import Cluster, server_bin

AIM_MS = 50.0
PER_THREAD = 20
SEARCHES = {"a rare word (~10 messages)": "w12345", "a word of ~100 messages": "k1234",
            "a word of ~10,000 messages": "h42", "a word of every message": "breakfast",
            "the start of that word": "break", "a rare word and the common one": "w12345 breakfast"}
# The data, per store: threads, then messages ("Is breakfast included on day 3? Room w…, code k…, hall h…").
THREADS = {
    "sqlite": "INSERT INTO message_threads (id, property_id, channel_id, provider, title, message_count, "
              "unread_count, last_message_received_at, inserted_at, updated_at) WITH RECURSIVE n(i) AS (SELECT 0 "
              "UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT printf('t%07d', i), ?, ?, 'BookingCom', "
              "printf('Guest %05d Smith', i), ?, 0, printf('2026-01-01T00:00:%09.6f', i / 1000.0), "
              "'2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000' FROM n",
    "postgresql": "INSERT INTO message_threads (id, property_id, channel_id, provider, title, message_count, "
                  "unread_count, last_message_received_at, inserted_at, updated_at) SELECT "
                  "'t' || lpad(i::text, 7, '0'), ?, ?, 'BookingCom', 'Guest ' || lpad(i::text, 5, '0') || ' Smith', "
                  "?, 0, '2026-01-01T00:00:00.' || lpad(i::text, 6, '0'), '2026-01-01T00:00:00.000000', "
                  "'2026-01-01T00:00:00.000000' FROM generate_series(0, ?) i",
}
MESSAGES = {
    "sqlite": "INSERT INTO messages (id, thread_id, sender, message, inserted_at, updated_at) WITH RECURSIVE n(i) AS "
              "(SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT printf('m%08d', i), "
              "printf('t%07d', i % ?), 'guest', 'Is breakfast included on day ' || (i % 7) || '? Room w' "
              "|| (i % 100003) || ', code k' || (i % 10007) || ', hall h' || (i % 101) || '.', "
              "'2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000' FROM n",
    "postgresql": "INSERT INTO messages (id, thread_id, sender, message, inserted_at, updated_at) SELECT "
                  "'m' || lpad(i::text, 8, '0'), 't' || lpad((i % ?)::text, 7, '0'), 'guest', "
                  "'Is breakfast included on day ' || (i % 7) || '? Room w' || (i % 100003) || ', code k' "
                  "|| (i % 10007) || ', hall h' || (i % 101) || '.', '2026-01-01T00:00:00.000000', "
                  "'2026-01-01T00:00:00.000000' FROM generate_series(0, ?) i",
}
FLOOR = {"sqlite": "SELECT rowid FROM message_search WHERE message_search MATCH ? ORDER BY rowid DESC LIMIT ?",
         "postgresql": "SELECT id FROM messages WHERE search_words @@ to_tsquery('message_search', ?) "
                       "ORDER BY inserted_at DESC, id DESC LIMIT ?"}


def build(target: str, keys: Path, messages: int) -> Engine:
    engine = Engine.open(target, Config(keys_path=keys))
    operator = engine.identity.operator()
    prop = engine.properties.create(operator, {"title": "Bench", "currency": "EUR", **CONTACT})["id"]
    engine.applications.install(operator, {"property_id": prop, "application_code": "chat"})
    channel = engine.channels.create(operator, {"title": "Booking.com", "channel_code": "BookingCom",
                                                "property_ids": [prop]})["id"]
    threads, dialect = messages // PER_THREAD, engine.store.dialect.name
    with engine.store.transaction() as conn:
        if dialect == "sqlite":
            conn.execute(THREADS[dialect], (threads - 1, prop, channel, PER_THREAD))
            conn.execute(MESSAGES[dialect], (messages - 1, threads))
        else:
            conn.execute(THREADS[dialect], (prop, channel, PER_THREAD, threads - 1))
            conn.execute(MESSAGES[dialect], (threads, messages - 1))
    with engine.store.transaction() as conn:
        conn.execute("ANALYZE")
    return engine


def run(store: str, target: str, keys: Path, messages: int) -> None:
    started = time.perf_counter()
    engine = build(target, keys, messages)
    print(f"{store}: built {messages:,} messages in {time.perf_counter() - started:.0f} s")
    operator = engine.identity.operator()
    candidates, metas = {}, {}
    for name, text in SEARCHES.items():
        query = ListQuery.from_params([("filter[search]", text), ("pagination[limit]", "50")])
        candidates[name] = lambda query=query: len(engine.chat.threads(operator, query)[0])
        candidates[f"floor: {name}"] = lambda text=text: len(engine.store.query(
            FLOOR[store], (engine.chat.full_text_query(text), RANKED + 1)))
        metas[name] = engine.chat.threads(operator, query)[1]
    times = measure(candidates, runs=5, warm=1)
    for name in SEARCHES:
        page, floor, meta = times[name][0], times[f"floor: {name}"][0], metas[name]
        total = f"{meta['total']:,}{'+' if meta.get('total_at_least') else ''}"
        print(f"SUMMARY {store}: first page, {name}: {page:.1f} ms over {messages:,} messages ({meta['order_by']}, "
              f"total {total}); floor {floor:.1f} ms ({page / floor:.1f}x); aim < {AIM_MS:.0f} ms: "
              f"{'within aim' if page < AIM_MS else 'ABOVE AIM'}")
    engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("messages", type=int, nargs="?", default=1_000_000)
    parser.add_argument("--stores", default="sqlite,postgresql")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-search-"))
    for store in args.stores.split(","):
        if store == "sqlite":
            run(store, str(folder / "search.db"), folder / "sqlite.keys", args.messages)
            continue
        if server_bin() is None:
            sys.exit("PostgreSQL needs Debian's server: scripts/install-test-servers")
        cluster = Cluster(server_bin()).start()
        try:
            run(store, cluster.empty("bench"), folder / "postgresql.keys", args.messages)
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
