"""SQL of the reviews domain: the tables it owns — reviews, review_counts and review_scores — and its reads of others'
(properties, bookings). In the common dialect of storage/; callers keep their transactions and pass their connection
(or the Store for single reads)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from backend.core.listing import Column, ListQuery
from backend.core.store import page
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from storage import Connection, Row, Store, placeholders

REVIEW_COLUMNS = {
    "id": Column("r.id", "id"), "property_id": Column("r.property_id", "id"),
    "channel_id": Column("r.channel_id", "id"),
    "ota": Column("r.ota", "enum"), "booking_id": Column("r.booking_id", "id"),
    "ota_review_id": Column("r.ota_review_id", "id"), "ota_reservation_id": Column("r.ota_reservation_id", "id"),
    "is_replied": Column("r.is_replied", "bool"), "is_hidden": Column("r.is_hidden", "bool"),
    "overall_score": Column("r.overall_score", "number"), "received_at": Column("r.received_at"),
    "inserted_at": Column("r.inserted_at"), "updated_at": Column("r.updated_at"),
}
# What review_counts holds, and so what a list's total can be summed from.
COUNTED = {"property_id", "channel_id", "ota", "is_replied"}
REVIEW = "r.*, p.title AS property_title"


def review_page(store: Store, query: ListQuery, actor: Actor,
                order: str) -> tuple[list[Row], dict[str, Any]]:
    """One page of the reviews of the properties the actor reaches. The reviews are read first, along the
    newest-first index, each tested against those properties (backend/identity/store.py `reach_scope`; SQLite would
    otherwise start from the properties and sort every review they have): a page of 50 reads some 50 rows at
    100,000 reviews. Filtered only by what review_counts holds, the total is a sum over those counts."""
    scope, params = reach_scope(actor, "p.id")
    return page(store, query, REVIEW_COLUMNS, select=REVIEW,
                source=f"reviews r {store.dialect.join_in_order} properties p ON p.id = r.property_id",
                scope=scope, scope_params=params, default_order=order,
                count=_kept_count(store, query, actor))


def _kept_count(store: Store, query: ListQuery, actor: Actor) -> Callable[[], int] | None:
    """The list's total from review_counts when every filter is one it holds (checked by the page's own conditions
    first, so taken here as given); else None."""
    if any(f.field not in COUNTED or f.op != "eq" for f in query.filters):
        return None
    scope, params = reach_scope(actor, "p.id")
    where, replied = [scope], {True, False}
    for f in query.filters:
        values = f.value.split(",")
        if f.field == "is_replied":
            replied &= {v.lower() in ("true", "1") for v in values}
        else:
            where.append(f"c.{f.field} IN ({placeholders(values)})")
            params += values
    counted = {2: "c.reviews", 0: "0"}.get(len(replied)) or ("c.reviews - c.unreplied" if True in replied
                                                             else "c.unreplied")
    return lambda: store.scalar(f"SELECT coalesce(sum({counted}), 0) FROM review_counts c JOIN properties p "
                                f"ON p.id = c.property_id WHERE {' AND '.join(where)}", params)


def review_row(store: Store, review_id: str) -> Row | None:
    """The review with its property's title and group."""
    return cast(Row | None, store.one(f"SELECT {REVIEW}, p.group_id FROM reviews r JOIN properties p ON p.id = r.property_id "
                                      "WHERE r.id = ?", (review_id,)))


def review_in(conn: Connection, review_id: str) -> Row:
    """The review as the caller's transaction sees it."""
    return cast(Row, conn.execute("SELECT * FROM reviews WHERE id = ?", (review_id,)).fetchone())


def reviews_by_id(store: Store, review_ids: list[str]) -> list[Row]:
    return store.query(f"SELECT {REVIEW} FROM reviews r JOIN properties p ON p.id = r.property_id "
                       f"WHERE r.id IN ({placeholders(review_ids)})", review_ids)


def channel_review(conn: Connection, channel_id: str, ota_review_id: str) -> Row | None:
    return cast(Row | None, conn.execute("SELECT * FROM reviews WHERE channel_id = ? AND ota_review_id = ?",
                                         (channel_id, ota_review_id)).fetchone())


def insert_review(conn: Connection, values: dict[str, Any]) -> bool:
    """The review, unless the channel's review of that id is there already; whether it was new."""
    columns = list(values)
    return conn.execute(f"INSERT INTO reviews ({', '.join(columns)}) VALUES ({placeholders(columns)}) "
                        "ON CONFLICT (channel_id, ota_review_id) DO NOTHING",
                        [values[c] for c in columns]).rowcount == 1


def update_from_channel(conn: Connection, review_id: str, values: dict[str, Any], old_hash: str) -> bool:
    """What the channel now shows of the review, if no one changed it since `old_hash` was read; whether it did."""
    columns = list(values)
    sets = ", ".join(f"{c} = ?" for c in columns)
    return conn.execute(f"UPDATE reviews SET {sets} WHERE id = ? AND body_hash = ?",
                        [*(values[c] for c in columns), review_id, old_hash]).rowcount == 1


def set_reply(conn: Connection, review_id: str, reply: str, user_id: str | None, now: str) -> bool:
    """The property's one reply, waiting for the channel's adapter, if the review takes one now: not answered (or
    its last answer refused by the channel), not hidden, not expired, its channel still there."""
    return conn.execute(
        "UPDATE reviews SET reply = ?, reply_state = 'pending', is_replied = 1, reply_user_id = ?, "
        "reply_scheduled_at = ?, reply_sent_at = NULL, reply_error = NULL, updated_at = ? WHERE id = ? "
        "AND is_replied = 0 AND is_hidden = 0 AND (expired_at IS NULL OR expired_at > ?) AND channel_id IS NOT NULL",
        (reply, user_id, now, now, review_id, now)).rowcount == 1


def set_guest_review(conn: Connection, review_id: str, body: str, now: str) -> bool:
    """The host's one review of the guest, waiting for the channel's adapter, unless one is given (or waits) already,
    the review has expired or its channel is gone."""
    return conn.execute(
        "UPDATE reviews SET guest_review = ?, guest_review_state = 'pending', guest_review_scheduled_at = ?, "
        "guest_review_sent_at = NULL, guest_review_error = NULL, updated_at = ? WHERE id = ? "
        "AND (guest_review_state IS NULL OR guest_review_state = 'failed') "
        "AND (expired_at IS NULL OR expired_at > ?) AND channel_id IS NOT NULL",
        (body, now, now, review_id, now)).rowcount == 1


# --- the adapters' feed ----------------------------------------------------------------------------------------------

KINDS = ("reply", "guest_review")
FEED = " UNION ALL ".join(
    f"SELECT r.id AS review_id, '{kind}' AS kind, r.{kind}_scheduled_at AS scheduled_at FROM reviews r "
    f"WHERE r.channel_id = ? AND r.{kind}_state = 'pending'" for kind in KINDS)


def pending_page(store: Store, query: ListQuery, channel_id: str) -> tuple[list[Row], dict[str, Any]]:
    """A page of the replies and guest reviews waiting for the channel, oldest first: (review_id, kind)."""
    return page(store, query, {}, select="f.review_id, f.kind", source=f"({FEED}) f", scope="1 = 1",
                scope_params=[channel_id] * len(KINDS), default_order="f.scheduled_at, f.review_id, f.kind")


def channel_review_state(store: Store, review_id: str, channel_id: str, kind: str) -> Row | None:
    """(property_id, state) of the review's `kind` (reply, guest_review) if the review is the channel's."""
    return cast(Row | None, store.one(f"SELECT property_id, {kind}_state AS state FROM reviews WHERE id = ? AND channel_id = ?",
                                      (review_id, channel_id)))


def mark_delivered(conn: Connection, review_id: str, kind: str, now: str) -> bool:
    """Delivered, the first delivery's time kept; also after a failure the adapter takes back. Whether it was not
    delivered before."""
    replied = ", is_replied = 1" if kind == "reply" else ""
    return conn.execute(f"UPDATE reviews SET {kind}_state = 'delivered', {kind}_sent_at = coalesce({kind}_sent_at, ?), "
                        f"{kind}_error = NULL, updated_at = ?{replied} WHERE id = ? "
                        f"AND {kind}_state IN ('pending', 'failed')",
                        (now, now, review_id)).rowcount == 1


def mark_failed(conn: Connection, review_id: str, kind: str, error: str, now: str) -> bool:
    """Refused by the channel: a reply no longer counts as one (staff may answer again). Whether it was waiting."""
    replied = ", is_replied = 0" if kind == "reply" else ""
    return conn.execute(f"UPDATE reviews SET {kind}_state = 'failed', {kind}_error = ?, updated_at = ?{replied} "
                        f"WHERE id = ? AND {kind}_state = 'pending'", (error, now, review_id)).rowcount == 1


def reveal(conn: Connection, review_id: str, now: str) -> bool:
    """An Airbnb review shown once the host's review of the guest reached Airbnb; whether it was hidden."""
    return conn.execute("UPDATE reviews SET is_hidden = 0, updated_at = ? WHERE id = ? AND is_hidden = 1",
                        (now, review_id)).rowcount == 1


# --- counts and scores -----------------------------------------------------------------------------------------------

def add_counts(conn: Connection, property_id: str, channel_id: str, ota: str, deltas: tuple[int, int, int, int],
               now: str) -> None:
    """Add (reviews, unreplied, scored, score_total) to the property's counts for the channel."""
    conn.execute("INSERT INTO review_counts AS c (property_id, channel_id, ota, reviews, unreplied, scored, "
                 "score_total, inserted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (property_id, channel_id) DO UPDATE SET reviews = c.reviews + excluded.reviews, "
                 "unreplied = c.unreplied + excluded.unreplied, scored = c.scored + excluded.scored, "
                 "score_total = c.score_total + excluded.score_total, updated_at = excluded.updated_at",
                 (property_id, channel_id, ota, *deltas, now, now))


def add_scores(conn: Connection, property_id: str, channel_id: str, deltas: list[tuple[str, int, int]]) -> None:
    """Add (category, count, total) to the property's category scores for the channel."""
    conn.executemany("INSERT INTO review_scores AS s (property_id, channel_id, category, count, total) "
                     "VALUES (?, ?, ?, ?, ?) ON CONFLICT (property_id, channel_id, category) DO UPDATE SET "
                     "count = s.count + excluded.count, total = s.total + excluded.total",
                     [(property_id, channel_id, *delta) for delta in deltas])


def property_counts(store: Store, property_id: str) -> list[Row]:
    return store.query("SELECT * FROM review_counts WHERE property_id = ? ORDER BY inserted_at, channel_id",
                       (property_id,))


def property_scores(store: Store, property_id: str) -> list[Row]:
    return store.query("SELECT channel_id, category, count, total FROM review_scores WHERE property_id = ? "
                       "AND count > 0 ORDER BY category", (property_id,))


# What set_reply asks of a review, its expiry apart: the terms of the reviews_to_answer index.
ANSWERABLE = "r.is_replied = 0 AND r.is_hidden = 0 AND r.channel_id IS NOT NULL"


def answerable_count(store: Store, actor: Actor, now: str) -> int:
    """How many of the actor's reviews take a reply now. Along the reviews_to_answer index, the expiry's two cases
    counted apart (none, or still to come), each a range of the index: the count reads only the reviews it counts,
    never the expired ones that pile up (an OR of the two read the whole index on PostgreSQL). At 100,000 reviews,
    8,000 of them to answer: SQLite 0.7 ms, PostgreSQL 1.3 ms (vacuumed; 6.6 ms with the OR)."""
    scope, params = reach_scope(actor, "r.property_id")
    counted = f"SELECT count(*) FROM reviews r WHERE {ANSWERABLE} AND {scope} AND r.expired_at"
    return cast(int, store.scalar(f"SELECT ({counted} IS NULL) + ({counted} > ?)", [*params, *params, now]))


# --- others' rows ----------------------------------------------------------------------------------------------------

def reached_properties(store: Store, actor: Actor) -> list[Row]:
    """The properties the actor reaches (id, title), by title: reviews need no application."""
    scope, params = reach_scope(actor, "id")
    return store.query(f"SELECT id, title FROM properties WHERE {scope} ORDER BY title, id", params)


def property_row(store: Store, property_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT id, group_id, title FROM properties WHERE id = ?", (property_id,)))


def channel_booking(store: Store, booking_id: str, channel_id: str) -> Row | None:
    return cast(Row | None, store.one(
        "SELECT id, property_id FROM bookings WHERE id = ? AND channel_id = ?", (booking_id, channel_id)))


def booking_of_reservation(store: Store, channel_id: str, reservation_id: str, property_id: str) -> str | None:
    return cast(str | None, store.scalar(
        "SELECT id FROM bookings WHERE channel_id = ? AND reservation_id = ? AND property_id = ?",
        (channel_id, reservation_id, property_id)))
