"""The reads that pricing needs, in a few statements: rooms, plans, restrictions and availability.

Rows come back as plain tuples keyed by plan or room and ISO date, the shape `stays.quote` reads.
A plan's set can be given by ids or by the channels it is mapped to (a join rather than a long
IN list, for the property list over thousands of properties).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from backend.inventory.stays import RESTRICTION_SELECT, Plan, Room
from storage import Store


def _marks(values: list) -> str:
    return ",".join("?" * len(values)) or "NULL"


class Calendar:
    def __init__(self, store: Store) -> None:
        self.store = store

    def mapped_plans(self, channel_ids: list[str], property_ids: list[str] | None = None) -> list[Plan]:
        """Rate plans mapped to the channels (optionally of some properties only), by title."""
        where = f"c.channel_id IN ({_marks(channel_ids)})"
        params: list = list(channel_ids)
        if property_ids is not None:
            where += f" AND p.property_id IN ({_marks(property_ids)})"
            params += property_ids
        rows = self.store.query(f"SELECT DISTINCT p.* FROM rate_plans p JOIN channel_rate_plans c ON c.rate_plan_id = p.id "
                                f"WHERE {where} ORDER BY p.title, p.id", params)
        return [Plan.of(r) for r in rows]

    def plans(self, ids: Iterable[str]) -> dict[str, Plan]:
        ids = list(ids)
        return {r["id"]: Plan.of(r) for r in self.store.query(f"SELECT * FROM rate_plans WHERE id IN ({_marks(ids)})", ids)}

    def rooms(self, ids: Iterable[str]) -> dict[str, Room]:
        ids = list(dict.fromkeys(ids))
        return {r["id"]: Room.of(r) for r in self.store.query(
            f"SELECT * FROM room_types WHERE id IN ({_marks(ids)}) ORDER BY title, id", ids)}

    def restrictions(self, plans: Scope, first: str, last: str) -> dict[str, dict[str, tuple]]:
        """Rows of the plans from first to last (both included): plan → date → row tuple."""
        found: dict[str, dict[str, tuple]] = defaultdict(dict)
        condition, params = plans.plans()
        rows = self.store.conn.execute(
            f"SELECT {RESTRICTION_SELECT} FROM restrictions WHERE rate_plan_id IN ({condition}) "
            "AND date >= ? AND date <= ?", [*params, first, last])
        for row in rows:
            found[row[0]][row[1]] = tuple(row)[2:]
        return found

    def availability(self, rooms: Scope, first: str, last: str) -> dict[str, dict[str, int]]:
        found: dict[str, dict[str, int]] = defaultdict(dict)
        condition, params = rooms.rooms()
        rows = self.store.conn.execute(
            f"SELECT room_type_id, date, availability FROM availability WHERE room_type_id IN ({condition}) "
            "AND date >= ? AND date <= ?", [*params, first, last])
        for room, day, value in rows:
            found[room][day] = value
        return found


@dataclass(frozen=True)
class Scope:
    """Which plans' (or their rooms') rows to read: given ids, or everything mapped to some channels."""

    ids: tuple[str, ...] = ()
    channel_ids: tuple[str, ...] = ()

    def plans(self) -> tuple[str, list[str]]:
        if self.channel_ids:
            return (f"SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id IN ({_marks(list(self.channel_ids))})",
                    list(self.channel_ids))
        return _marks(list(self.ids)), list(self.ids)

    def rooms(self) -> tuple[str, list[str]]:
        if self.channel_ids:
            return ("SELECT p.room_type_id FROM rate_plans p JOIN channel_rate_plans c ON c.rate_plan_id = p.id "
                    f"WHERE c.channel_id IN ({_marks(list(self.channel_ids))})", list(self.channel_ids))
        return _marks(list(self.ids)), list(self.ids)
