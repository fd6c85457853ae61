"""The properties domain's SQL: every statement on the tables it owns — properties, group_properties (a property's
groups), property_facilities, media, facilities and application_installations — written in the common dialect of
storage/ (both SQLite and PostgreSQL), and its reads of the channels and rate plans of a property. Services keep the logic and the
transactions and pass their connection in (or the Store, for single reads)."""

from __future__ import annotations

from typing import Any, cast

from backend.core.listing import Column, ListQuery
from backend.core.store import page
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from storage import Connection, Row, Store, placeholders

# The list's filters and orders, on the alias p of the properties table in the statements below.
COLUMNS: dict[str, Column] = {
    "id": Column("p.id", "id"),
    "title": Column("p.title"),
    "is_active": Column("p.is_active", "bool"),
    "city": Column("p.city"),
    "country": Column("p.country", "enum"),
    "currency": Column("p.currency", "enum"),
    "property_type": Column("p.property_type", "enum"),
    "group_id": Column("p.group_id", "id"),
    "inserted_at": Column("p.inserted_at"),
    "updated_at": Column("p.updated_at"),
}
# A property as it is shown: its row, how many channels it is connected to, and its hotel policy (its groups are
# read a page at a time: `groups_of`).
SELECT_COLUMNS = ("p.*, (SELECT count(*) FROM channel_properties cp WHERE cp.property_id = p.id) AS acc_cannels_count, "
                  "(SELECT id FROM hotel_policies h WHERE h.property_id = p.id) AS hotel_policy_id")
INSTALLATION_COLUMNS = {"property_id": Column("a.property_id", "id"),
                        "application_code": Column("a.application_code", "enum")}


# --- properties ---------------------------------------------------------------------------------------------------

def properties_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    """A page of the properties the actor reaches, as shown (SELECT_COLUMNS)."""
    scope, params = reach_scope(actor, "p.id")
    return page(store, query, COLUMNS, select=SELECT_COLUMNS, source="properties p", scope=scope,
                scope_params=params, default_order="p.title, p.id")


def property_options(store: Store, actor: Actor) -> list[Row]:
    scope, params = reach_scope(actor, "p.id")
    return store.query(f"SELECT id, title, currency, is_active, group_id FROM properties p WHERE {scope} "
                       "ORDER BY title, id", params)


# --- a property's groups (group_properties) -----------------------------------------------------------------------

def in_group(conn: Connection, group_id: str, property_id: str) -> bool:
    return conn.execute("SELECT 1 FROM group_properties WHERE group_id = ? AND property_id = ?",
                        (group_id, property_id)).fetchone() is not None


def add_to_group(conn: Connection, group_id: str, property_id: str) -> None:
    conn.execute("INSERT INTO group_properties (group_id, property_id) VALUES (?, ?)", (group_id, property_id))


def remove_from_group(conn: Connection, group_id: str, property_id: str) -> bool:
    """The property out of the group unless it is its last (whether it left). Run under the write lock, the count
    it guards on is the one it deletes against; `relationships.group` (properties.group_id) moves to a group it is
    still in when it named this one."""
    left = conn.execute("DELETE FROM group_properties WHERE group_id = ? AND property_id = ? AND EXISTS (SELECT 1 "
                        "FROM group_properties o WHERE o.property_id = ? AND o.group_id != ?)",
                        (group_id, property_id, property_id, group_id)).rowcount
    if left:
        conn.execute("UPDATE properties SET group_id = (SELECT min(group_id) FROM group_properties WHERE "
                     "property_id = ?) WHERE id = ? AND group_id = ?", (property_id, property_id, group_id))
    return bool(left)


def move_to_group(conn: Connection, property_id: str, old: str, new: str) -> None:
    """A property moved from one group to another (its `group_id` changed): it leaves the old, joins the new."""
    conn.execute("DELETE FROM group_properties WHERE group_id = ? AND property_id = ?", (old, property_id))
    if not in_group(conn, new, property_id):
        add_to_group(conn, new, property_id)


def groups_of(store: Store, property_ids: list[str]) -> list[Row]:
    """The groups (property_id, id, title) of these properties: each one's own group (`group_id`) first, then by
    title."""
    return store.query("SELECT gp.property_id, g.id, g.title FROM group_properties gp JOIN groups g ON "
                       "g.id = gp.group_id JOIN properties p ON p.id = gp.property_id WHERE gp.property_id IN "
                       f"({placeholders(property_ids)}) ORDER BY gp.property_id, CASE WHEN g.id = p.group_id THEN 0 "
                       "ELSE 1 END, g.title, g.id", property_ids)


def shown_property(store: Store, property_id: str) -> Row | None:
    """The property as shown (SELECT_COLUMNS)."""
    return cast(Row | None, store.one(f"SELECT {SELECT_COLUMNS} FROM properties p WHERE p.id = ?", (property_id,)))


def property_row(conn: Connection, property_id: str) -> Row | None:
    return cast(Row | None, conn.execute("SELECT * FROM properties WHERE id = ?", (property_id,)).fetchone())


def logo_media_id(conn: Connection, property_id: str) -> str | None:
    return cast(str | None, conn.execute("SELECT logo_media_id FROM properties WHERE id = ?", (property_id,)).fetchone()[0])


def insert_property(conn: Connection, property_id: str, values: dict[str, Any], now: str) -> None:
    conn.execute(
        f"INSERT INTO properties (id, {', '.join(values)}, inserted_at, updated_at) "
        f"VALUES (?, {', '.join('?' * len(values))}, ?, ?)",
        (property_id, *values.values(), now, now),
    )


def update_property(conn: Connection, property_id: str, values: dict[str, Any], now: str) -> None:
    conn.execute(
        f"UPDATE properties SET {', '.join(f'{k} = ?' for k in values)}, updated_at = ? WHERE id = ?",
        (*values.values(), now, property_id),
    )


def delete_property(conn: Connection, property_id: str) -> None:
    conn.execute("DELETE FROM properties WHERE id = ?", (property_id,))


def property_plan_ids(conn: Connection, property_id: str) -> list[str]:
    """The property's rate plans (inventory's table, read here)."""
    return [r[0] for r in conn.execute("SELECT id FROM rate_plans WHERE property_id = ?", (property_id,))]


def channels_elsewhere(store: Store, property_id: str, group_id: str) -> list[str]:
    """Titles of the channels the property is connected to that are not of this group."""
    return [r[0] for r in store.query(
        "SELECT c.title FROM channels c JOIN channel_properties cp ON cp.channel_id = c.id "
        "WHERE cp.property_id = ? AND c.group_id != ? ORDER BY c.title", (property_id, group_id))]


# --- property facilities and the facility catalogue ---------------------------------------------------------------

def facilities_of(store: Store, property_ids: list[str]) -> list[Row]:
    """(property_id, facility_id) of these properties, in each one's order."""
    return store.query(
        f"SELECT property_id, facility_id FROM property_facilities WHERE property_id IN ({placeholders(property_ids)}) "
        "ORDER BY position", property_ids)


def insert_property_facilities(conn: Connection, property_id: str, facility_ids: list[str]) -> None:
    """The property's facilities, in this order."""
    conn.executemany(
        "INSERT INTO property_facilities (property_id, facility_id, position) VALUES (?, ?, ?)",
        [(property_id, f, i) for i, f in enumerate(facility_ids)],
    )


def delete_property_facilities(conn: Connection, property_id: str) -> None:
    conn.execute("DELETE FROM property_facilities WHERE property_id = ?", (property_id,))


def facility_count(store: Store) -> int:
    return cast(int, store.scalar("SELECT count(*) FROM facilities"))


def add_facilities(conn: Connection, rows: list[tuple[str, str, str]]) -> None:
    """(id, category, title) of facilities, those already there left as they are."""
    conn.executemany("INSERT INTO facilities (id, category, title) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", rows)


def facility_ids(store: Store) -> list[str]:
    return [r[0] for r in store.query("SELECT id FROM facilities")]


def facility_list(store: Store) -> list[Row]:
    return store.query("SELECT id, category, title FROM facilities ORDER BY category, title")


# --- media --------------------------------------------------------------------------------------------------------

def insert_media(conn: Connection, media_id: str, content_type: str, size: int, sha256: str, source_url: str | None,
                 data: bytes, now: str) -> None:
    conn.execute(
        "INSERT INTO media (id, content_type, size, sha256, source_url, data, inserted_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (media_id, content_type, size, sha256, source_url, data, now),
    )


def delete_unused_uploads(conn: Connection, before: str) -> int:
    """Uploads (media without a source) that came before `before` and that no photo shows; how many. A logo is
    always fetched from its source, never an upload."""
    return conn.execute(
        "DELETE FROM media WHERE source_url IS NULL AND inserted_at < ? "
        "AND NOT EXISTS (SELECT 1 FROM photos ph WHERE ph.media_id = media.id) "
        "AND NOT EXISTS (SELECT 1 FROM properties p WHERE p.logo_media_id = media.id)", (before,)).rowcount


def media_content(store: Store, media_id: str) -> Row | None:
    """content_type and data of the media."""
    return cast(Row | None, store.one("SELECT content_type, data FROM media WHERE id = ?", (media_id,)))


# --- application installations ------------------------------------------------------------------------------------

def insert_installation(conn: Connection, installation_id: str, property_id: str, code: str, now: str) -> None:
    conn.execute("INSERT INTO application_installations (id, property_id, application_code, inserted_at) "
                 "VALUES (?, ?, ?, ?)", (installation_id, property_id, code, now))


def installations_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Any], dict[str, Any]]:
    scope, params = reach_scope(actor, "a.property_id")
    return page(store, query, INSTALLATION_COLUMNS, select="a.*", source="application_installations a",
                scope=scope, scope_params=params, default_order="a.inserted_at, a.id")


def delete_installation(conn: Connection, installation_id: str) -> None:
    conn.execute("DELETE FROM application_installations WHERE id = ?", (installation_id,))


def installation_of(store: Store, property_id: str, code: str) -> Row | None:
    """The id of the application's installation on the property."""
    return cast(Row | None, store.one("SELECT id FROM application_installations WHERE property_id = ? "
                                      "AND application_code = ?", (property_id, code)))


def has_installation(store: Store, property_id: str, code: str) -> bool:
    return store.one("SELECT 1 FROM application_installations WHERE property_id = ? AND application_code = ?",
                     (property_id, code)) is not None


def installation(store: Store, installation_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM application_installations WHERE id = ?", (installation_id,)))


def properties_with_app(store: Store, code: str) -> set[str]:
    return {row[0] for row in store.query(
        "SELECT property_id FROM application_installations WHERE application_code = ?", (code,))}


def property_count(store: Store) -> int:
    return cast(int, store.scalar("SELECT count(*) FROM properties"))
