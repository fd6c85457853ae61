"""The reads that pricing needs, in a few statements: rooms, plans, restrictions and availability.

Rows come back as plain tuples keyed by plan or room and ISO date, the shape `stays.quote` reads. A plan's
nights are its rows as the rules read them (`stays.Nightly`): weekday defaults filled in, and a derived
plan's taken from its parent, whose rows are read with them. A plan's set can be given by ids or by the
channels it is mapped to (a subquery rather than a long IN list, for the property list over thousands of
properties).

Parsed rate plans and room types are kept by (id, updated_at): every change stamps a new updated_at,
so a kept one is never stale, and a list of thousands is not re-parsed from JSON on every call.
Nights are never kept: ARI is read live on every call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from backend.inventory.stays import RESTRICTION_SELECT, Nightly, Plan, Room, inherited, weekdays_between
from storage import Store, placeholders

KEEP_AT_MOST = 100_000


class Calendar:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._plans: dict[tuple[str, str], Plan] = {}
        self._rooms: dict[tuple[str, str], Room] = {}

    def mapped_plans(self, channel_ids: list[str], property_ids: list[str] | None = None) -> list[Plan]:
        """Rate plans mapped to the channels (optionally of some properties only), by title."""
        where = f"id IN (SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id IN ({placeholders(channel_ids)}))"
        params: list = list(channel_ids)
        if property_ids is not None:
            where += f" AND property_id IN ({placeholders(property_ids)})"
            params += property_ids
        plans = self._parsed("rate_plans", where, params, self._plans, Plan.of)
        return sorted(plans.values(), key=lambda p: (p.title, p.id))

    def plans(self, ids: Iterable[str]) -> dict[str, Plan]:
        ids = list(ids)
        return self._parsed("rate_plans", f"id IN ({placeholders(ids)})", ids, self._plans, Plan.of)

    def rooms(self, ids: Iterable[str]) -> dict[str, Room]:
        ids = list(dict.fromkeys(ids))
        rooms = self._parsed("room_types", f"id IN ({placeholders(ids)})", ids, self._rooms, Room.of)
        return dict(sorted(rooms.items(), key=lambda item: (item[1].title, item[0])))

    def _parsed(self, table: str, where: str, params: list, kept: dict, parse) -> dict:
        """Rows of the table by id, parsed once per version: the versions are read first, the rows only
        for what has changed."""
        found, missing = {}, []
        for item_id, updated_at in self.store.tuples(f"SELECT id, updated_at FROM {table} WHERE {where}", params):
            item = kept.get((item_id, updated_at))
            if item is None:
                missing.append(item_id)
            else:
                found[item_id] = item
        if len(kept) > KEEP_AT_MOST:  # old versions pile up in a long-running server: start afresh
            kept.clear()
        for row in self.store.query(f"SELECT * FROM {table} WHERE id IN ({placeholders(missing)})", missing) if missing else []:
            found[row["id"]] = kept[(row["id"], row["updated_at"])] = parse(row)
        return found

    def restrictions(self, scope: Scope, first: str, last: str,
                     plans: Iterable[Plan] | None = None) -> dict[str, Nightly]:
        """The nights of the scope's plans from first to last (both included), by plan id. `plans`: the scope's
        plans when the caller has just read them, else they are read here."""
        wanted = {plan.id: plan for plan in plans} if plans is not None else self._in_scope(scope)
        outside = {p.parent_id for p in wanted.values() if p.parent_id} - wanted.keys()
        parents = self.plans(outside) if outside else {}
        nights = {plan_id: Nightly.of(plan.weekdays) for plan_id, plan in {**wanted, **parents}.items()}
        self._nights(scope, first, last, nights)
        if parents:
            self._nights(Scope(tuple(parents)), first, last, nights)
        for plan_id, plan in wanted.items():
            if plan.parent_id:
                nights[plan_id] = inherited(plan, nights[plan_id], nights[plan.parent_id])
        return {plan_id: nights[plan_id] for plan_id in wanted}

    def _in_scope(self, scope: Scope) -> dict[str, Plan]:
        condition, params = scope.plans()
        return self._parsed("rate_plans", f"id IN ({condition})", params, self._plans, Plan.of)

    def _nights(self, scope: Scope, first: str, last: str, nights: dict[str, Nightly]) -> None:
        """The stored rows, each NULL restriction (no value of its own) read from the weekday's default. Spelt out
        for speed: this runs once per row of every shopping read."""
        condition, params = scope.plans()
        weekday = weekdays_between(first, last)
        for plan_id, day, rate, msa, mst, most, cta, ctd, stop in self.store.tuples(
                f"SELECT {RESTRICTION_SELECT} FROM restrictions WHERE rate_plan_id IN ({condition}) "
                "AND date >= ? AND date <= ?", [*params, first, last]):
            night = nights.get(plan_id)
            if night is not None:
                default = night.weekdays[weekday[day]]
                night[day] = (rate, default[1] if msa is None else msa, default[2] if mst is None else mst,
                              default[3] if most is None else most, default[4] if cta is None else cta,
                              default[5] if ctd is None else ctd, default[6] if stop is None else stop)

    def availability(self, rooms: Scope, first: str, last: str) -> dict[str, dict[str, int]]:
        found: dict[str, dict[str, int]] = defaultdict(dict)
        condition, params = rooms.rooms()
        rows = self.store.tuples(f"SELECT room_type_id, date, availability FROM availability WHERE room_type_id IN ({condition}) "
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
            return (f"SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id IN ({placeholders(list(self.channel_ids))})",
                    list(self.channel_ids))
        return placeholders(list(self.ids)), list(self.ids)

    def rooms(self) -> tuple[str, list[str]]:
        if self.channel_ids:
            return ("SELECT p.room_type_id FROM rate_plans p JOIN channel_rate_plans c ON c.rate_plan_id = p.id "
                    f"WHERE c.channel_id IN ({placeholders(list(self.channel_ids))})", list(self.channel_ids))
        return placeholders(list(self.ids)), list(self.ids)
