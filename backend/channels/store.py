"""SQL of the channels domain: the tables it owns — channels, channel_properties and channel_rate_plans — and its reads
of others' (groups, properties, rate_plans). The statements are written in the common dialect of storage/, so they run
on both SQLite and PostgreSQL. Callers keep their logic and transactions and pass their connection (or the Store for
single reads)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, cast

from backend.core.listing import Column, ListQuery
from backend.core.store import page
from storage import Connection, Row, Store, chunked, placeholders

COLUMNS: dict[str, Column] = {
    "id": Column("c.id", "id"),
    "title": Column("c.title"),
    "channel": Column("c.channel_code", "enum"),
    "channel_code": Column("c.channel_code", "enum"),
    "is_active": Column("c.is_active", "bool"),
    "property_id": Column("property_id", "id",
                          "c.id IN (SELECT channel_id FROM channel_properties WHERE {cond})"),
    "inserted_at": Column("c.inserted_at"),
}


# --- shopping names --------------------------------------------------------------------------------------------------

def named(name: str, shopping_codes: Sequence[str]) -> tuple[str, list[str]]:
    """SQL on `channels c`, and its parameters: the shopping channels that the name in a shopping path reaches."""
    answering, params = _answering(name, "c", shopping_codes)
    first, first_params = _answering(name, "o", shopping_codes)
    return (f"{answering} AND c.group_id = (SELECT o.group_id FROM channels o WHERE {first} "
            f"ORDER BY o.inserted_at, o.id LIMIT 1)", [*params, *first_params])


def _answering(name: str, table: str, shopping_codes: Sequence[str]) -> tuple[str, list[str]]:
    """SQL on `table`: the shopping channels, of any group, that answer to the name (their title or code)."""
    return (f"({table}.title = ? OR {table}.channel_code = ?) "
            f"AND {table}.channel_code IN ({placeholders(shopping_codes)})", [name, name, *shopping_codes])


def name_taken(conn: Connection, title: str, group_id: str, shopping_codes: Sequence[str]) -> bool:
    """Whether a shopping channel of another group than `group_id` answers to `title`."""
    answering, params = _answering(title, "c", shopping_codes)
    return conn.execute(f"SELECT 1 FROM channels c WHERE {answering} AND c.group_id != ?",
                        [*params, group_id]).fetchone() is not None


# --- reading ---------------------------------------------------------------------------------------------------------

def channel_row(store: Store, channel_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM channels WHERE id = ?", (channel_id,)))


def channel_page(store: Store, query: ListQuery, group_ids: list[str], direct_code: str) -> tuple[list[Row], dict[str, Any]]:
    """One page of the channels of these groups, but the properties' direct channels (`direct_code`)."""
    return page(store, query, COLUMNS, select="c.*", source="channels c",
                scope=f"c.group_id IN ({placeholders(group_ids)}) AND c.channel_code != ?",
                scope_params=[*group_ids, direct_code], default_order="c.title, c.id")


def channels_for_property(store: Store, group_ids: list[str], direct_code: str, property_id: str) -> list[Row]:
    """The channels of these groups (but direct channels) that are of the property's group or connected to it."""
    return store.query(
        f"SELECT * FROM channels WHERE group_id IN ({placeholders(group_ids)}) AND channel_code != ? AND (group_id = "
        "(SELECT group_id FROM properties WHERE id = ?) OR id IN (SELECT channel_id FROM channel_properties WHERE "
        "property_id = ?)) ORDER BY title, id", [*group_ids, direct_code, property_id, property_id])


def is_connected(store: Store, channel_id: str, property_id: str | None) -> bool:
    return bool(store.scalar("SELECT 1 FROM channel_properties WHERE channel_id = ? AND property_id = ?",
                             (channel_id, property_id)))


def channel_property_ids(store: Store, channel_id: str) -> list[str]:
    """The channel's properties, in the order they were connected."""
    return [r[0] for r in store.query("SELECT property_id FROM channel_properties WHERE channel_id = ? ORDER BY rowid",
                                      (channel_id,))]


def channel_mappings(store: Store, channel_id: str) -> list[Row]:
    """(id, rate_plan_id, settings) of each mapping of the channel, in the order they were made."""
    return store.query("SELECT id, rate_plan_id, settings FROM channel_rate_plans WHERE channel_id = ? ORDER BY rowid",
                       (channel_id,))


def channel_mappings_with_plans(store: Store, channel_id: str) -> list[Row]:
    """Each mapping of the channel with its rate plan's room type and property, in the order they were made."""
    return store.query(
        "SELECT m.id, m.rate_plan_id, p.room_type_id, p.property_id, m.settings FROM channel_rate_plans m "
        "JOIN rate_plans p ON p.id = m.rate_plan_id WHERE m.channel_id = ? ORDER BY m.rowid", (channel_id,))


def mapped_rate_plan_ids(store: Store, channel_id: str) -> set[str]:
    return {r[0] for r in store.query("SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id = ?",
                                      (channel_id,))}


def mapped_rate_plans(store: Store, channel_id: str) -> list[Row]:
    """The rate plans mapped to the channel (id, room type, property, currency), by title."""
    return store.query("SELECT p.id, p.room_type_id, p.property_id, p.currency FROM rate_plans p "
                       "JOIN channel_rate_plans c ON c.rate_plan_id = p.id WHERE c.channel_id = ? "
                       "ORDER BY p.title, p.id", (channel_id,))


def property_rate_plan_ids(store: Store, property_id: str) -> set[str]:
    return {r[0] for r in store.query("SELECT id FROM rate_plans WHERE property_id = ?", (property_id,))}


def rate_plan_properties(store: Store, rate_plan_ids: list[str]) -> dict[str, str]:
    """Rate plan id → its property's, of those that exist (asked in chunks: a channel has no cap on its plans)."""
    found: dict[str, str] = {}
    for chunk in chunked(rate_plan_ids):
        found.update((r[0], r[1]) for r in store.tuples(
            f"SELECT id, property_id FROM rate_plans WHERE id IN ({placeholders(chunk)})", chunk))
    return found


def group_title(store: Store, group_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT title FROM groups WHERE id = ?", (group_id,)))


def properties_in_groups(store: Store, property_ids: list[str], group_ids: list[str]) -> dict[str, Row]:
    """Property id → the property, with its group's title (`group_title`), of those of one of these groups."""
    found: dict[str, Row] = {}
    for chunk in chunked(property_ids):
        found.update((r["id"], r) for r in store.query(
            f"SELECT p.*, g.title AS group_title FROM properties p JOIN groups g ON g.id = p.group_id "
            f"WHERE p.id IN ({placeholders(chunk)}) AND p.group_id IN ({placeholders(group_ids)})",
            [*chunk, *group_ids]))
    return found



# --- writing ---------------------------------------------------------------------------------------------------------

def insert_channel(conn: Connection, channel_id: str, group_id: str, title: str, channel_code: str,
                   inbound_key_hash: str, provider_api_key_hash: str | None, is_active: bool,
                   settings: dict[str, Any], now: str) -> None:
    conn.execute(
        "INSERT INTO channels (id, group_id, title, channel_code, inbound_key_hash, provider_api_key_hash, "
        "is_active, settings, inserted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (channel_id, group_id, title, channel_code, inbound_key_hash, provider_api_key_hash, int(is_active),
         json.dumps(settings), now, now))


def insert_direct_channel(conn: Connection, channel_id: str, group_id: str, title: str, channel_code: str,
                          inbound_key_hash: str, now: str) -> None:
    """A property's direct channel (backend/bookings/direct.py): active, with the default settings."""
    conn.execute("INSERT INTO channels (id, group_id, title, channel_code, inbound_key_hash, is_active, inserted_at, "
                 "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                 (channel_id, group_id, title, channel_code, inbound_key_hash, now, now))


def update_channel(conn: Connection, channel_id: str, title: str, group_id: str, is_active: bool,
                   settings: dict[str, Any], now: str) -> None:
    conn.execute("UPDATE channels SET title = ?, group_id = ?, is_active = ?, settings = ?, updated_at = ? "
                 "WHERE id = ?", (title, group_id, int(is_active), json.dumps(settings), now, channel_id))


def set_provider_api_key_hash(conn: Connection, channel_id: str, key_hash: str | None) -> None:
    conn.execute("UPDATE channels SET provider_api_key_hash = ? WHERE id = ?", (key_hash, channel_id))


def delete_connections(conn: Connection, channel_id: str) -> None:
    """Every property and mapping of the channel, to be written again (`insert_connections`)."""
    conn.execute("DELETE FROM channel_properties WHERE channel_id = ?", (channel_id,))
    conn.execute("DELETE FROM channel_rate_plans WHERE channel_id = ?", (channel_id,))


def insert_connections(conn: Connection, channel_id: str, property_ids: Iterable[str],
                       mappings: Iterable[tuple[str, str, dict[str, Any] | None]]) -> None:
    """The channel's properties, and its mappings as (mapping id, rate plan id, settings)."""
    conn.executemany("INSERT INTO channel_properties (channel_id, property_id) VALUES (?, ?)",
                     [(channel_id, p) for p in property_ids])
    conn.executemany("INSERT INTO channel_rate_plans (id, channel_id, rate_plan_id, settings) VALUES (?, ?, ?, ?)",
                     [(mapping_id, channel_id, plan_id, json.dumps(settings)) for mapping_id, plan_id, settings
                      in mappings])


def delete_channel(conn: Connection, channel_id: str) -> None:
    conn.execute("DELETE FROM channels WHERE id = ?", (channel_id,))


def touch_channel(conn: Connection, channel_id: str, at: str) -> None:
    """What the channel sells changed under it (backend/distribution/remap.py)."""
    conn.execute("UPDATE channels SET updated_at = ? WHERE id = ?", (at, channel_id))


def set_ari_secret(conn: Connection, channel_id: str, sealed: str | None) -> None:
    conn.execute("UPDATE channels SET ari_secret = ? WHERE id = ?", (sealed, channel_id))


def chatting_ota_channels(store: Store) -> list[Row]:
    """The active Booking.com and Airbnb channels that reach a property with the chat app, by title."""
    return store.query(
        "SELECT * FROM channels WHERE channel_code IN ('BookingCom', 'AirBNB') AND is_active = 1 AND id IN "
        "(SELECT channel_id FROM channel_properties WHERE property_id IN "
        "(SELECT property_id FROM application_installations WHERE application_code = 'chat')) ORDER BY title")
