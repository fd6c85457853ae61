"""Availability per room type per night, and rates and restrictions per rate plan per night.

A write is a list of values, each for one date or a range (optionally only some weekdays). The
whole list is checked first, every field of every value, and every problem is reported in one 422
naming `values.N.field` (bad type, past or reversed dates, unknown room type or rate plan, a negative
rate); nothing is written then. The values are then applied in order in one transaction; nights beyond
the property's state_length are skipped, rates outside min_price/max_price are clamped, and a derived
plan's values that follow its parent are not written, each with a warning.

The console's range edit writes availability and restrictions together (`edit`), after asking the engine
what it would change (`review`, backend/inventory/review.py), and can put back exactly what an edit
replaced (`undo`, backend/inventory/undo.py).

Reads give each night's values as the rules read them (backend/inventory/calendar.py): the night's own,
else the plan's weekday default, and a derived plan's taken from its parent, computed on every read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError, model_validator
from pydantic_core import from_json

from backend.core.dates import WEEKDAYS, days, parse_date
from backend.core.errors import Errors, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.money import format_minor, parse_money, to_minor
from backend.core.scopes import property_scope
from backend.core.validation import details_of
from backend.identity.access import owned_property, reaches
from backend.identity.models import Actor
from backend.inventory import sellable
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.channel_rules import Weekday
from backend.inventory.models import INHERITS, complete
from backend.inventory.ranges import TABLES, Kind, Planned
from backend.inventory.review import Review, review_of
from backend.inventory.stays import ROW_FIELDS
from backend.inventory.store import (
    insert_ari_task,
    plan_title,
    property_group,
    property_plans,
    property_row,
    property_settings,
    room_type_ids,
    target_row,
    versions,
    write_nights,
)
from backend.inventory.undo import Restored, Undo, after, before, restore
from backend.inventory.window import Window, window_of
from backend.outbox import record as outbox
from storage import Connection, Row, Store, new_id, utc_now

MAX_VALUES = 10_000
MAX_RANGE_DAYS = 731
RESTRICTION_FIELDS = ROW_FIELDS  # what a restrictions write sets (besides min_stay, which names some of them)
BOOLEANS = ("closed_to_arrival", "closed_to_departure", "stop_sell")
FLAG_OF = {name: flag for flag, name in INHERITS.items()}
# What a restrictions read answers (the service's list); without filter[restrictions], all of them. The last
# three are the service's read-only settings, which Frontdesk does not have: no offset, no limits.
READS = ("availability", "rate", "min_stay_arrival", "min_stay_through", "min_stay", "closed_to_arrival",
         "closed_to_departure", "stop_sell", "max_stay", "availability_offset", "max_sell", "max_availability")
NOT_KEPT = {"availability_offset": 0, "max_sell": None, "max_availability": None}
Stay = Annotated[StrictInt, Field(ge=1, le=730)]


class Dated(BaseModel):
    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr
    date: StrictStr | None = None
    date_from: StrictStr | None = None
    date_to: StrictStr | None = None
    days: Annotated[list[Weekday], Field(min_length=1, max_length=7)] | None = None

    @model_validator(mode="after")
    def _one_way_of_dating(self) -> Dated:
        if self.date is None and (self.date_from is None or self.date_to is None):
            raise ValueError("give date, or date_from and date_to")
        if self.date is not None and (self.date_from is not None or self.date_to is not None):
            raise ValueError("give date, or date_from and date_to, not both")
        return self


class AvailabilityValue(Dated):
    room_type_id: StrictStr
    availability: Annotated[StrictInt, Field(ge=0, le=10_000)]


class RestrictionValue(Dated):
    rate_plan_id: StrictStr
    rate: Any = None
    min_stay: Stay | None = None
    min_stay_arrival: Stay | None = None
    min_stay_through: Stay | None = None
    max_stay: Annotated[StrictInt, Field(ge=0, le=730)] | None = None
    closed_to_arrival: StrictBool | None = None
    closed_to_departure: StrictBool | None = None
    stop_sell: StrictBool | None = None


class AriEnvelope(BaseModel):
    """Request body of the availability and restriction writes (documentation only)."""

    values: list[AvailabilityValue] | list[RestrictionValue]


class Written:
    """The nights a write touched, as one range per property and room type or rate plan: the outbox's event for it
    (what the range holds is read when it is sent, so nights in between that did not change cost nothing)."""

    def __init__(self) -> None:
        self.ranges: dict[tuple[str, str, str], tuple[str, str]] = {}

    def add(self, kind: str, property_id: str, target_id: str, days: list[str]) -> None:
        if not days:
            return
        first, last = min(days), max(days)
        known = self.ranges.get((kind, property_id, target_id))
        self.ranges[(kind, property_id, target_id)] = (min(first, known[0]), max(last, known[1])) if known else (first, last)

    def record(self, store: Store) -> None:
        """In the write's transaction: the outbox's events, and the sellable index of the nights."""
        spans: dict[str, tuple[str, str]] = {}
        for (kind, property_id, target_id), nights in self.ranges.items():
            changed = outbox.availability_changed if kind == "availability" else outbox.rates_changed
            changed(store.conn, property_id, target_id, nights)
            known = spans.get(property_id, nights)
            spans[property_id] = (min(known[0], nights[0]), max(known[1], nights[1]))
        for property_id, (first, last) in spans.items():
            sellable.refresh(store, [property_id], first, last)


@dataclass(frozen=True)
class Holder:
    """A property that a write touches, read once per write: its row, settings and selling window."""

    row: Any
    settings: dict[str, Any]
    window: Window


@dataclass(frozen=True)
class Checked:
    """One value of a write that passed every check: its target's row and the nights it names."""

    kind: Kind
    index: int
    target: Any
    dates: list[date]
    fields: dict[str, Any]  # restrictions: column → stored value; availability: {"availability": n}


@dataclass(frozen=True)
class Edit:
    """A range edit made (or undone): the engine's warnings, and how to put back what it replaced."""

    warnings: list[dict[str, Any]]
    undo: Undo
    tasks: list[str] = field(default_factory=list)  # an API restrictions write's task IDs, one per property


MODELS: dict[str, tuple[type[Dated], str, str]] = {  # kind → model, its target's key and noun
    "availability": (AvailabilityValue, "room_type_id", "room type"),
    "restrictions": (RestrictionValue, "rate_plan_id", "rate plan"),
}


class Ari:
    def __init__(self, store: Store, events: EventBus, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.events = events
        self.clock = clock
        self.calendar = Calendar(store)

    # --- writing -----------------------------------------------------------------------------

    def set_availability(self, actor: Actor, values: Any) -> list[dict[str, Any]]:
        return self._checked_write(actor, {"availability": values}, "values", undoable=False).warnings

    def set_restrictions(self, actor: Actor, values: Any) -> Edit:
        """As the service answers it: the warnings, and a task per property written to, stored with the write (a
        PMS keeps the IDs as its audit trail; the service shows no way to read a task, nor does Frontdesk)."""
        return self._checked_write(actor, {"restrictions": values}, "values", undoable=False, task_by=actor.user_id)

    def edit(self, actor: Actor, availability: list[Any], restrictions: list[Any]) -> Edit:
        """Availability and restriction values written in one transaction; the problems of both are reported in one
        422 (as `availability.N.field` and `restrictions.N.field`), and the `Edit` says how to put it all back."""
        return self._checked_write(actor, self._lists(availability, restrictions), None, undoable=True)

    def _checked_write(self, actor: Actor, lists: dict[str, Any], name: str | None, *, undoable: bool,
                       task_by: str | None = None) -> Edit:
        """Checked outside the write lock (thousands of values take a while), written inside it, unless a rate plan,
        room type or property checked against changed meanwhile (a currency, a derivation, a window): then checked
        again, inside, on them as they are."""
        planned, props, warnings = self._checked(actor, lists, name)
        with self.store.transaction(*map(property_scope, props)):  # beside writes of other properties
            if self._changed_since(planned, props):
                planned, props, warnings = self._checked(actor, lists, name)
            return self._write(planned, props, warnings, undoable=undoable, task_by=task_by)

    def _changed_since(self, planned: list[Planned], props: dict[str, Holder]) -> bool:
        read = {(TABLES[value.kind].targets, value.target["id"]): value.target["updated_at"] for value in planned}
        read |= {("properties", property_id): holder.row["updated_at"] for property_id, holder in props.items()}
        for table in {table for table, _ in read}:
            ids = [item_id for each, item_id in read if each == table]
            now = dict(versions(self.store, table, ids))
            if any(now.get(item_id) != read[(table, item_id)] for item_id in ids):
                return True
        return False

    def review(self, actor: Actor, availability: list[Any], restrictions: list[Any]) -> Review:
        """What `edit` with these values would change, checked as it checks them, without writing anything."""
        planned, props, warnings = self._checked(actor, self._lists(availability, restrictions), None)
        rooms = {value.target["id"] for value in planned if value.kind == "availability"}
        plans = {value.target["id"] for value in planned if value.kind == "restrictions"}
        days = [d for value in planned for d in value.days]
        first, last = (min(days), max(days)) if days else ("", "")
        return review_of(planned, self.calendar.availability(Scope(tuple(rooms)), first, last) if rooms else {},
                         self.calendar.restrictions(Scope(tuple(plans)), first, last) if plans else {}, warnings)

    def undo(self, actor: Actor, undo: Undo) -> Edit:
        """Put back what an edit (or an undo) replaced; warnings count the nights left as they are."""
        props = {}
        for property_id in undo.property_ids:
            row = property_row(self.store, property_id)
            if row is None or not reaches(self.store, actor, property_id, row["group_id"]):
                raise Unauthorized("you have no access to this property")
            props[property_id] = window_of(row, self.clock()).today
        written = Written()
        with self.store.transaction() as conn:
            done = restore(conn, undo, props)
            for nights in done.written:
                written.add(nights.kind, nights.property_id, nights.target_id, list(nights.rows))
            written.record(self.store)
        self._changed(props)
        return Edit(_left_alone(done), done.undo)

    def _lists(self, availability: list[Any], restrictions: list[Any]) -> dict[str, list[Any]]:
        lists = {name: values for name, values in (("availability", availability), ("restrictions", restrictions))
                 if values}
        if not lists:
            raise ValidationFailed.one("values", "give availability or restriction values")
        return lists

    def _checked(self, actor: Actor, lists: dict[str, Any],
                 name: str | None) -> tuple[list[Planned], dict[str, Holder], list[dict[str, Any]]]:
        """Every value of every list checked before anything is written, each problem named (`name`.N.field, or the
        list's own name when `name` is None) and all of them raised together; then what each would write: a derived
        plan's values that follow its parent, nights beyond state_length and rates beyond min_price/max_price each
        skipped or clamped with a warning."""
        errors = Errors()
        props: dict[str, Holder] = {}
        checked: list[Checked] = []
        for kind, values in lists.items():
            checked += self._parse(actor, kind, values, name or kind, props, errors)
        errors.raise_if_any()
        warnings: list[dict[str, Any]] = []
        parents: dict[str, str | None] = {}  # id → title, read once per write
        planned: list[Planned] = []
        for item in checked:
            holder = props[item.target["property_id"]]
            fields = item.fields
            if item.kind == "restrictions":
                fields = self._own(item.index, fields, item.target, parents, warnings)
                if not fields:
                    continue
                fields = self._clamp(item.index, fields, item.target, holder, warnings)
            kept = _within(item.index, holder, item.dates, warnings)
            planned.append(Planned(item.kind, item.index, item.target, tuple(kept), fields))
        return planned, props, warnings

    def _write(self, planned: list[Planned], props: dict[str, Holder], warnings: list[dict[str, Any]], *,
               undoable: bool, task_by: str | None = None) -> Edit:
        """`undoable`: keep what the write replaces (an API write of thousands of values keeps nothing); `task_by`:
        the user of an API restrictions write, whose tasks are stored with it."""
        written = Written()
        with self.store.transaction(*map(property_scope, props)) as conn:
            replaced = before(conn, planned) if undoable else {}
            for value in planned:
                write_nights(conn, value.table, value.target["id"], value.days, value.fields)
                written.add(value.kind, value.property_id, value.target["id"], value.days)
            written.record(self.store)
            undo = after(conn, planned, replaced) if undoable else Undo()
            tasks = _tasks(conn, planned, props, task_by) if task_by else []
        self._changed(props)
        return Edit(warnings, undo, tasks)

    def _parse(self, actor: Actor, kind: str, values: Any, name: str, props: dict[str, Holder],
               errors: Errors) -> list[Checked]:
        """A list's values checked; what passes is returned, the problems are added to errors. A value with some bad
        fields still has the others checked, so that one answer names every problem."""
        if not isinstance(values, list) or not values:
            errors.add(name, "must be a non-empty list")
            return []
        if len(values) > MAX_VALUES:
            errors.add(name, f"must hold at most {MAX_VALUES} values")
            return []
        model, key, noun = MODELS[kind]
        checked, now = [], self.clock()
        for index, raw in enumerate(values):
            prefix = f"{name}.{index}."
            if not isinstance(raw, dict):
                errors.add(f"{name}.{index}", "must be an object")
                continue
            value, bad = _model(model, raw, prefix, errors)
            holder = None if "property_id" in bad else self._holder(actor, value.property_id, props, now)
            target = None
            if holder is not None and key not in bad:
                target = target_row(self.store, TABLES[kind], getattr(value, key))
                if target is not None and target["property_id"] != value.property_id:
                    target = None
            if target is None and not bad & {key, "property_id"}:
                errors.add(prefix + key, f"is not a {noun} of this property")
            dates = ([] if bad & {"date", "date_from", "date_to"}
                     else _dates(value, holder.window.today if holder else None, prefix, errors))
            if kind == "availability":
                fields = None if bad else {"availability": value.availability}  # type: ignore[attr-defined]  # its kind's
            else:
                fields = self._restriction_fields(prefix, raw, value, bad, target, holder, errors)  # type: ignore[arg-type]  # as above
            if target is not None and not bad and fields is not None:
                checked.append(Checked(kind, index, target, dates, fields))  # type: ignore[arg-type]  # one of the Kinds
        return checked

    def _holder(self, actor: Actor, property_id: str, props: dict[str, Holder], now: datetime) -> Holder | None:
        """The property a value names, read once per write; None when it is not one of the actor's."""
        if property_id not in props:
            row = property_row(self.store, property_id)
            if row is None or not reaches(self.store, actor, property_id, row["group_id"]):
                return None
            props[property_id] = Holder(row, from_json(row["settings"]), window_of(row, now))
        return props[property_id]

    def _restriction_fields(self, prefix: str, raw: dict[str, Any], value: RestrictionValue, bad: set[str],
                            plan: Row | None, holder: Holder | None, errors: Errors) -> dict[str, Any] | None:
        """The columns a restriction value sets, in their stored form (None when one can't be read)."""
        if not any(raw.get(name) is not None for name in ("min_stay", *RESTRICTION_FIELDS)):
            errors.add(prefix + "rate", "give at least one of rate, min_stay, " + ", ".join(RESTRICTION_FIELDS[1:]))
            return None
        fields: dict[str, Any] = {}
        if "rate" in raw:
            if plan is None:
                return None
            try:
                fields["rate"] = parse_money(raw["rate"], plan["currency"])
            except ValueError as exc:
                errors.add(prefix + "rate", str(exc))
                return None
        fields.update({name: getattr(value, name) for name in RESTRICTION_FIELDS[1:]
                       if name not in bad and getattr(value, name, None) is not None})
        if getattr(value, "min_stay", None) is not None and holder is not None:
            kind = holder.settings["min_stay_type"]
            for name in ("min_stay_arrival", "min_stay_through"):
                if kind in ("both", name.removeprefix("min_stay_")):
                    fields.setdefault(name, value.min_stay)
        for name in BOOLEANS:
            if name in fields:
                fields[name] = int(fields[name])
        return fields

    def _own(self, index: int, fields: dict[str, Any], plan: Any, parents: dict[str, str | None],
             warnings: list[Any]) -> dict[str, Any]:
        """A derived plan's values that follow its parent are the parent's to set: skipped, each with a warning."""
        parent_id = plan["parent_rate_plan_id"]
        if parent_id is None:
            return fields
        if parent_id not in parents:
            parents[parent_id] = plan_title(self.store, parent_id)
        details = complete(from_json(plan["details"]), plan["currency"])
        own = {name: value for name, value in fields.items() if not details[FLAG_OF[name]]}
        warnings += [{"index": index, "field": name,
                      "message": f"{name} of this derived rate plan follows its parent “{parents[parent_id]}” "
                                 f"({FLAG_OF[name]}); set it there. Not written"}
                     for name in fields if name not in own]
        return own

    def _clamp(self, index: int, fields: dict[str, Any], plan: Any, holder: Holder,
               warnings: list[Any]) -> dict[str, Any]:
        """min_price and max_price (in the property's currency) raise and lower a rate as it is stored."""
        if fields.get("rate") is None or plan["currency"] != holder.row["currency"]:
            return fields
        settings = holder.settings
        rate = fields["rate"]
        for key, sign in (("min_price", 1), ("max_price", -1)):
            if settings[key] is not None:
                limit = to_minor(Decimal(settings[key]), plan["currency"])
                if (limit - rate) * sign > 0:
                    warnings.append({"index": index, "field": "rate",
                                     "message": f"{format_minor(rate, plan['currency'])} is beyond {key} "
                                                f"{format_minor(limit, plan['currency'])}; stored as {key}"})
                    rate = limit
        return {**fields, "rate": rate}

    def _changed(self, props: dict[str, Any]) -> None:
        for property_id in props:
            self.events.publish("ari.changed", property_id, outboxed=True)

    # --- reading -----------------------------------------------------------------------------

    def availability(self, actor: Actor, query: ListQuery) -> dict[str, dict[str, int]]:
        property_id, start, end = self._range(actor, query)
        rooms = room_type_ids(self.store, property_id)
        return self.room_values(rooms, start, end)

    def room_values(self, room_ids: list[str], start: date, end: date) -> dict[str, dict[str, int]]:
        """Per room type and night from start up to end, its availability (0 for a night without a row)."""
        keys = [d.isoformat() for d in days(start, end)]
        stored = self.calendar.availability(Scope(tuple(room_ids)), keys[0], keys[-1]) if keys else {}
        return {room: {day: stored.get(room, {}).get(day, 0) for day in keys} for room in room_ids}

    def restrictions(self, actor: Actor, query: ListQuery) -> dict[str, dict[str, dict[str, Any]]]:
        """Per rate plan and night, the values filter[restrictions] names (all of READS without it)."""
        property_id, start, end = self._range(actor, query)
        wanted = self._fields(query)
        plans = property_plans(self.store, property_id)
        return self.plan_values(property_id, plans, start, end, wanted)

    def plan_values(self, property_id: str, plans: list[Any], start: date, end: date,
                    wanted: tuple[str, ...]) -> dict[str, dict[str, dict[str, Any]]]:
        """Per rate plan (rows of the property's with id, room_type_id and currency) and night from start up to
        end, the values named in `wanted`, as a restrictions read answers them."""
        min_stay_type = from_json(property_settings(self.store, property_id))["min_stay_type"]
        first, last = start.isoformat(), (end - timedelta(days=1)).isoformat()
        nights = self.calendar.restrictions(Scope(tuple(p["id"] for p in plans)), first, last)
        rooms = (self.calendar.availability(Scope(tuple({p["room_type_id"] for p in plans})), first, last)
                 if "availability" in wanted else {})
        keys = [d.isoformat() for d in days(start, end)]
        grid = {}
        for plan in plans:
            plan_nights, available = nights[plan["id"]], rooms.get(plan["room_type_id"], {})
            grid[plan["id"]] = {day: _cell(plan_nights[day], wanted, plan["currency"], available.get(day, 0),
                                           min_stay_type) for day in keys}
        return grid

    def _range(self, actor: Actor, query: ListQuery) -> tuple[str, date, date]:
        """filter[property_id], filter[date][gte] and filter[date][lte] (both days included)."""
        found = {(f.field, f.op): f.value for f in query.filters}
        errors = Errors()
        property_id = found.get(("property_id", "eq")) or ""
        if not property_id:
            errors.add("filter[property_id]", "is required")
        bounds = {}
        for op in ("gte", "lte"):
            try:
                bounds[op] = parse_date(found.get(("date", op)))
            except ValueError as exc:
                errors.add(f"filter[date][{op}]", str(exc))
        if len(bounds) == 2 and not 0 <= (bounds["lte"] - bounds["gte"]).days < MAX_RANGE_DAYS:
            errors.add("filter[date][lte]", f"must be on or after filter[date][gte] and within {MAX_RANGE_DAYS} days")
        errors.raise_if_any()
        owned_property(self.store, actor, property_group(self.store, property_id), "property", property_id,
                       property_id=property_id)
        return property_id, bounds["gte"], bounds["lte"] + timedelta(days=1)

    def _fields(self, query: ListQuery) -> tuple[str, ...]:
        asked = next((f.value for f in query.filters if f.field == "restrictions"), None)
        if asked is None:
            return READS
        names = tuple(n.strip() for n in asked.split(",") if n.strip())
        unknown = [n for n in names if n not in READS]
        if unknown or not names:
            raise ValidationFailed.one("filter[restrictions]", f"use some of {', '.join(READS)}")
        return names


def _tasks(conn: Connection, planned: list[Planned], props: dict[str, Holder], user_id: str) -> list[str]:
    """A restrictions task for each property of the write, with the count of its values written."""
    counts, now = Counter(value.property_id for value in planned), utc_now()
    tasks = []
    for property_id in props:
        tasks.append(new_id())
        insert_ari_task(conn, tasks[-1], property_id, "restrictions", user_id, counts[property_id], now)
    return tasks


def _cell(row: tuple[Any, ...], wanted: tuple[str, ...], currency: str, available: int, min_stay_type: str) -> dict[str, Any]:
    """A night's values, by name: `min_stay` is the min stay that the property's min_stay_type enforces (the
    higher of the two with both), `availability` the room type's."""
    rate, arrival, through, most, cta, ctd, stop = row
    values = {"availability": available, "rate": None if rate is None else format_minor(rate, currency),
              "min_stay_arrival": arrival, "min_stay_through": through,
              "min_stay": {"arrival": arrival, "through": through}.get(min_stay_type, max(arrival, through)),
              "max_stay": most, "closed_to_arrival": bool(cta), "closed_to_departure": bool(ctd),
              "stop_sell": bool(stop), **NOT_KEPT}
    return {name: values[name] for name in wanted}


def _within(index: int, holder: Holder, dates: list[date], warnings: list[Any]) -> list[date]:
    """The dates before the property's state_length ends; the rest are skipped with a warning."""
    end = holder.window.end
    kept = [d for d in dates if d < end]
    if len(kept) < len(dates):
        warnings.append({"index": index, "field": "date",
                         "message": f"{len(dates) - len(kept)} night(s) from {end.isoformat()} on are beyond "
                                    "the property's state_length and were skipped"})
    return kept


def _model(model: type[Dated], raw: dict[str, Any], prefix: str, errors: Errors) -> tuple[Dated, set[str]]:
    """The value, and the names of its fields that failed (their problems added to errors). With failures, the value
    holds the fields that passed, so that the checks that need the database can still judge those."""
    try:
        return model.model_validate(raw), set()
    except ValidationError as exc:
        details = {("date" if k == "base" else k): v for k, v in details_of(exc).items()}
        errors.merge(details, prefix)
        bad = {path.split(".")[0] for path in details}
        return model.model_construct(**{k: v for k, v in raw.items() if k in model.model_fields and k not in bad}), bad


def _dates(value: Dated, today: date | None, prefix: str, errors: Errors) -> list[date]:
    """The dates a value covers, weekday mask applied; problems are added to errors (being past only when the
    property's today is known)."""
    names = ("date",) if value.date is not None else ("date_from", "date_to")
    parsed = {}
    for name in names:
        try:
            parsed[name] = parse_date(getattr(value, name))
        except ValueError as exc:
            errors.add(prefix + name, str(exc))
    if len(parsed) != len(names):
        return []
    first, last = (parsed["date"], parsed["date"]) if value.date is not None else (parsed["date_from"], parsed["date_to"])
    problems = []
    if today is not None and first < today:
        problems.append((names[0], f"is in the past (today is {today.isoformat()} at the property)"))
    if last < first:
        problems.append(("date_to", "must be on or after date_from"))
    elif (last - first).days >= MAX_RANGE_DAYS:
        problems.append(("date_to", f"must be within {MAX_RANGE_DAYS} days of date_from"))
    for name, message in problems:
        errors.add(prefix + name, message)
    if problems:
        return []
    mask = {WEEKDAYS.index(d) for d in value.days} if value.days else None
    return [d for d in days(first, last + timedelta(days=1)) if mask is None or d.weekday() in mask]


def _left_alone(done: Restored) -> list[dict[str, Any]]:
    """An undo's warnings: the nights it could not put back, and why."""
    warnings = []
    if done.changed:
        warnings.append({"field": "date", "message": f"{done.changed} night(s) changed since the edit (a booking, "
                                                     "or another change) and were left as they are"})
    if done.past:
        warnings.append({"field": "date", "message": f"{done.past} night(s) now past were left as they are"})
    if done.gone:
        warnings.append({"field": "date", "message": f"{', '.join(done.gone)}: deleted since the edit"})
    return warnings
