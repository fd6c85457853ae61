"""SQL on the outbox's tables: events, destinations, deliveries and redeliveries.

The statements are written in the common dialect of storage/, which both SQLite and PostgreSQL run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from storage import Connection, Row, Store, placeholders
from storage.dialect import COMMIT_HORIZON, OUTBOX_NEWS

STAMPED_AT_ONCE = 5000  # events given positions in one stamp; more wait for the next


# --- events ----------------------------------------------------------------------------------------


def insert_event(conn: Connection, event_id: str, event: str, property_id: str | None, channel_id: str | None,
                 payload: str, inserted_at: str) -> None:
    conn.execute("INSERT INTO events (id, event, property_id, channel_id, payload, inserted_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (event_id, event, property_id, channel_id, payload, inserted_at))


def derived_plans(conn: Connection, rate_plan_id: str) -> list[str]:
    """The ids of the rate plans derived from this one."""
    return [row[0] for row in conn.execute("SELECT id FROM rate_plans WHERE parent_rate_plan_id = ?", (rate_plan_id,))]


def head(conn: Connection) -> int:
    """The outbox's head: the last position ever recorded (0 before the first), which stays when events are pruned:
    where cursors may go."""
    if conn.dialect.name == "sqlite":  # AUTOINCREMENT keeps the last sequence issued
        return cast(int, conn.execute(conn.dialect.last_issued("events", "seq")).fetchone()[0])
    return cast(int, conn.execute("SELECT pos FROM outbox_head").fetchone()[0])


def stamp_positions(store: Store) -> int:
    """Give the events whose transactions have ended their positions, in the order those transactions got their
    ids; how many were stamped. PostgreSQL only (SQLite's position is the sequence): an event of a transaction still
    running, and every event after the oldest one of this database still running, waits for the next stamp
    (storage/dialect.py `COMMIT_HORIZON`), so no cursor ever passes an event that commits later. One stamper at a
    time (the scope), beside the writers of every other scope; one NOTIFY when it stamped any (storage/dialect.py
    `OUTBOX_NEWS`)."""
    if store.dialect.name == "sqlite":
        return 0
    with store.transaction("outbox:stamper") as conn:
        return stamp_in(conn)


def stamp_in(conn: Connection) -> int:
    """`stamp_positions` in the caller's transaction, which is the stamper's or an unscoped one."""
    if conn.dialect.name == "sqlite":
        return 0
    stamped = conn.execute(
        "WITH ready AS (SELECT seq, row_number() OVER (ORDER BY xid, seq) AS n FROM events WHERE pos IS NULL "
        f"AND xid < {COMMIT_HORIZON} ORDER BY xid, seq LIMIT ?) "
        "UPDATE events e SET pos = h.pos + ready.n FROM ready, outbox_head h WHERE e.seq = ready.seq",
        (STAMPED_AT_ONCE,)).rowcount
    if stamped:  # and deliverers in other processes hear of them (when this commits) at once
        conn.execute("UPDATE outbox_head SET pos = pos + ?", (stamped,))
        conn.execute("SELECT pg_notify(?, '')", (OUTBOX_NEWS,))
    return stamped


def newest_position(store: Store) -> int:
    """The newest event kept (0 for none)."""
    return store.scalar(f"SELECT max({store.dialect.position}) FROM events") or 0


def events_after(store: Store, position: int, limit: int, property_id: str | None = None) -> list[Row]:
    """Up to `limit` events after `position` (of one property, when given), in order, each with its `pos`."""
    at = store.dialect.position
    of = " AND property_id = ?" if property_id else ""
    return store.query(f"SELECT {_with_pos(at)} FROM events WHERE {at} > ?{of} ORDER BY {at} LIMIT ?",
                       (position, *([property_id] if property_id else []), limit))


def any_event_after(store: Store, position: int) -> bool:
    return store.scalar(f"SELECT 1 FROM events WHERE {store.dialect.position} > ? LIMIT 1", (position,)) is not None


def event_at(store: Store, seq: int) -> Row | None:
    return cast(Row | None, store.one(f"SELECT {_with_pos(store.dialect.position)} FROM events WHERE seq = ?", (seq,)))


def _with_pos(position: str) -> str:
    """Every column of an event and its position as `pos` (a column of its own on PostgreSQL)."""
    return "*" if position == "pos" else f"*, {position} AS pos"


# --- destinations ----------------------------------------------------------------------------------


def insert_destination(conn: Connection, destination_id: str, kind: str, cursor: int) -> None:
    conn.execute("INSERT INTO destinations (id, kind, cursor) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                 (destination_id, kind, cursor))


def delete_destination(conn: Connection, destination_id: str) -> None:
    """The destination, its delivery log and its redeliveries."""
    for table in ("deliveries", "redeliveries"):
        conn.execute(f"DELETE FROM {table} WHERE destination_id = ?", (destination_id,))
    conn.execute("DELETE FROM destinations WHERE id = ?", (destination_id,))


def resume_destination(conn: Connection, destination_id: str) -> None:
    conn.execute("UPDATE destinations SET failing_since = NULL, attempts = 0, next_attempt_at = NULL WHERE id = ?",
                 (destination_id,))


def destination(store: Store, destination_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM destinations WHERE id = ?", (destination_id,)))


def destination_progress(store: Store, destination_id: str) -> Row | None:
    """Its cursor, attempts and failing_since."""
    return cast(Row | None, store.one("SELECT cursor, attempts, failing_since FROM destinations WHERE id = ?", (destination_id,)))


def _scoped(destinations: Mapping[str, str | None]) -> tuple[str, list[Any]]:
    """The destinations as a table `w(id, property_id)` (a CTE), and its parameters."""
    rows = ", ".join("(?, CAST(? AS TEXT))" for _ in destinations)
    return f"WITH w(id, property_id) AS (VALUES {rows}) ", [value for each in destinations.items() for value in each]


def _owed(at: str) -> str:
    """A destination of `w` owed an event after its cursor up to a head: one of its property's when it has one (the
    events_property index), else any."""
    return (f"(d.cursor < ? AND (w.property_id IS NULL OR EXISTS (SELECT 1 FROM events e WHERE "
            f"e.property_id = w.property_id AND e.{at} > d.cursor AND e.{at} <= ?)))")


def due_destinations(store: Store, destinations: dict[str, str | None], now: str, head: int) -> list[str]:
    """Those of `destinations` (each id with the one property whose events it takes, or None) not failing, not
    waiting out a backoff at `now`, and owed an event up to `head` or a redelivery. A webhook is not due for another
    property's event: sixteen webhooks each woke, read and moved their cursor for every write of any property."""
    table, params = _scoped(destinations)
    return [row[0] for row in store.query(
        f"{table}SELECT d.id FROM destinations d JOIN w ON w.id = d.id WHERE d.failing_since IS NULL "
        "AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= ?) "
        f"AND ({_owed(store.dialect.position)} OR EXISTS (SELECT 1 FROM redeliveries r WHERE r.destination_id = d.id))",
        (*params, now, head, head))]


def idle_destinations(store: Store, destinations: dict[str, str | None], head: int) -> list[tuple[str, int]]:
    """Those of `destinations` of one property behind `head` with nothing of it to send: (id, cursor), to be moved
    to `head` now and then, so that pruning never waits on them."""
    scoped = {id_: prop for id_, prop in destinations.items() if prop is not None}
    if not scoped:
        return []
    table, params = _scoped(scoped)
    return [(row[0], row[1]) for row in store.query(
        f"{table}SELECT d.id, d.cursor FROM destinations d JOIN w ON w.id = d.id WHERE d.cursor < ? "
        f"AND NOT {_owed(store.dialect.position)}", (*params, head, head, head))]


def delivered_up_to(conn: Connection, destination_id: str, cursor: int, to: int, now: str) -> int:
    """The cursor moves from `cursor` to `to`, its failures forgotten; 1 if it was still at `cursor`, else 0."""
    return conn.execute("UPDATE destinations SET cursor = ?, attempts = 0, next_attempt_at = NULL, "
                        "last_error = NULL, last_delivered_at = ? WHERE id = ? AND cursor = ?",
                        (to, now, destination_id, cursor)).rowcount


def advance_cursor(conn: Connection, destination_id: str, cursor: int, to: int) -> None:
    """The cursor moves from `cursor` to `to`, if it is still at `cursor`."""
    conn.execute("UPDATE destinations SET cursor = ? WHERE id = ? AND cursor = ?", (to, destination_id, cursor))


def count_failure(conn: Connection, destination_id: str, cursor: int, attempts: int, *, attempt: int,
                  retry_at: str | None, error: str, gives_up: bool, now: str) -> int:
    """Another failed attempt, if the destination is still at `cursor` after `attempts`; failing since `now` when it
    gives up. 1 if it was counted, else 0."""
    return conn.execute("UPDATE destinations SET attempts = ?, next_attempt_at = ?, last_error = ?, "
                        "failing_since = CASE WHEN ? = 1 THEN ? ELSE failing_since END "
                        "WHERE id = ? AND cursor = ? AND attempts = ?",
                        (attempt, retry_at, error, int(gives_up), now, destination_id, cursor, attempts)).rowcount


def ack_cursor(conn: Connection, destination_id: str, kind: str, cursor: int, now: str) -> int:
    """A pull destination's cursor moves up to `cursor`, never back (its row made if it had none); where it is now."""
    return cast(int, conn.execute(
        "INSERT INTO destinations AS d (id, kind, cursor, last_delivered_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO "
        "UPDATE SET last_delivered_at = CASE WHEN excluded.cursor > d.cursor THEN excluded.last_delivered_at "
        "ELSE d.last_delivered_at END, cursor = CASE WHEN excluded.cursor > d.cursor THEN excluded.cursor "
        "ELSE d.cursor END RETURNING cursor",
        (destination_id, kind, cursor, now)).fetchone()[0])


# --- deliveries and redeliveries -------------------------------------------------------------------


def upsert_deliveries(conn: Connection, rows: list[tuple[Any, ...]]) -> None:
    """Each (id, destination_id, event_seq, status, attempts, response_status, last_error, next_retry_at,
    updated_at, warnings): the log of an event sent to a destination, replacing what it said before."""
    conn.executemany(
        "INSERT INTO deliveries (id, destination_id, event_seq, status, attempts, response_status, last_error, "
        "next_retry_at, updated_at, warnings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(destination_id, event_seq) DO UPDATE SET status = excluded.status, attempts = "
        "excluded.attempts, response_status = excluded.response_status, last_error = excluded.last_error, "
        "next_retry_at = excluded.next_retry_at, updated_at = excluded.updated_at, warnings = excluded.warnings",
        rows)


def delivery_attempts(conn: Connection, destination_id: str, event_seq: int) -> int | None:
    """The attempts logged at the event for the destination; None when none is logged."""
    row = conn.execute("SELECT attempts FROM deliveries WHERE destination_id = ? AND event_seq = ?",
                       (destination_id, event_seq)).fetchone()
    return row[0] if row else None


def insert_redelivery(conn: Connection, destination_id: str, event_seq: int) -> None:
    conn.execute("INSERT INTO redeliveries (destination_id, event_seq) VALUES (?, ?) ON CONFLICT DO NOTHING",
                 (destination_id, event_seq))


def redelivered_seqs(store: Store, destination_id: str) -> list[int]:
    """The events asked for again of the destination, in order."""
    return [row[0] for row in store.query(
        "SELECT event_seq FROM redeliveries WHERE destination_id = ? ORDER BY event_seq", (destination_id,))]


def delete_redelivery(conn: Connection, destination_id: str, event_seq: int) -> None:
    conn.execute("DELETE FROM redeliveries WHERE destination_id = ? AND event_seq = ?", (destination_id, event_seq))


# --- housekeeping ----------------------------------------------------------------------------------


def passed_position(conn: Connection) -> int:
    """The position every destination has passed (the newest, when there is no destination; 0 for none)."""
    at = conn.dialect.position
    return conn.execute(f"SELECT coalesce(min(cursor), (SELECT max({at}) FROM events)) FROM destinations"
                        ).fetchone()[0] or 0


def prune_events(conn: Connection, passed: int, retained_since: str, owed_since: str) -> None:
    """Events up to `passed` before `retained_since`, and any before `owed_since`; not those asked for again."""
    conn.execute(f"DELETE FROM events WHERE (({conn.dialect.position} <= ? AND inserted_at < ?) OR inserted_at < ?) "
                 "AND seq NOT IN (SELECT event_seq FROM redeliveries)", (passed, retained_since, owed_since))


def prune_deliveries(conn: Connection, since: str) -> None:
    conn.execute("DELETE FROM deliveries WHERE updated_at < ?", (since,))



# --- the changes feed (backend/outbox/changes.py; written by backend/core/changes.py) ----------------


def event_names_after(store: Store, position: int, limit: int, told: tuple[str, ...]) -> list[Row]:
    """(position, event name, payload) of up to `limit` events after `position`, in order; the payload of the events
    named in `told` alone (None for the others', which may be large, as ARI's)."""
    at = store.dialect.position
    return store.query(f"SELECT {at}, event, CASE WHEN event IN ({placeholders(told)}) THEN payload END FROM events "
                       f"WHERE {at} > ? ORDER BY {at} LIMIT ?", (*told, position, limit))
