"""SQL of the message rules domain: the tables it owns — message_rules and message_rule_sends — and its reads of the
bookings a rule is due for. In the common dialect of storage/; callers keep their transactions and pass their
connection (or the Store for single reads)."""

from __future__ import annotations

from typing import Any, cast

from backend.core.listing import Column, Columns, ListQuery
from backend.core.store import page
from backend.identity.models import Actor
from backend.identity.store import reach_scope
from storage import Connection, Row, Store, placeholders

RULE_COLUMNS: Columns = {"id": Column("m.id", "id"), "property_id": Column("m.property_id", "id"),
                "group_id": Column("coalesce(m.group_id, p.group_id)", "id"), "title": Column("m.title"),
                "trigger": Column("m.event", "enum"), "is_paused": Column("m.is_paused", "bool")}
# What the sweep and the preview read of a booking: what sending needs (backend/chat/service.py `post`) and what
# decides whether it may be sent.
BOOKING = ("b.id, b.property_id, b.channel_id, b.unique_id, b.revision_id, b.status, b.arrival_date, "
           "b.departure_date, b.inserted_at, c.channel_code, p.timezone, p.group_id")
BOOKING_SOURCE = "bookings b JOIN properties p ON p.id = b.property_id LEFT JOIN channels c ON c.id = b.channel_id"


def rules_page(store: Store, query: ListQuery, actor: Actor) -> tuple[list[Row], dict[str, Any]]:
    """A page of the rules of the actor's groups and of the properties they reach, by title."""
    groups = actor.group_list()
    reached, params = reach_scope(actor, "m.property_id")
    return page(store, query, RULE_COLUMNS, select="m.*",
                source="message_rules m LEFT JOIN properties p ON p.id = m.property_id",
                scope=f"(m.group_id IN ({placeholders(groups)}) OR {reached})", scope_params=[*groups, *params],
                default_order="m.title, m.id")


def template_scope(store: Store, template_id: str) -> Row | None:
    """A saved reply's property and group (its own, or its property's)."""
    return cast(Row | None, store.one("SELECT t.property_id, coalesce(t.group_id, p.group_id) AS owner FROM message_templates t "
                                      "LEFT JOIN properties p ON p.id = t.property_id WHERE t.id = ?", (template_id,)))


def rule_row(store: Store, rule_id: str) -> Row | None:
    """The rule with `owner`, the group it is of (its own, or its property's), and its saved reply's text."""
    return cast(Row | None, store.one("SELECT m.*, coalesce(m.group_id, p.group_id) AS owner, t.message FROM message_rules m "
                                      "LEFT JOIN properties p ON p.id = m.property_id "
                                      "JOIN message_templates t ON t.id = m.message_template_id WHERE m.id = ?", (rule_id,)))


def rules_in_group(conn: Connection, group_id: str) -> int:
    """The group's rules and its properties'."""
    return cast(int, conn.execute("SELECT count(*) FROM message_rules m LEFT JOIN properties p ON p.id = m.property_id "
                                  "WHERE m.group_id = ? OR p.group_id = ?", (group_id, group_id)).fetchone()[0])


def insert_rule(conn: Connection, values: dict[str, Any]) -> None:
    columns = list(values)
    conn.execute(f"INSERT INTO message_rules ({', '.join(columns)}) VALUES ({placeholders(columns)})",
                 [values[c] for c in columns])


def update_rule(conn: Connection, rule_id: str, values: dict[str, Any]) -> None:
    columns = list(values)
    conn.execute(f"UPDATE message_rules SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                 [*(values[c] for c in columns), rule_id])


def delete_rule(conn: Connection, rule_id: str) -> None:
    conn.execute("DELETE FROM message_rules WHERE id = ?", (rule_id,))


def active_rules(store: Store) -> list[Row]:
    """Every rule not paused, with its saved reply's text: what the sweep looks at."""
    return store.query("SELECT m.*, t.message FROM message_rules m JOIN message_templates t "
                       "ON t.id = m.message_template_id WHERE m.is_paused = 0 ORDER BY m.id")


def rule_bookings(store: Store, rule: Row, column: str, first: str, last: str) -> list[Row]:
    """The bookings of the rule's property (or its group's properties) that the rule has not done yet, whose `column`
    (arrival_date, departure_date or inserted_at) is from `first` to `last`, cancelled ones too (the sweep records
    why it skips them). Read property by property along bookings_arrival / bookings_departure."""
    owner, value = ("b.property_id = ?", rule["property_id"]) if rule["property_id"] else ("p.group_id = ?",
                                                                                          rule["group_id"])
    return store.query(
        f"SELECT {BOOKING} FROM {BOOKING_SOURCE} WHERE {owner} AND b.{column} >= ? AND b.{column} <= ? "
        "AND NOT EXISTS (SELECT 1 FROM message_rule_sends s WHERE s.rule_id = ? AND s.booking_id = b.id) "
        "ORDER BY b.id", [value, first, last, rule["id"]])


def booking_for_rules(store: Store, booking_id: str) -> Row | None:
    """A booking as the preview reads it."""
    return cast(Row | None, store.one(f"SELECT {BOOKING} FROM {BOOKING_SOURCE} WHERE b.id = ?", (booking_id,)))


def booking_status(conn: Connection, booking_id: str) -> str | None:
    """The booking's status as it is in the send's transaction (it may have been cancelled since it was read)."""
    row = conn.execute("SELECT status FROM bookings WHERE id = ?", (booking_id,)).fetchone()
    return None if row is None else row[0]


def claim_send(conn: Connection, rule_id: str, booking_id: str, now: str, message_id: str | None,
               skipped_reason: str | None) -> bool:
    """What the rule did for the booking, unless it was already done: whether this call is the one that does it."""
    return conn.execute("INSERT INTO message_rule_sends (rule_id, booking_id, sent_at, message_id, skipped_reason) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (rule_id, booking_id) DO NOTHING",
                        (rule_id, booking_id, now, message_id, skipped_reason)).rowcount == 1


def was_done(store: Store, rule_id: str, booking_id: str) -> bool:
    return cast(bool, store.scalar("SELECT count(*) FROM message_rule_sends WHERE rule_id = ? AND booking_id = ?",
                                   (rule_id, booking_id)) > 0)


def sent_count(store: Store, rule_ids: list[str]) -> dict[str, int]:
    """How many messages each rule sent."""
    if not rule_ids:
        return {}
    return dict(store.tuples(f"SELECT rule_id, count(*) FROM message_rule_sends WHERE message_id IS NOT NULL AND "
                             f"rule_id IN ({placeholders(rule_ids)}) GROUP BY rule_id", rule_ids))

