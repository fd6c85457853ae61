"""The kernel's SQL: a page of any collection, built from the list conventions of backend/core/listing.py (every
domain's store lists through it), and the kernel's tables: `keys_fingerprint`, the fingerprint of the keys a
database was made with (backend/core/keys.py), and `changes`, the changes feed (backend/core/changes.py). In the
common dialect of storage/."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from backend.core.events import Change
from backend.core.listing import SEARCH_COUNTED, SEARCH_MAX, TRIGRAM, Columns, ListQuery, Search, order_by, where
from storage import Connection, Reads, Store, utc_now


def keys_fingerprint(store: Store) -> str | None:
    return cast(str | None, store.scalar("SELECT fingerprint FROM keys_fingerprint WHERE id = 1"))


def keep_keys_fingerprint(store: Store, fingerprint: str) -> str:
    """Keep `fingerprint` unless another process kept one first; the one kept."""
    with store.transaction() as conn:
        conn.execute("INSERT INTO keys_fingerprint (id, fingerprint, inserted_at) VALUES (1, ?, ?) "
                     "ON CONFLICT (id) DO NOTHING", (fingerprint, utc_now()))
        return cast(str, conn.execute("SELECT fingerprint FROM keys_fingerprint WHERE id = 1").fetchone()[0])


def insert_change(conn: Connection, change: Change, inserted_at: str) -> None:
    """One row of the changes feed (backend/core/changes.py)."""
    conn.execute("INSERT INTO changes (kind, subject, inserted_at) VALUES (?, ?, ?)",
                 (change.kind, change.subject, inserted_at))


def changes_after(store: Store, seq: int, limit: int) -> list[tuple[int, Change]]:
    """(seq, change) of up to `limit` changes after `seq`, in order."""
    rows = store.query("SELECT seq, kind, subject FROM changes WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))
    return [(at, Change(kind, subject)) for at, kind, subject in rows]


def newest_change(store: Store) -> int:
    return store.scalar("SELECT max(seq) FROM changes") or 0


def prune_changes(conn: Connection, before: str) -> None:
    conn.execute("DELETE FROM changes WHERE inserted_at < ?", (before,))


def page(store: Reads, query: ListQuery, columns: Columns, *, select: str, source: str,
         scope: str, scope_params: list[Any], default_order: str,
         count: Callable[[], int] | None = None) -> tuple[list[Any], dict[str, Any]]:
    """One page of a collection, limited by `scope` to what the actor may see, and its meta. `count`,
    when given, tells the total some cheaper way than counting every matching row."""
    searches = query.searches(columns)
    scanned = frozenset(name for name, search, text in searches if crowded(store, search, text))
    conditions, params = where(query, columns, store.dialect, scanned)
    condition = f" WHERE {scope}{conditions}"
    ordered = order_by(query, columns, default_order, store.dialect)
    rows = store.query(
        f"SELECT {select} FROM {source}{condition} ORDER BY {ordered} LIMIT ? OFFSET ?",
        [*scope_params, *params, query.limit, query.offset])
    # A page that is not full tells the total itself: a filter matching few rows is then read once, not twice.
    if len(rows) < query.limit and (rows or query.offset == 0):
        return rows, query.meta(query.offset + len(rows))
    if count is not None:
        return rows, query.meta(count())
    if searches:  # counted up to a bound, and at least as far as this page
        bound = max(SEARCH_COUNTED, query.offset + len(rows))
        found = store.scalar(f"SELECT count(*) FROM (SELECT 1 FROM {source}{condition} LIMIT ?) found",
                             [*scope_params, *params, bound + 1])
        return rows, query.meta(min(found, bound), at_least=found > bound)
    return rows, query.meta(store.scalar(f"SELECT count(*) FROM {source}{condition}", [*scope_params, *params]))


def crowded(store: Reads, search: Search, text: str) -> bool:
    """Whether more than SEARCH_COUNTED rows of the whole index hold `text`, by a probe that stops there; a text
    too short for the index, or too long to be a search (refused by `where`), is not looked up. PostgreSQL's planner
    makes this choice itself, from the column's statistics (a probe there reads the index's every match); SQLite's
    knows nothing of what an FTS5 table holds."""
    if store.dialect.name == "postgresql":
        return False
    if not TRIGRAM <= len(text) <= SEARCH_MAX:
        return len(text) < TRIGRAM  # no index finds it: reading in order is the cheaper look through every row
    condition, param = search.indexed(text, store.dialect)
    return cast(bool, store.scalar(f"SELECT count(*) FROM (SELECT 1 FROM {search.index} WHERE {condition} LIMIT ?) found",
                                   [param, SEARCH_COUNTED + 1]) > SEARCH_COUNTED)


TRIGRAM_WORD = re.compile(rf"[^\W_]{{{TRIGRAM},}}")  # a run of letters and digits the trigram index finds alone
PROBED_WORDS = 4  # words of a search probed for the rarest: a name and a number, or a few words of a title


def estimated_rows(store: Reads, queries: list[tuple[str, list[Any]]]) -> list[int]:
    """The rows PostgreSQL's planner expects each of `queries` (SQL and its parameters) to find, from its statistics,
    nothing read, in one plan (of them all, UNION ALL): for a choice of what to read that no result depends on."""
    sql = " UNION ALL ".join(sql for sql, _ in queries)
    plan = store.scalar(f"EXPLAIN (FORMAT JSON) {sql}", [param for _, params in queries for param in params])[0]["Plan"]
    return [int(part["Plan Rows"]) for part in (plan["Plans"] if len(queries) > 1 else [plan])]


def rarest_part(store: Reads, search: Search, text: str) -> str | None:
    """On PostgreSQL, the word of `text` the planner expects fewest rows to hold, when `text` has another and it
    expects at most SEARCH_COUNTED: the search is then made along the index by that word alone (`Search.narrowed`).
    pg_trgm's index reads the whole list of rows of each trigram of the text, and a text whose parts are rare but
    one ("Guest " of "Guest 00042", in every thread) cost a read of every row (a search of 100,000 threads 4x one of
    1,000). The planner's estimates (of its sample of the column's values) are asked, not counts: a count of a word
    it takes for common would be planned as a read in the table's order, whole when no row holds the word. SQLite's
    FTS5 reads a phrase's trigrams together, skipping, by itself."""
    if store.dialect.name != "postgresql" or len(text) > SEARCH_MAX:
        return None
    words = list(dict.fromkeys(word.lower() for word in TRIGRAM_WORD.findall(text)))[:PROBED_WORDS]
    if len(words) < 2:
        return None
    conditions = [search.indexed(word, store.dialect) for word in words]
    expected = estimated_rows(store, [(f"SELECT 1 FROM {search.index} WHERE {condition}", [param])
                                      for condition, param in conditions])
    fewest, rarest = min(zip(expected, words))
    return rarest if fewest <= SEARCH_COUNTED else None
