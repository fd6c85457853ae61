"""SQL on the webhooks' table: webhooks.

The statements are written in the common dialect of storage/, which both SQLite and PostgreSQL run.
"""

from __future__ import annotations

from typing import Any, cast

from backend.core.listing import Column, ListQuery
from backend.core.store import page
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from storage import Connection, Row, Store, placeholders

# The fields a list filters and orders by, and their columns.
COLUMNS = {"id": Column("w.id", "id"), "property_id": Column("w.property_id", "id"),
           "is_active": Column("w.is_active", "bool"), "inserted_at": Column("w.inserted_at")}
DELIVERY_COLUMNS = {"status": Column("d.status", "enum"), "event": Column("e.event", "enum"),
                    "updated_at": Column("d.updated_at")}


def webhook_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Row], dict[str, Any]]:
    """A page of the webhooks of the properties the actor reaches, and its meta."""
    scope, params = reach_scope(actor, "w.property_id")
    return page(store, query, COLUMNS, select="w.*", source="webhooks w", scope=scope, scope_params=params,
                default_order="w.inserted_at, w.id")


def delivery_page(store: Store, query: ListQuery, webhook_id: str) -> tuple[list[Row], dict[str, Any]]:
    """A page of the webhook's delivery log (latest first unless the query orders it), with each event's id, name and
    time, and its meta."""
    return page(store, query, DELIVERY_COLUMNS, select="d.*, e.id AS event_id, e.event, e.inserted_at AS event_at",
                source="deliveries d LEFT JOIN events e ON e.seq = d.event_seq",
                scope="d.destination_id = ?", scope_params=[webhook_id],
                default_order="d.updated_at DESC, d.event_seq DESC")


def webhook(store: Store, webhook_id: str) -> Row | None:
    return cast(Row | None, store.one("SELECT * FROM webhooks WHERE id = ?", (webhook_id,)))


def active_webhooks(store: Store) -> dict[str, str | None]:
    """The active webhooks' ids, each with its property."""
    return dict(store.query("SELECT id, property_id FROM webhooks WHERE is_active = 1"))


def webhook_count(conn: Connection, property_id: str) -> int:
    return cast(int, conn.execute("SELECT count(*) FROM webhooks WHERE property_id = ?", (property_id,)).fetchone()[0])


def insert_webhook(conn: Connection, webhook_id: str, property_id: str, user_id: str | None,
                   columns: tuple[Any, ...], secret: str, now: str) -> None:
    """`columns`: callback_url, event_mask, headers, request_params, is_active, send_data."""
    conn.execute("INSERT INTO webhooks (id, property_id, user_id, callback_url, event_mask, headers, "
                 "request_params, is_active, send_data, secret, inserted_at, updated_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (webhook_id, property_id, user_id, *columns, secret, now, now))


def update_webhook(conn: Connection, webhook_id: str, property_id: str, columns: tuple[Any, ...], now: str) -> None:
    """`columns` as insert_webhook's."""
    conn.execute("UPDATE webhooks SET property_id = ?, callback_url = ?, event_mask = ?, headers = ?, "
                 "request_params = ?, is_active = ?, send_data = ?, updated_at = ? WHERE id = ?",
                 (property_id, *columns, now, webhook_id))


def delete_webhook(conn: Connection, webhook_id: str) -> None:
    conn.execute("DELETE FROM webhooks WHERE id = ?", (webhook_id,))


def webhook_delivery(conn: Connection, webhook_id: str, delivery_id: str) -> Row | None:
    """The webhook's delivery: its event_seq, and the event's seq (NULL once the event is pruned)."""
    return cast(Row | None, conn.execute("SELECT d.event_seq, e.seq FROM deliveries d LEFT JOIN events e "
                                         "ON e.seq = d.event_seq WHERE d.id = ? AND d.destination_id = ?",
                                         (delivery_id, webhook_id)).fetchone())


def property_ids_found(store: Store, property_id: str, room_type_ids: set[str], rate_plan_ids: set[str]) -> set[str]:
    """Those of the room types and rate plans that are the property's."""
    return {row[0] for row in store.query(
        f"SELECT id FROM room_types WHERE property_id = ? AND id IN ({placeholders(room_type_ids)}) UNION ALL "
        f"SELECT id FROM rate_plans WHERE property_id = ? AND id IN ({placeholders(rate_plan_ids)})",
        (property_id, *room_type_ids, property_id, *rate_plan_ids))}


def plan_room_type(store: Store, rate_plan_id: str) -> str | None:
    return cast(str | None, store.scalar("SELECT room_type_id FROM rate_plans WHERE id = ?", (rate_plan_id,)))


def property_rate_plan(store: Store, rate_plan_id: str, property_id: str) -> Row | None:
    """The property's rate plan (id, room_type_id, currency)."""
    return cast(Row | None, store.one("SELECT id, room_type_id, currency FROM rate_plans WHERE id = ? AND property_id = ?",
                                      (rate_plan_id, property_id)))


def property_room_type_id(store: Store, room_type_id: str, property_id: str) -> str | None:
    """The id of the room type, if it is the property's."""
    return cast(str | None, store.scalar(
        "SELECT id FROM room_types WHERE id = ? AND property_id = ?", (room_type_id, property_id)))
