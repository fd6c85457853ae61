"""Inbox reads at scale: 100,000 threads and 1,000,000 messages.

Measures, against the raw SQL read of the same rows in the same run:
- a page of 50 threads with the unread filter and their last messages (engine: access scope, chat-app check,
  the total, property titles, attachments);
- a thread's newest 50 messages (engine: access checks, attachments, count).

The bulk rows go in with plain SQL (the engine would take an hour to write a million messages one by one);
the property, channel, chat app and operator are made through the engine.

    .venv/bin/python tests/bench/bench_chat_lists.py
"""

from __future__ import annotations

import random
import sqlite3
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from timing import measure

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from backend.core.listing import ListQuery
from backend.engine import Engine
from tests.conftest import CONTACT

THREADS = 100_000
MESSAGES_PER_THREAD = 10
PROPERTIES = 20


def chat_portfolio(engine: Engine, count: int) -> tuple[list[str], dict]:
    """`count` properties with the chat app, all on one Booking.com channel: the threads' owners."""
    operator = engine.identity.operator()
    property_ids = []
    for n in range(count):
        prop = engine.properties.create(operator, {"title": f"Bench {n:02d}", "currency": "EUR", **CONTACT})
        engine.applications.install(operator, {"property_id": prop["id"], "application_code": "chat"})
        property_ids.append(prop["id"])
    channel = engine.channels.create(operator, {"title": "Booking.com", "channel_code": "BookingCom",
                                                "property_ids": property_ids})
    return property_ids, channel


def build(path: Path) -> tuple[Engine, str]:
    engine = Engine.open(path)
    property_ids, channel = chat_portfolio(engine, PROPERTIES)
    rng = random.Random(1)
    start = datetime(2026, 1, 1)
    conn = sqlite3.connect(path)
    conn.execute("BEGIN")
    busiest = ""
    for chunk in range(0, THREADS, 5000):
        threads, messages = [], []
        for n in range(chunk, chunk + 5000):
            thread_id = str(uuid.uuid4())
            busiest = busiest or thread_id
            last = start + timedelta(seconds=n * 60)
            ids = [str(uuid.uuid4()) for _ in range(MESSAGES_PER_THREAD)]
            for m, message_id in enumerate(ids):
                at = (last - timedelta(minutes=MESSAGES_PER_THREAD - m)).isoformat(timespec="microseconds")
                sender = "guest" if m % 2 == 0 else "property"
                messages.append((message_id, thread_id, sender, f"message {m} of thread {n}", None,
                                 "delivered" if sender == "property" else None, at, at))
            stamp = last.isoformat(timespec="microseconds")
            threads.append((thread_id, property_ids[n % PROPERTIES], channel["id"], "BookingCom", f"Guest {n}",
                            MESSAGES_PER_THREAD, rng.choice((0, 0, 1, 2)), ids[-1], stamp, stamp, stamp))
        conn.executemany("INSERT INTO message_threads (id, property_id, channel_id, provider, title, message_count, "
                         "unread_count, last_message_id, last_message_received_at, inserted_at, updated_at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", threads)
        conn.executemany("INSERT INTO messages (id, thread_id, sender, message, meta, delivery, inserted_at, updated_at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", messages)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    return engine, busiest


def main() -> None:
    path = Path(tempfile.mkdtemp()) / "chat.db"
    began = time.perf_counter()
    engine, thread_id = build(path)
    print(f"{THREADS:,} threads, {THREADS * MESSAGES_PER_THREAD:,} messages (built in {time.perf_counter() - began:.0f} s)")
    operator = engine.identity.operator()
    raw = sqlite3.connect(path)
    unread = ListQuery.from_params([("filter[unread]", "true"), ("pagination[limit]", "50")])
    newest = ListQuery(limit=50)

    def engine_threads() -> int:
        return len(engine.chat.threads(operator, unread)[0])

    def raw_threads() -> int:
        """The same rows: the page of threads and their last messages."""
        threads = raw.execute("SELECT * FROM message_threads WHERE unread_count > 0 "
                              "ORDER BY last_message_received_at DESC, id DESC LIMIT 50").fetchall()
        last = [t[9] for t in threads]
        raw.execute(f"SELECT * FROM messages WHERE id IN ({','.join('?' * len(last))})", last).fetchall()
        return len(threads)

    def engine_messages() -> int:
        return len(engine.chat.thread_messages(operator, thread_id, newest)[0])

    def raw_messages() -> int:
        return len(raw.execute("SELECT * FROM messages WHERE thread_id = ? ORDER BY inserted_at DESC, id DESC "
                               "LIMIT 50", (thread_id,)).fetchall())

    results = measure({"engine threads": engine_threads, "raw threads": raw_threads,
                       "engine messages": engine_messages, "raw messages": raw_messages}, runs=200, warm=10)
    for what, (engine_name, raw_name) in {"threads, unread, page of 50": ("engine threads", "raw threads"),
                                           "a thread's newest 50 messages": ("engine messages", "raw messages")}.items():
        (e_wall, e_cpu), (r_wall, r_cpu) = results[engine_name], results[raw_name]
        print(f"  min CPU: engine {e_cpu:.2f} ms, raw {r_cpu:.2f} ms")
        print(f"SUMMARY {what}: engine p50 {e_wall:.2f} ms, raw SQL p50 {r_wall:.2f} ms, ratio {e_wall / r_wall:.1f}x "
              f"(aim <= 3x and p50 < 10 ms)")


if __name__ == "__main__":
    main()
