"""The SQL of data steps: the `data_steps` record, and the reads and writes of the values a step repairs.

Data steps are the one place that writes other domains' tables (as a schema migration would): a step repairs
what earlier versions stored, across every table, once per database. The statements are in the common dialect of
storage/ (SQLite and PostgreSQL alike).
"""

from __future__ import annotations

from typing import Any

from storage import Connection, Store, placeholders


def steps_done(store: Store) -> set[str]:
    return {row[0] for row in store.query("SELECT name FROM data_steps")}


def claim_step(conn: Connection, name: str, applied_at: str) -> bool:
    """Record the step as run; False when another process recorded it first (it runs the step, not this one)."""
    return bool(conn.execute("INSERT INTO data_steps (name, applied_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                             (name, applied_at)).rowcount)


def record_changed(conn: Connection, name: str, changed: int) -> None:
    conn.execute("UPDATE data_steps SET changed = ? WHERE name = ?", (changed, name))


def values_of(conn: Connection, table: str, key: str, column: str) -> list[tuple[Any, Any]]:
    """Each row's key and value of a column that is set (table and column names are the step's own constants)."""
    return [tuple(row) for row in conn.execute(f"SELECT {key}, {column} FROM {table} WHERE {column} IS NOT NULL")]


def set_value(conn: Connection, table: str, key: str, column: str, row_key: Any, value: Any) -> None:
    conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (value, row_key))


def reservation_ids_not_keyed(conn: Connection, keyed_prefix: str) -> list[tuple[str, str]]:
    return [tuple(row) for row in conn.execute(
        "SELECT id, reservation_id FROM bookings WHERE reservation_id NOT LIKE ?", (keyed_prefix + "%",))]


def repoint_revision_cards(conn: Connection, token: str, copies: list[str]) -> None:
    """Revisions that named a copy of a card name the card kept."""
    conn.execute(f"UPDATE booking_revisions SET card_token = ? WHERE card_token IN ({placeholders(copies)})",
                 (token, *copies))


def plans_with_embedded_taxes(conn: Connection) -> list[Any]:
    """Id, property, title, currency and details of the rate plans whose details still hold taxes (before 0033)."""
    return conn.execute("SELECT id, property_id, title, currency, details FROM rate_plans "
                        "WHERE details LIKE '%\"taxes\"%' ORDER BY id").fetchall()


def set_plan_details(conn: Connection, plan_id: str, details: str) -> None:
    conn.execute("UPDATE rate_plans SET details = ? WHERE id = ?", (details, plan_id))
