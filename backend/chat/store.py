"""All SQL on the chat domain's tables: message_threads, messages, attachments, thread_notes, thread_counts (kept by
triggers, only read here), reply_drafts, message_templates and chat_tokens; and the chat's reads of what other domains hold
about a thread (its property, booking, channel, room types and rate plans, hotel policy).

The statements are written in the common dialect of storage/, so each runs unchanged on SQLite and PostgreSQL.
Plain functions taking the connection (or the Store for single reads); the services keep the logic and the
transactions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from backend.chat.search import MARK, joined
from backend.core.listing import Column, ListQuery, Search, order_by, where
from backend.core.store import crowded, estimated_rows, page, rarest_part
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from storage import Connection, Row, Store, placeholders

# --- threads -----------------------------------------------------------------------------------

THREAD_COLUMNS = {
    "id": Column("t.id", "id"), "property_id": Column("t.property_id", "id"), "provider": Column("t.provider", "enum"),
    "is_closed": Column("t.is_closed", "bool"),
    "booking_id": Column("t.booking_id", "id"), "title": Column("t.title"),
    "last_message_received_at": Column("t.last_message_received_at"),
    "assignee_id": Column("t.assignee_id", "id"),
    "is_assigned": Column("(CASE WHEN t.assignee_id IS NULL THEN 0 ELSE 1 END)", "bool"),
}
# The inbox filters thread_counts (kept by triggers) holds a total for: filter field -> its column.
THREAD_COUNT_COLUMNS = {"property_id": "property_id", "provider": "provider", "is_closed": "is_closed"}
# `filter[unread]` as the literal condition of the unread partial index.
UNREAD = {None: "", True: " AND t.unread_count > 0", False: " AND t.unread_count = 0"}
CHAT_APP = ("EXISTS (SELECT 1 FROM application_installations a WHERE a.property_id = t.property_id "
            "AND a.application_code = 'chat')")


# The inbox's search: a thread's title and last message, kept by triggers under a trigram index (storage migration
# 0027: an FTS5 table on SQLite, the thread's own column under pg_trgm's index on PostgreSQL, whose planner chooses
# between that index and the inbox's order by itself). PostgreSQL's own text is an expression no index serves, so
# that a search narrowed to its rarest word (backend/core/store.py `rarest_part`) tests the whole text row by row.
THREAD_SEARCH = {"sqlite": Search("thread_search", "search_text",
                                  member="t.rowid IN (SELECT rowid FROM thread_search WHERE {cond})",
                                  text="(SELECT search_text FROM thread_search s WHERE s.rowid = t.rowid)"),
                 "postgresql": Search("message_threads t", "t.search_text", member="{cond}",
                                      text="(t.search_text || '')")}


# The search over every message (storage migration 0039: FTS5 on SQLite, a tsvector under GIN on PostgreSQL), read
# newest match first and as far as asked (FTS5's rowid order, the order messages were written in; on PostgreSQL
# along the index of migration 0044 on their inserted_at): each matching message of a thread the actor reaches and
# the filters keep, when it was written (`at`) and, on SQLite, its snippet, taken in the same read (each FTS5 query
# costs a look into the index per word, and a start the index's words do not complete, see `completions`, a merge
# of every message of its words: ~30 ms for a word of every one of 1,000,000 messages).
MATCHES = {
    "sqlite": "SELECT s.rowid AS hit, m.inserted_at AS at, m.thread_id, "
              "snippet(message_search, 0, ?, ?, '…', {words}) AS snip "
              "FROM message_search s CROSS JOIN messages m CROSS JOIN message_threads t "
              "WHERE message_search MATCH ? AND m.rowid = s.rowid AND t.id = m.thread_id AND {scope} "
              "ORDER BY s.rowid DESC LIMIT ?",
    "postgresql": "SELECT m.id AS hit, m.inserted_at AS at, m.thread_id, NULL AS snip FROM messages m "
                  "JOIN message_threads t ON t.id = m.thread_id "
                  "WHERE m.search_words @@ to_tsquery('message_search', ?){driven} AND {scope} "
                  "ORDER BY m.inserted_at DESC, m.id DESC LIMIT ?",
}
# A search of words few messages hold and others many do (`rare_words`), on PostgreSQL: found along GIN by the rare
# ones alone, each message they find tested for every word by ts_match_vq (@@ as a function, which no index serves):
# GIN lists every message of each word of a query before it ANDs them (a rare word and 'breakfast':*, a word of
# every one of 1,000,000 messages: 25 ms, against 0.4 ms). FTS5 steps through its words' lists together, skipping.
DRIVEN = " AND ts_match_vq(m.search_words, to_tsquery('message_search', ?))"
# How many messages hold a word: on SQLite counted up to a bound (FTS5 reads the word's list as far as that); on
# PostgreSQL the planner's estimate, from the words ANALYZE lists as most common (0044): a count there may be
# planned as a read of the table in its order that a word it takes for common but no message holds reads whole
# (95 ms of 100,000 messages), and the estimate only chooses what is read, never what is found or how it ranks.
PROBE = {"sqlite": "SELECT count(*) FROM (SELECT 1 FROM message_search WHERE message_search MATCH ? LIMIT ?) found",
         "postgresql": "SELECT 1 FROM messages WHERE search_words @@ to_tsquery('message_search', ?)"}
# And the threads whose title or last message holds the text as typed (the trigram search above, for guests' names
# and parts of words), newest conversation first, placed at their last message: along the inbox's order when many
# threads hold it (a Search's probe, backend/core/store.py `crowded`), so that a read stops at its last row.
TITLE_MATCHES = ("SELECT NULL AS hit, t.last_message_received_at AS at, t.id AS thread_id, NULL AS snip "
                 "FROM message_threads t WHERE {titles} AND {scope} "
                 "ORDER BY t.last_message_received_at {desc}, t.id DESC LIMIT ?")
Match = dict[str, Any]  # a row of either, and whether a message's words matched (`scored`, a title's did not)
# The scores of a search's matching messages (lower is better: bm25's, or ts_rank negated); on SQLite those between
# the oldest and newest of them (FTS5 reads a range of its rowids in one query, a list of them in one each), scored
# by the search's rare words alone when it has common ones (`rare_words`): bm25 weighs a word by the number of
# messages holding it, which FTS5 counts by reading every one of them (45 ms for a word of 1,000,000 messages).
SCORES = {
    "sqlite": "SELECT rowid, rank FROM message_search WHERE message_search MATCH ? AND rowid BETWEEN ? AND ?",
    "postgresql": "SELECT id, -ts_rank(search_words, to_tsquery('message_search', ?)) FROM messages "
                  "WHERE id IN ({hits})",
}
RANKED = 500  # matching messages a search weighs by relevance; past that it reads newest match first
SNIPPET_WORDS = 12
HEADLINES = ("SELECT id, ts_headline('message_search', message, to_tsquery('message_search', ?), "
             f"'StartSel=' || ? || ', StopSel=' || ? || ', MaxWords={SNIPPET_WORDS}, MinWords=4') FROM messages "
             "WHERE id IN ({hits})")
COMPLETIONS = 16  # words of the index a last word typed stands for, at most; past that, FTS5's query of its start


def completions(store: Store, start: str) -> list[str] | None:
    """The words of SQLite's full-text index that `start` starts (itself among them, if it is one), each found by
    one look from the last (its places listed by message_search_words, migration 0044, stopped at the first); None
    when more than COMPLETIONS are (a start of one or two letters: FTS5's query of the start is then the cheaper)."""
    words: list[str] = []
    after = start
    while len(words) <= COMPLETIONS:
        word = store.scalar("SELECT term FROM message_search_words WHERE term >= ? AND term < ? LIMIT 1",
                            (after, start + "\U0010ffff"))
        if word is None:
            return words
        words.append(word)
        after = word + "\x01"  # the first text after the word and every longer one: no word holds a control character
    return None


def threads_page(store: Store, query: ListQuery, property_ids: list[str], unread: bool | None,
                 count: Callable[[], int] | None) -> tuple[list[Row], dict[str, Any]]:
    """A page of the threads of these properties, newest conversation first. The properties are tested row by
    row (`+t.property_id`), so the page is read along the inbox-order index and stops at its last row."""
    return page(store, query, _thread_columns(store), select="t.*, p.title AS property_title",
                source=f"message_threads t {store.dialect.join_in_order} properties p ON p.id = t.property_id",
                scope=_thread_scope(store, property_ids, unread), scope_params=property_ids,
                default_order=f"t.last_message_received_at {store.dialect.order('DESC')}, t.id DESC", count=count)


def _thread_columns(store: Store) -> dict[str, Any]:
    return {**THREAD_COLUMNS, "search": THREAD_SEARCH[store.dialect.name]}


def _thread_scope(store: Store, property_ids: list[str], unread: bool | None) -> str:
    return f"{store.dialect.unindexed('t.property_id')} IN ({placeholders(property_ids)})" + UNREAD[unread]


def rare_words(store: Store, terms: list[str]) -> str | None:
    """The query of the words of a search (`terms`, each one's query of the full-text index) that at most RANKED
    messages hold, when others are held by more; None for one word, or when every word is rare or every one common.
    The rare words decide what is read (see DRIVEN, SCORES): the search is then ranked whatever the others, at most
    RANKED messages holding all its words. The words are probed (PROBE: 0.1-1 ms)."""
    if len(terms) < 2:
        return None
    rare = [term for term, held in zip(terms, _held_by(store, terms)) if held <= RANKED]
    return joined(rare, store.dialect.name) if rare and len(rare) < len(terms) else None


def _held_by(store: Store, terms: list[str]) -> list[int]:
    """How many messages hold each of `terms`, as PROBE tells it: up to RANKED + 1 on SQLite, the planner's guess on
    PostgreSQL. On SQLite a start the index's words do not complete (`"b"*`, more than COMPLETIONS words) is taken
    for common unread: FTS5 would merge the messages of every word it starts to count the first."""
    if store.dialect.name == "postgresql":
        return estimated_rows(store, [(PROBE["postgresql"], [term]) for term in terms])
    return [RANKED + 1 if term.endswith("*") else cast(int, store.scalar(PROBE["sqlite"], (term, RANKED + 1)))
            for term in terms]


def search_page(store: Store, query: ListQuery, property_ids: list[str], unread: bool | None, terms: list[str],
                typed: str) -> tuple[list[Row], dict[str, Any], list[str | None], str]:
    """A page of the threads of these properties with a message holding every word of `terms` (each one's query of
    the full-text index, see backend/chat/search.py), or whose title or last message holds `typed`; its meta, each
    row's snippet (its best message's words around the matches, None for a title's match) and the page's order.

    When the actor's threads (under the filters) hold at most RANKED matching messages, every match is weighed and
    the threads come best match first ("relevance"), then newest match first; a search more common than that is
    read newest match first ("last_match"), only as far as the page and one thread more (weighing every match of a
    word in most messages costs seconds, and bm25 and ts_rank give such a word next to no weight anyway), and its
    total is the threads that read saw but the last, with `total_at_least` (more than that), unless it read every
    match. A search of rare and common words (`rare_words`) is read, and on SQLite scored, by its rare ones."""
    dialect = store.dialect.name
    words, rare = joined(terms, dialect), rare_words(store, terms)
    conditions, params = where(query, _thread_columns(store), store.dialect)
    order_by(query, THREAD_COLUMNS, "", store.dialect)  # an unknown field is a 422; a search keeps its own order
    scope, scoped = _thread_scope(store, property_ids, unread) + conditions, [*property_ids, *params]
    search = THREAD_SEARCH[dialect]
    titles, title_params = _titles(store, search, typed)
    driven = rare is not None and dialect == "postgresql"
    messages = MATCHES[dialect].format(scope=scope, words=SNIPPET_WORDS, driven=DRIVEN if driven else "")
    threads = TITLE_MATCHES.format(titles=titles, scope=scope, desc=store.dialect.order("DESC"))
    head = [*MARK, words] if dialect == "sqlite" else [rare, words] if driven else [words]
    wanted, read = query.offset + query.limit + 1, RANKED + 1
    while True:  # newest first, reading further while the page is not full and matches remain
        hits = [{**row, "scored": True} for row in store.query(messages, [*head, *scoped, read])]
        named = [{**row, "scored": False} for row in store.query(threads, [*title_params, *scoped, read])
                 ] if typed else []
        complete = len(hits) < read and len(named) < read  # every match of both is here
        # Newest first, a message before a title's match of the same time; past `read`, the order is not known.
        found = sorted(hits + named, key=lambda row: (row["at"] or "", row["scored"]), reverse=True)
        found = found if complete else found[:read]
        best: dict[str, Match] = {}  # each thread at its newest match, shown by its newest matching message
        for row in found:
            if row["thread_id"] not in best or row["scored"] and not best[row["thread_id"]]["scored"]:
                best[row["thread_id"]] = row
        if complete or len(best) >= wanted:
            break
        read *= 8
    if complete and len(found) <= RANKED:
        order, mode, total, at_least = _ranked(store, words, rare, found, best), "relevance", len(best), False
    else:
        order, mode, total = list(best), "last_match", len(best) - (not complete)
        at_least = not complete  # more threads than the ones seen but the last
    ids = order[query.offset:query.offset + query.limit]
    rows = {r["id"]: r for r in store.query(
        "SELECT t.*, p.title AS property_title FROM message_threads t JOIN properties p ON p.id = t.property_id "
        f"WHERE t.id IN ({placeholders(ids)})", ids)} if ids else {}
    meta = query.meta(max(total, query.offset + len(ids)), at_least)
    return [rows[i] for i in ids], meta, _snippets(store, words, [best[i] for i in ids]), mode


def _titles(store: Store, search: Search, typed: str) -> tuple[str, list[str]]:
    """The condition on a thread whose title or last message holds `typed`, and its parameters."""
    if not typed:
        return "1 = 0", []
    part = rarest_part(store, search, typed)
    if part:
        return search.narrowed(typed, part, store.dialect)
    condition, param = search.matches(typed, store.dialect, scanned=crowded(store, search, typed))
    return condition, [param]


def _ranked(store: Store, words: str, rare: str | None, found: list[Match], best: dict[str, Match]) -> list[str]:
    """The threads of `found` (every match, newest first) best match first, each by its best message (left in
    `best`); a title's match scores after every message's (0), ties newest first."""
    hits = [row["hit"] for row in found if row["scored"]]
    if not hits:
        scores = {}
    elif store.dialect.name == "sqlite":
        scores = dict(store.tuples(SCORES["sqlite"], (rare or words, min(hits), max(hits))))
    else:
        scores = dict(store.tuples(SCORES["postgresql"].format(hits=placeholders(hits)), [words, *hits]))
    rank: dict[str, tuple[float, int]] = {}
    for n, row in enumerate(found):
        score = scores[row["hit"]] if row["scored"] else 0.0
        if row["thread_id"] not in rank or score < rank[row["thread_id"]][0]:
            rank[row["thread_id"]], best[row["thread_id"]] = (score, n), row
    return sorted(rank, key=rank.__getitem__)


def _snippets(store: Store, words: str, hits: list[Match]) -> list[str | None]:
    """Each hit's snippet: SQLite's came with it; PostgreSQL's headlines are made for the page's messages alone."""
    if store.dialect.name == "sqlite":
        return [row["snip"] for row in hits]
    messages = [row["hit"] for row in hits if row["scored"]]
    lines = dict(store.tuples(HEADLINES.format(hits=placeholders(messages)), [words, *MARK, *messages])
                 ) if messages else {}
    return [lines[row["hit"]] if row["scored"] else None for row in hits]


def thread_count(store: Store, property_ids: list[str], filters: list[tuple[str, list[Any]]],
                 unread: bool | None) -> int:
    """The number of threads from thread_counts; `filters` are (field of THREAD_COUNT_COLUMNS, any of values)."""
    where = [f"property_id IN ({placeholders(property_ids)})"]
    params: list[Any] = list(property_ids)
    for field, values in filters:
        where.append(f"{THREAD_COUNT_COLUMNS[field]} IN ({placeholders(values)})")
        params += values
    if unread is not None:
        where.append("unread = ?")
        params.append(int(unread))
    return cast(int, store.scalar(f"SELECT coalesce(sum(threads), 0) FROM thread_counts WHERE {' AND '.join(where)}", params))


def unread_thread_count(store: Store, property_ids: list[str]) -> int:
    return cast(int, store.scalar(f"SELECT coalesce(sum(threads), 0) FROM thread_counts WHERE unread = 1 AND "
                                  f"property_id IN ({placeholders(property_ids)})", property_ids))


def chat_properties(store: Store, actor: Actor) -> list[Row]:
    """The properties the actor reaches that have the chat app, by title."""
    scope, params = reach_scope(actor, "id")
    return store.query(
        f"SELECT id, title FROM properties WHERE {scope} AND id IN "
        "(SELECT property_id FROM application_installations WHERE application_code = 'chat') ORDER BY title, id",
        params)


def has_chat_app(store: Store, property_id: str) -> bool:
    return bool(store.scalar("SELECT 1 FROM application_installations WHERE property_id = ? "
                             "AND application_code = 'chat'", (property_id,)))


def property_group(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT group_id FROM properties WHERE id = ?", (property_id,)))


def thread_row(store: Store, thread_id: str) -> Row | None:
    """The thread with its property's group_id and title, and whether the property has the chat app (`chat`)."""
    return cast(Row | None, store.one(
        f"SELECT t.*, p.group_id, p.title AS property_title, {CHAT_APP} AS chat "
        "FROM message_threads t JOIN properties p ON p.id = t.property_id WHERE t.id = ?", (thread_id,)))


def thread_with_property(store: Store, thread_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT t.*, p.title AS property_title FROM message_threads t "
                                      "JOIN properties p ON p.id = t.property_id WHERE t.id = ?", (thread_id,)))


def booking_thread(store: Store, booking_id: str) -> Row | None:
    """The booking's thread (id, message_count), if it has one."""
    return cast(Row | None, store.one("SELECT id, message_count FROM message_threads WHERE booking_id = ?", (booking_id,)))


def thread_of_booking(conn: Connection, booking_id: str) -> str | None:
    row = conn.execute("SELECT id FROM message_threads WHERE booking_id = ?", (booking_id,)).fetchone()
    return row[0] if row else None


def channel_thread_property(store: Store, thread_id: str, channel_id: str) -> str | None:
    """The property of the thread, if it is a thread of the channel."""
    return cast(str | None, store.scalar("SELECT property_id FROM message_threads WHERE id = ? AND channel_id = ?",
                                         (thread_id, channel_id)))


def thread_state(conn: Connection, thread_id: str) -> Row:
    """What closing or reopening a thread tells the outbox: property_id, booking_id, is_closed."""
    return cast(Row, conn.execute("SELECT property_id, booking_id, is_closed FROM message_threads WHERE id = ?",
                                  (thread_id,)).fetchone())


def insert_thread(conn: Connection, thread_id: str, property_id: str, channel_id: str, booking_id: str | None,
                  provider: str, title: str, now: str) -> None:
    conn.execute("INSERT INTO message_threads (id, property_id, channel_id, booking_id, provider, title, "
                 "inserted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (thread_id, property_id, channel_id, booking_id, provider, title, now, now))


def mark_thread_read(conn: Connection, thread_id: str) -> None:
    conn.execute("UPDATE message_threads SET unread_count = 0 WHERE id = ?", (thread_id,))


def unanswered_guest_messages(conn: Connection, thread_id: str) -> int:
    """The guest's messages since the property's last reply."""
    return cast(int, conn.execute(
        "SELECT count(*) FROM messages WHERE thread_id = ? AND sender = 'guest' AND inserted_at > coalesce("
        "(SELECT max(inserted_at) FROM messages WHERE thread_id = ? AND sender = 'property'), '')",
        (thread_id, thread_id)).fetchone()[0])


def set_unread_count(conn: Connection, thread_id: str, unread: int) -> None:
    conn.execute("UPDATE message_threads SET unread_count = ? WHERE id = ?", (unread, thread_id))


def unassign_unreached(conn: Connection, user_id: str, now: str) -> None:
    """The user's threads on properties they no longer reach (no group of theirs holds it, nor were they given it
    alone) become nobody's: a colleague withdrawn leaves no conversation waiting on them."""
    conn.execute("UPDATE message_threads SET assignee_id = NULL, updated_at = ? WHERE assignee_id = ? AND property_id "
                 "NOT IN (SELECT gp.property_id FROM group_properties gp JOIN group_members m ON m.group_id = "
                 "gp.group_id WHERE m.user_id = ? UNION ALL SELECT property_id FROM property_users WHERE user_id = ?)",
                 (now, user_id, user_id, user_id))


def unassign_unreaching(conn: Connection, property_id: str, now: str) -> None:
    """The property's threads assigned to users who no longer reach it (a group let it go) become nobody's."""
    conn.execute("UPDATE message_threads SET assignee_id = NULL, updated_at = ? WHERE property_id = ? AND assignee_id "
                 "IS NOT NULL AND assignee_id NOT IN (SELECT m.user_id FROM group_properties gp JOIN group_members m "
                 "ON m.group_id = gp.group_id WHERE gp.property_id = ? UNION ALL SELECT user_id FROM property_users "
                 "WHERE property_id = ?)", (now, property_id, property_id, property_id))


def set_assignee(conn: Connection, thread_id: str, assignee_id: str | None, now: str) -> None:
    conn.execute("UPDATE message_threads SET assignee_id = ?, updated_at = ? WHERE id = ?",
                 (assignee_id, now, thread_id))


def set_closed(conn: Connection, thread_id: str, closed: bool, now: str) -> None:
    conn.execute("UPDATE message_threads SET is_closed = ?, updated_at = ? WHERE id = ?",
                 (int(closed), now, thread_id))


def count_message(conn: Connection, thread_id: str, message_id: str, now: str, *, guest: bool) -> None:
    """A new message on the thread's counters; a guest's is unread and reopens a closed thread."""
    conn.execute("UPDATE message_threads SET message_count = message_count + 1, unread_count = unread_count + ?, "
                 "last_message_id = ?, last_message_received_at = ?, updated_at = ?, "
                 "is_closed = CASE WHEN ? = 1 THEN 0 ELSE is_closed END WHERE id = ?",
                 (int(guest), message_id, now, now, int(guest), thread_id))


# --- messages ----------------------------------------------------------------------------------

MESSAGE_COLUMNS = {"sender": Column("m.sender", "enum"), "inserted_at": Column("m.inserted_at")}
# Whether a message has files: most have none, and then no second query is needed for them.
WITH_FILES = "m.*, EXISTS (SELECT 1 FROM attachments a WHERE a.message_id = m.id) AS has_files"


def messages_page(store: Store, query: ListQuery, thread_id: str,
                  count: Callable[[], int] | None) -> tuple[list[Row], dict[str, Any]]:
    """A page of the thread's messages, newest first, each with `has_files`."""
    return page(store, query, MESSAGE_COLUMNS, select=WITH_FILES, source="messages m", scope="m.thread_id = ?",
                scope_params=[thread_id], default_order="m.inserted_at DESC, m.id DESC", count=count)


def pending_replies_page(store: Store, query: ListQuery, channel_id: str) -> tuple[list[Row], dict[str, Any]]:
    """A page of the property replies on the channel's threads it has not taken yet, oldest first."""
    return page(store, query, {}, select="m.*", source="messages m JOIN message_threads t ON t.id = m.thread_id",
                scope="t.channel_id = ? AND m.delivery = 'pending'", scope_params=[channel_id],
                default_order="m.inserted_at, m.id")


def messages_by_id(store: Store, message_ids: list[str | None]) -> list[Row]:
    return store.query(f"SELECT * FROM messages WHERE id IN ({placeholders(message_ids)})", message_ids)


def rule_titles(store: Store, rule_ids: list[str]) -> dict[str, str]:
    """The titles of the message rules that sent these messages (a rule deleted since leaves its messages none)."""
    return dict(store.tuples(f"SELECT id, title FROM message_rules WHERE id IN ({placeholders(rule_ids)})", rule_ids))


def message_row(conn: Connection, message_id: str) -> Row:
    return cast(Row, conn.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone())


def inquiry_meta(store: Store, thread_id: str) -> str | None:
    """The meta (JSON) of the thread's first system message: an inquiry's, with its booking_details."""
    return cast(str | None, store.scalar("SELECT meta FROM messages WHERE thread_id = ? AND sender = 'system' AND meta IS NOT "
                                         "NULL ORDER BY inserted_at, id LIMIT 1", (thread_id,)))


def insert_message(conn: Connection, message_id: str, thread_id: str, sender: str, text: str, meta: str | None,
                   delivery: str | None, now: str, user_id: str | None = None,
                   api_token_id: str | None = None, message_rule_id: str | None = None) -> None:
    """`user_id` and `api_token_id`: who wrote a property reply, and the API token it came with, if any;
    `message_rule_id`: the rule that sent it (backend/message_rules/)."""
    conn.execute("INSERT INTO messages (id, thread_id, sender, message, meta, delivery, inserted_at, updated_at, "
                 "user_id, api_token_id, message_rule_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (message_id, thread_id, sender, text, meta, delivery, now, now, user_id, api_token_id,
                  message_rule_id))


def channel_reply(store: Store, message_id: str, channel_id: str) -> Row | None:
    """The message (its id, its thread and the thread's property) if it is a property reply on one of the channel's
    threads."""
    return cast(Row | None, store.one(
        "SELECT m.id, m.thread_id, t.property_id FROM messages m JOIN message_threads t ON t.id = m.thread_id "
        "WHERE m.id = ? AND t.channel_id = ? AND m.sender = 'property'", (message_id, channel_id)))


def mark_delivered(conn: Connection, message_id: str, delivered_at: str, now: str) -> None:
    """Delivered: the first delivery's time is kept."""
    conn.execute("UPDATE messages SET delivery = 'delivered', delivered_at = coalesce(delivered_at, ?), "
                 "updated_at = ? WHERE id = ?", (delivered_at, now, message_id))


# --- attachments -------------------------------------------------------------------------------

def insert_attachment(conn: Connection, attachment_id: str, user_id: str | None, channel_id: str | None,
                      session_id: str | None, file_name: str, file_type: str, size: int, sha256: str, data: bytes,
                      now: str) -> None:
    conn.execute("INSERT INTO attachments (id, user_id, channel_id, session_id, file_name, file_type, size, "
                 "sha256, data, inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (attachment_id, user_id, channel_id, session_id, file_name, file_type, size, sha256, data, now))


def attachment_row(store: Store, attachment_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM attachments WHERE id = ?", (attachment_id,)))


def attachment_owner(conn: Connection, attachment_id: str) -> Row | None:
    """Who uploaded it (user_id, channel_id, session_id) and the message_id that took it, if any."""
    return cast(Row | None, conn.execute("SELECT user_id, channel_id, session_id, message_id FROM attachments WHERE id = ?",
                                         (attachment_id,)).fetchone())


def attach(conn: Connection, attachment_id: str, message_id: str) -> bool:
    """Put the upload on the message unless a message took it first; whether it did."""
    return conn.execute("UPDATE attachments SET message_id = ? WHERE id = ? AND message_id IS NULL",
                        (message_id, attachment_id)).rowcount == 1


def delete_unsent_upload(conn: Connection, attachment_id: str, user_id: str) -> int:
    """Delete the user's own upload (not a web chat session's) that no message has taken; the rows deleted."""
    return conn.execute("DELETE FROM attachments WHERE id = ? AND user_id = ? AND session_id IS NULL "
                        "AND message_id IS NULL", (attachment_id, user_id)).rowcount


def message_attachments(store: Store, message_ids: list[str]) -> list[Row]:
    """The attachments of these messages (without their content), in the order they were uploaded."""
    return store.query(f"SELECT id, message_id, file_name, file_type, size, inserted_at FROM attachments "
                       f"WHERE message_id IN ({placeholders(message_ids)}) ORDER BY inserted_at, id", message_ids)


def attachment_content(store: Store, attachment_id: str) -> Row | None:
    """The attachment with its content and the thread of the message it is on (NULL while unsent)."""
    return cast(Row | None, store.one("SELECT a.*, m.thread_id FROM attachments a LEFT JOIN messages m ON m.id = a.message_id "
                                      "WHERE a.id = ?", (attachment_id,)))


# --- thread notes ------------------------------------------------------------------------------

NOTE_COLUMNS = {"inserted_at": Column("n.inserted_at"), "user_id": Column("n.user_id", "id")}


def notes_page(store: Store, query: ListQuery, thread_id: str) -> tuple[list[Row], dict[str, Any]]:
    """A page of the thread's notes with their author's email, newest first (of two written in the same
    microsecond, the later written first)."""
    return page(store, query, NOTE_COLUMNS, select="n.*, u.email AS author_email",
                source="thread_notes n LEFT JOIN users u ON u.id = n.user_id", scope="n.thread_id = ?",
                scope_params=[thread_id], default_order="n.inserted_at DESC, n.rowid DESC")


def note_row(store: Store, note_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT n.*, u.email AS author_email FROM thread_notes n "
                                      "LEFT JOIN users u ON u.id = n.user_id WHERE n.id = ?", (note_id,)))


def note_author(store: Store, note_id: str, thread_id: str) -> Row | None:
    """The note's user_id, if it is a note of this thread."""
    return cast(Row | None, store.one("SELECT user_id FROM thread_notes WHERE id = ? AND thread_id = ?", (note_id, thread_id)))


def insert_note(conn: Connection, note_id: str, thread_id: str, user_id: str, text: str, now: str) -> None:
    conn.execute("INSERT INTO thread_notes (id, thread_id, user_id, note, inserted_at, updated_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (note_id, thread_id, user_id, text, now, now))


def delete_note(conn: Connection, note_id: str) -> None:
    conn.execute("DELETE FROM thread_notes WHERE id = ?", (note_id,))


# --- drafts ------------------------------------------------------------------------------------


def put_draft(conn: Connection, user_id: str, thread_id: str, text: str, kind: str, now: str) -> None:
    conn.execute("INSERT INTO reply_drafts (user_id, thread_id, text, kind, updated_at) VALUES (?, ?, ?, ?, ?) "
                 "ON CONFLICT (user_id, thread_id) DO UPDATE SET text = excluded.text, kind = excluded.kind, "
                 "updated_at = excluded.updated_at", (user_id, thread_id, text, kind, now))


def drop_draft(conn: Connection, user_id: str, thread_id: str, text: str | None = None) -> None:
    """The user's draft of the thread; with `text`, only while it is still that text (a reply sent from it)."""
    if text is None:
        conn.execute("DELETE FROM reply_drafts WHERE user_id = ? AND thread_id = ?", (user_id, thread_id))
    else:
        conn.execute("DELETE FROM reply_drafts WHERE user_id = ? AND thread_id = ? AND text = ?",
                     (user_id, thread_id, text))


MAX_DRAFTS = 500  # read back at the console's start: a bound on what one user's drafts cost


def user_drafts(store: Store, actor: Actor) -> list[Row]:
    """The actor's newest drafts on threads the actor still reaches, with their threads' titles."""
    scope, params = reach_scope(actor, "t.property_id")
    return store.query(
        "SELECT d.thread_id, d.text, d.kind, d.updated_at, t.title "
        f"FROM reply_drafts d JOIN message_threads t ON t.id = d.thread_id WHERE d.user_id = ? AND {scope} "
        "ORDER BY d.updated_at DESC LIMIT ?", [actor.user_id, *params, MAX_DRAFTS])


# --- saved replies (message_templates) ----------------------------------------------------------

TEMPLATE_COLUMNS = {"id": Column("m.id", "id"), "property_id": Column("m.property_id", "id"),
                    "group_id": Column("coalesce(m.group_id, p.group_id)", "id"), "title": Column("m.title")}


def templates_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Row], dict[str, Any]]:
    """A page of the templates of the actor's groups and of the properties they reach, by title."""
    groups = actor.group_list()
    reached, params = reach_scope(actor, "m.property_id")
    return page(store, query, TEMPLATE_COLUMNS, select="m.*",
                source="message_templates m LEFT JOIN properties p ON p.id = m.property_id",
                scope=f"(m.group_id IN ({placeholders(groups)}) OR {reached})", scope_params=[*groups, *params],
                default_order="m.title, m.id")


def template_row(store: Store, template_id: str) -> Row | None:
    """The template with `owner`, the group it is of (its own, or its property's)."""
    return cast(Row | None, store.one("SELECT m.*, coalesce(m.group_id, p.group_id) AS owner FROM message_templates m "
                                      "LEFT JOIN properties p ON p.id = m.property_id WHERE m.id = ?", (template_id,)))


def thread_templates(store: Store, property_id: str, group_id: str) -> list[Row]:
    """The templates of the property and of its group, by title."""
    return store.query("SELECT * FROM message_templates WHERE property_id = ? OR group_id = ? ORDER BY title, id",
                       (property_id, group_id))


def property_group_id(conn: Connection, property_id: str) -> str | None:
    row = conn.execute("SELECT group_id FROM properties WHERE id = ?", (property_id,)).fetchone()
    return row[0] if row else None


def templates_in_group(conn: Connection, group_id: str) -> int:
    """The group's templates and its properties'."""
    return cast(int, conn.execute("SELECT count(*) FROM message_templates m LEFT JOIN properties p ON p.id = m.property_id "
                                  "WHERE m.group_id = ? OR p.group_id = ?", (group_id, group_id)).fetchone()[0])


def insert_template(conn: Connection, template_id: str, group_id: str | None, property_id: str | None, title: str,
                    text: str, user_id: str, now: str) -> None:
    conn.execute("INSERT INTO message_templates (id, group_id, property_id, title, message, user_id, "
                 "inserted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (template_id, group_id, property_id, title, text, user_id, now, now))


def update_template(conn: Connection, template_id: str, group_id: str | None, property_id: str | None, title: str,
                    text: str, now: str) -> None:
    conn.execute("UPDATE message_templates SET group_id = ?, property_id = ?, title = ?, message = ?, "
                 "updated_at = ? WHERE id = ?", (group_id, property_id, title, text, now, template_id))


def delete_template(conn: Connection, template_id: str) -> None:
    conn.execute("DELETE FROM message_templates WHERE id = ?", (template_id,))


# --- web chat tokens (chat_tokens) --------------------------------------------------------------

def delete_expired_chat_tokens(conn: Connection, now: str) -> None:
    conn.execute("DELETE FROM chat_tokens WHERE expires_at <= ?", (now,))


def insert_chat_token(conn: Connection, token_hash: str, token_id: str, kind: str, api_token_id: str,
                      property_id: str, expires_at: str) -> None:
    conn.execute("INSERT INTO chat_tokens (token_hash, id, kind, api_token_id, property_id, expires_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (token_hash, token_id, kind, api_token_id, property_id, expires_at))


def spend_one_time_token(conn: Connection, token_hash: str, now: str) -> Row | None:
    """Mark the one-time token used, if it is unused, unexpired and its API token not revoked; its api_token_id
    and property_id, or None. One statement, so that a token is spent once however many try at once."""
    return cast(Row | None, conn.execute(
        "UPDATE chat_tokens SET used_at = ? WHERE token_hash = ? AND kind = 'one_time' AND used_at IS NULL "
        "AND expires_at > ? AND api_token_id IN (SELECT id FROM api_tokens WHERE revoked_at IS NULL) "
        "RETURNING api_token_id, property_id", (now, token_hash, now)).fetchone())


# --- what other domains hold about a thread (reads) ---------------------------------------------

def property_title(conn: Connection, property_id: str) -> str | None:
    row = conn.execute("SELECT title FROM properties WHERE id = ?", (property_id,)).fetchone()
    return None if row is None else row[0]


def channel_booking(store: Store, booking_id: str, channel_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM bookings WHERE id = ? AND channel_id = ?", (booking_id, channel_id)))


def revision_attributes(conn: Connection, revision_id: str) -> str:
    """A booking revision's attributes (JSON)."""
    return cast(str, conn.execute("SELECT attributes FROM booking_revisions WHERE id = ?", (revision_id,)).fetchone()[0])


def channel_code(conn: Connection, channel_id: str) -> str:
    return cast(str, conn.execute("SELECT channel_code FROM channels WHERE id = ?", (channel_id,)).fetchone()[0])


def is_property_room_type(store: Store, room_type_id: str, property_id: str) -> bool:
    return bool(store.scalar("SELECT 1 FROM room_types WHERE id = ? AND property_id = ?", (room_type_id, property_id)))


def booking_stay(store: Store, booking_id: str, property_id: str) -> Row | None:
    """The booking's unique_id and dates, and its latest revision's attributes (JSON), if it is the property's."""
    return cast(Row | None, store.one("SELECT b.unique_id, b.arrival_date, b.departure_date, r.attributes FROM bookings b "
                                      "JOIN booking_revisions r ON r.id = b.revision_id WHERE b.id = ? AND b.property_id = ?",
                                      (booking_id, property_id)))


def hotel_policy(store: Store, property_id: str) -> str | None:
    """The property's hotel policy (JSON), if it has one."""
    return cast(str | None, store.scalar("SELECT policy FROM hotel_policies WHERE property_id = ?", (property_id,)))


TITLED = ("room_types", "rate_plans")  # the tables `titles_by_id` reads


def titles_by_id(store: Store, table: str, ids: list[str]) -> dict[str, str]:
    """id -> title of these rows of `table` (one of TITLED)."""
    if table not in TITLED:
        raise ValueError(f"no titles read from {table}")
    return {r["id"]: r["title"] for r in store.query(f"SELECT id, title FROM {table} WHERE id IN ({placeholders(ids)})",
                                                     ids)}
