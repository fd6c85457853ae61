"""SQL of the distribution: its table ari_windows, and the reads of channels, rate plans and properties it
sends ARI from.

The statements are written in the common dialect of storage/, which both SQLite and PostgreSQL run.
"""

from __future__ import annotations

from typing import cast

from storage import Connection, Row, Store, placeholders

CHUNK = 500  # plans looked up by one query: SQLite bounds a statement's parameters


# --- ari_windows -----------------------------------------------------------------------------------


def keep_window(conn: Connection, property_id: str, opens: str, ends: str, now: str) -> None:
    conn.execute("INSERT INTO ari_windows (property_id, opens, ends, updated_at) VALUES (?, ?, ?, ?) "
                 "ON CONFLICT(property_id) DO UPDATE SET opens = excluded.opens, ends = excluded.ends, "
                 "updated_at = excluded.updated_at", (property_id, opens, ends, now))


def kept_window(conn: Connection, property_id: str) -> Row | None:
    """The window the property's channels were last told of (opens, ends)."""
    return cast(Row | None, conn.execute("SELECT opens, ends FROM ari_windows WHERE property_id = ?", (property_id,)).fetchone())


def told_windows(store: Store) -> list[Row]:
    """Every property (id, timezone, settings) with the window its channels were last told of (opens, ends; NULL
    when none is kept)."""
    return store.query("SELECT p.id, p.timezone, p.settings, w.opens, w.ends FROM properties p "
                       "LEFT JOIN ari_windows w ON w.property_id = p.id")


# --- properties, rate plans, channels (read) -------------------------------------------------------


def property_row(conn: Connection, property_id: str) -> Row | None:
    return cast(Row | None, conn.execute("SELECT * FROM properties WHERE id = ?", (property_id,)).fetchone())


def properties_in(conn: Connection, property_ids: list[str]) -> list[Row]:
    return conn.execute(f"SELECT * FROM properties WHERE id IN ({placeholders(property_ids)})",
                        property_ids).fetchall()


def distributed_plans(conn: Connection, property_id: str) -> list[Row]:
    """The property's rate plans (id, room_type_id) mapped to a channel that takes ARI (a destination of kind
    `channel`), by room type."""
    return conn.execute("SELECT DISTINCT p.id, p.room_type_id FROM rate_plans p JOIN channel_rate_plans m "
                        "ON m.rate_plan_id = p.id JOIN destinations d ON d.id = m.channel_id AND d.kind = 'channel' "
                        "WHERE p.property_id = ? ORDER BY p.room_type_id, p.id", (property_id,)).fetchall()


def channel_mappings(conn: Connection, channel_id: str) -> list[Row]:
    """The channel's mappings in the order they were made: rate_plan_id, settings, property_id, room_type_id."""
    return conn.execute("SELECT m.rate_plan_id, m.settings, p.property_id, p.room_type_id FROM channel_rate_plans m "
                        "JOIN rate_plans p ON p.id = m.rate_plan_id WHERE m.channel_id = ? ORDER BY m.rowid",
                        (channel_id,)).fetchall()


def mapped_channel(store: Store, channel_id: str) -> Row | None:
    """The channel's id, title, settings and updated_at."""
    return cast(Row | None, store.one("SELECT id, title, settings, updated_at FROM channels WHERE id = ?", (channel_id,)))


def channel_settings(conn: Connection, channel_id: str) -> str | None:
    """The channel's settings (JSON); None when it is gone."""
    row = conn.execute("SELECT settings FROM channels WHERE id = ?", (channel_id,)).fetchone()
    return None if row is None else row[0]


def channels_selling(conn: Connection, rate_plan_ids: list[str]) -> list[str]:
    """The channels any of the plans are mapped to, each once."""
    found: dict[str, None] = {}
    for start in range(0, len(rate_plan_ids), CHUNK):
        chunk = rate_plan_ids[start:start + CHUNK]
        found |= dict.fromkeys(row[0] for row in conn.execute(
            f"SELECT DISTINCT channel_id FROM channel_rate_plans WHERE rate_plan_id IN ({placeholders(chunk)})",
            chunk))
    return list(found)


def ari_secret(conn: Connection, channel_id: str) -> str | None:
    """The channel's sealed signing secret; None when it has none (or is gone)."""
    row = conn.execute("SELECT ari_secret FROM channels WHERE id = ?", (channel_id,)).fetchone()
    return None if row is None else row[0]


def active_channel_destinations(store: Store) -> list[Row]:
    """The active channels that are destinations of the outbox: id, settings."""
    return store.query("SELECT c.id, c.settings FROM channels c JOIN destinations d ON d.id = c.id "
                       "WHERE c.is_active = 1")


def channel_failure(conn: Connection, channel_id: str) -> Row | None:
    """The channel's destination's attempts and failing_since, and the channel's title."""
    return cast(Row | None, conn.execute("SELECT d.attempts, d.failing_since, c.title FROM destinations d JOIN channels c "
                                         "ON c.id = d.id WHERE d.id = ?", (channel_id,)).fetchone())


def channel_property_ids(conn: Connection, channel_id: str) -> list[str]:
    """The channel's properties, in the order they were added."""
    return [row[0] for row in conn.execute(
        "SELECT property_id FROM channel_properties WHERE channel_id = ? ORDER BY rowid", (channel_id,))]


# --- the outbox, as a channel's (read) -------------------------------------------------------------


def acked_cursor(store: Store, channel_id: str) -> int | None:
    """The channel's destination's cursor; None when it has none."""
    return cast(int | None, store.scalar("SELECT cursor FROM destinations WHERE id = ?", (channel_id,)))


def channel_deliveries(store: Store, channel_id: str, limit: int) -> list[Row]:
    """The channel's delivery log newest first, each with its event's id, name and payload (NULL once pruned)."""
    return store.query(
        "SELECT d.id, d.event_seq, d.status, d.attempts, d.response_status, d.warnings, d.last_error, "
        "d.next_retry_at, d.updated_at, e.id AS event_id, e.event, e.payload FROM deliveries d "
        "LEFT JOIN events e ON e.seq = d.event_seq WHERE d.destination_id = ? "
        "ORDER BY d.updated_at DESC, d.event_seq DESC LIMIT ?", (channel_id, limit))
