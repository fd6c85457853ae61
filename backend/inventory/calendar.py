"""The reads that pricing needs, in a few statements: rooms, plans, restrictions and availability.

Rows come back as plain tuples keyed by plan or room and ISO date, the shape `stays.quote` reads. A plan's
nights are its rows as the rules read them (`stays.Nightly`): weekday defaults filled in, and a derived
plan's taken from its parent, whose rows are read with them. Shopping's rooms, which judges every mapped plan of a
property for one stay, reads a summary of each plan's stay instead (`stay_facts`): one row a plan, the stay's rules
then decided by the same `stays.open_rates`. A plan's set can be given by ids or by the
channels it is mapped to (a subquery rather than a long IN list, for the property list over thousands of
properties).

Parsed rate plans and room types are kept by (id, updated_at): every change stamps a new updated_at,
so a kept one is never stale, and a list of thousands is not re-parsed from JSON on every call.
Tax sets are kept the same way by theirs. Nights are never kept: ARI is read live on every call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, TypeVar, cast

from backend.inventory.stays import (
    R_CTA,
    R_CTD,
    R_MAX,
    R_MSA,
    R_MST,
    R_STOP,
    Nightly,
    Nights,
    Plan,
    Room,
    StayFacts,
    facts_of,
    inherited,
    weekday_of,
    weekdays_between,
)
from backend.inventory.store import (
    NO_ROWS,
    Summary,
    availability_nights,
    mapped_plan_versions,
    plan_room_versions,
    restriction_nights,
    rows_by_id,
    scope_plan_versions,
    set_taxes,
    stay_summaries,
    versions,
)
from backend.inventory.taxes import TaxSet
from storage import Reads, Row

T = TypeVar("T")

KEEP_AT_MOST = 100_000


class Calendar:
    def __init__(self, store: Reads) -> None:
        self.store = store
        self._plans: dict[tuple[str, str], Plan] = {}
        self._rooms: dict[tuple[str, str], Room] = {}
        self._tax_sets: dict[tuple[str, str], TaxSet] = {}

    def mapped_plans(self, channel_ids: list[str], property_ids: list[str] | None = None) -> list[Plan]:
        """Rate plans mapped to the channels (optionally of some properties only), by title."""
        plans = self._parsed("rate_plans", mapped_plan_versions(self.store, channel_ids, property_ids), self._plans,
                             Plan.of)
        return sorted(plans.values(), key=attrgetter("title", "id"))

    def plans(self, ids: Iterable[str]) -> dict[str, Plan]:
        return self.plans_at(versions(self.store, "rate_plans", list(ids)))

    def plans_at(self, found_versions: Iterable[tuple[str, str]]) -> dict[str, Plan]:
        """The plans of these (id, updated_at), which the caller read with something else in one statement."""
        return self._parsed("rate_plans", found_versions, self._plans, Plan.of)

    def plans_and_rooms(self, ids: Iterable[str]) -> tuple[dict[str, Plan], dict[str, Room]]:
        """These plans and their room types (in no order), the versions of both read in one statement."""
        found = plan_room_versions(self.store, list(ids))
        return (self.plans_at(dict.fromkeys((plan_id, stamp) for plan_id, stamp, _, _ in found)),
                self.rooms_at(dict.fromkeys((room_id, stamp) for _, _, room_id, stamp in found)))

    def rooms(self, ids: Iterable[str]) -> dict[str, Room]:
        rooms = self.rooms_at(versions(self.store, "room_types", list(dict.fromkeys(ids))))
        return dict(sorted(rooms.items(), key=lambda item: (item[1].title, item[0])))

    def rooms_at(self, found_versions: Iterable[tuple[str, str]]) -> dict[str, Room]:
        """The room types of these (id, updated_at), in no order, as `plans_at`."""
        return self._parsed("room_types", found_versions, self._rooms, Room.of)

    def tax_sets(self, plans: Iterable[Plan]) -> dict[str, TaxSet]:
        """The tax sets of these plans, by id (a set's stamp changes with any of its taxes)."""
        ids = list({plan.tax_set_id for plan in plans if plan.tax_set_id})
        if not ids:
            return {}
        found, missing = {}, []
        for set_id, updated_at in versions(self.store, "tax_sets", ids):
            kept = self._tax_sets.get((set_id, updated_at))
            if kept is None:
                missing.append((set_id, updated_at))
            else:
                found[set_id] = kept
        if missing:
            rows: dict[str, list[Any]] = defaultdict(list[Any])
            for row in set_taxes(self.store, [set_id for set_id, _ in missing]):
                rows[row["tax_set_id"]].append(row)
            if len(self._tax_sets) > KEEP_AT_MOST:
                self._tax_sets.clear()
            for set_id, updated_at in missing:
                found[set_id] = self._tax_sets[(set_id, updated_at)] = TaxSet.of(set_id, rows[set_id])
        return found

    def _parsed(self, table: str, found_versions: Iterable[tuple[str, str]], kept: dict[tuple[str, str], T],
                parse: Callable[[Row], T]) -> dict[str, T]:
        """Rows of the table by id, parsed once per version: the versions (id, updated_at) are read first, the
        rows only for what has changed."""
        found: dict[str, T] = {}
        missing: list[str] = []
        for version in found_versions:  # (id, updated_at): the key itself, no tuple made per row
            item = kept.get(version)
            if item is None:
                missing.append(version[0])
            else:
                found[version[0]] = item
        if len(kept) > KEEP_AT_MOST:  # old versions pile up in a long-running server: start afresh
            kept.clear()
        for row in rows_by_id(self.store, table, missing) if missing else []:
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

    def stay_facts(self, plans: Iterable[Plan], stay: Nights, availability: Mapping[str, dict[str, int]],
                   left: Mapping[str, int]) -> dict[str, StayFacts]:
        """The facts of each plan's stay (stays.StayFacts), by plan id, summed up by the database in one row a plan
        (store.stay_summaries) rather than read night by night; `availability`: each room type's nights, `left` its
        fewest rooms left over them. A plan the summary can't settle is read night by night: one whose nights without
        a value of their own read a weekday default (its own, or its parent's for what it inherits) that stops sale or
        asks a longer min stay through than its stored nights do."""
        wanted = list(plans)
        known = {plan.id: plan for plan in wanted}
        outside = {p.parent_id for p in wanted if p.parent_id} - known.keys()
        known.update(self.plans(outside) if outside else {})
        first, departure = stay.keys[0], stay.departure.isoformat()
        sums = stay_summaries(self.store, list(known), first, departure)
        summed = _Summed(stay)
        found, unsettled = {}, []
        for plan in wanted:
            own = (plan, sums.get(plan.id, NO_ROWS))
            sources = (own, (known[plan.parent_id], sums.get(plan.parent_id, NO_ROWS))) if plan.parent_id else (own,)
            facts = summed(plan, sources, left.get(plan.room_type_id, 0))
            if facts is None:
                unsettled.append(plan)
            else:
                found[plan.id] = facts
        if unsettled:
            nights = self.restrictions(Scope(tuple(p.id for p in unsettled)), first, departure, unsettled)
            for plan in unsettled:
                found[plan.id] = facts_of(stay, nights[plan.id], availability.get(plan.room_type_id, {}))
        return found

    def _in_scope(self, scope: Scope) -> dict[str, Plan]:
        return self._parsed("rate_plans", scope_plan_versions(self.store, scope), self._plans, Plan.of)

    def _nights(self, scope: Scope, first: str, last: str, nights: dict[str, Nightly]) -> None:
        """The stored rows, each NULL restriction (no value of its own) read from the weekday's default. Spelt out
        for speed: this runs once per row of every shopping read."""
        weekday = weekdays_between(first, last)
        for plan_id, day, rate, msa, mst, most, cta, ctd, stop in restriction_nights(self.store, scope, first, last):
            night = nights.get(plan_id)
            if night is not None:
                default = night.weekdays[weekday[day]]
                night[day] = (rate, default[1] if msa is None else msa, default[2] if mst is None else mst,
                              default[3] if most is None else most, default[4] if cta is None else cta,
                              default[5] if ctd is None else ctd, default[6] if stop is None else stop)

    def availability(self, rooms: Scope, first: str, last: str) -> dict[str, dict[str, int]]:
        found: dict[str, dict[str, int]] = defaultdict(dict)
        for room, day, value in availability_nights(self.store, rooms, first, last):
            found[room][day] = value
        return found


@dataclass(frozen=True)
class Scope:
    """Which plans' (or their rooms') rows to read: given ids, or everything mapped to some channels (read with a
    subquery, backend/inventory/store.py)."""

    ids: tuple[str, ...] = ()
    channel_ids: tuple[str, ...] = ()


_OWN = (0,) * 6  # a manual plan reads each restriction from its own rows (Plan.takes: ROW_FIELDS[1:], R_* - 1)


class _Summed:
    """A stay's facts of one plan from its summary and, for a derived plan, its parent's: the rates from the parent
    through the plan's modifiers, each restriction from the summary its `takes` names. Nights without a value of
    their own read the source plan's weekday defaults: exact for the arrival's and the departure's values, and for
    the stop and the min stay through as long as no default of the stay's weekdays could change them."""

    def __init__(self, stay: Nights) -> None:
        self.nights = len(stay.keys)
        self.weekdays = frozenset(weekday_of(key) for key in stay.keys)
        self.arrival, self.departure = weekday_of(stay.keys[0]), stay.departure.weekday()

    def __call__(self, plan: Plan, sources: tuple[tuple[Plan, Summary], ...], available: int) -> StayFacts | None:
        takes = plan.takes or _OWN
        rates = sources[-1][1].rates  # a manual plan's own; a derived plan's parent's, which it follows
        if plan.parent_id:
            rates = [plan.derived(rate) for rate in rates]
        closed = None
        if available < 1:
            closed = "no room is left on some night of the stay"
        elif len(rates) < self.nights or None in rates:
            closed = "some night of the stay has no rate"
        else:
            source, summary = sources[takes[R_STOP - 1]]
            if summary.stopped:
                closed = "some night of the stay is stopped"
            elif source.stop_weekdays & self.weekdays:
                return None
        source, summary = sources[takes[R_MST - 1]]
        through = max(1, summary.through or 1)
        if closed is None and source.longest_through > through and max(
                source.weekdays[day][R_MST] for day in self.weekdays) > through:
            return None  # a closed stay is not sold whatever its min stay: no need to read its nights
        return StayFacts(cast(list[int], rates), closed, through,
                         bool(self._arriving(sources[takes[R_CTA - 1]], 2, R_CTA)),
                         self._arriving(sources[takes[R_MSA - 1]], 0, R_MSA),
                         self._arriving(sources[takes[R_MAX - 1]], 1, R_MAX),
                         bool(self._departing(sources[takes[R_CTD - 1]])))

    def _arriving(self, source: tuple[Plan, Summary], index: int, field: int) -> Any:
        """The arrival's value, or the source plan's default for its weekday where the night has none of its own."""
        value = source[1].arrival[index]
        return source[0].weekdays[self.arrival][field] if value is None else value

    def _departing(self, source: tuple[Plan, Summary]) -> Any:
        value = source[1].departure_closed
        return source[0].weekdays[self.departure][R_CTD] if value is None else value
