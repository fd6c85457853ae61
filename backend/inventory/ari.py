"""Availability per room type per night, and rates and restrictions per rate plan per night.

A write is a list of values, each for one date or a range (optionally only some weekdays). The
whole list is checked first: a malformed value (bad type, past or reversed dates, unknown room
type or rate plan, a negative rate) is a 422 naming `values.N.field` and nothing is written.
The values are then applied in order in one transaction; nights beyond the property's
state_length are skipped and rates outside min_price/max_price are clamped, each with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)
from pydantic_core import from_json

from backend.dates import WEEKDAYS, days, local_now, parse_date
from backend.errors import Errors, NotFound, Unauthorized, ValidationFailed
from backend.events import EventBus
from backend.identity import Actor
from backend.listing import ListQuery
from backend.money import format_minor, parse_price, to_minor
from backend.validation import details_of
from storage import Store

MAX_VALUES = 10_000
MAX_RANGE_DAYS = 731
RESTRICTION_FIELDS = ("rate", "min_stay_arrival", "min_stay_through", "max_stay", "closed_to_arrival",
                      "closed_to_departure", "stop_sell")
DEFAULTS = {"rate": None, "min_stay_arrival": 1, "min_stay_through": 1, "max_stay": 0, "closed_to_arrival": False,
            "closed_to_departure": False, "stop_sell": False}
BOOLEANS = ("closed_to_arrival", "closed_to_departure", "stop_sell")
Stay = Annotated[StrictInt, Field(ge=1, le=730)]


class Dated(BaseModel):
    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr
    date: StrictStr | None = None
    date_from: StrictStr | None = None
    date_to: StrictStr | None = None
    days: Annotated[list[Literal[WEEKDAYS]], Field(min_length=1, max_length=7)] | None = None  # type: ignore[valid-type]

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


@dataclass(frozen=True)
class Window:
    """The nights a property sells: from its first open night (today, or later after the cut-off)
    up to, not including, today + state_length."""

    today: date
    first: date
    end: date


@dataclass(frozen=True)
class Holder:
    """A property that a write touches, read once per write: its row, settings and selling window."""

    row: Any
    settings: dict[str, Any]
    window: Window


def window_of(prop, now) -> Window:
    settings = from_json(prop["settings"])
    local = local_now(prop["timezone"], now)
    today = local.date()
    first = today
    # 00:00:00 is the "no cut-off" default: at midnight every day would otherwise close itself.
    cut_off = settings["cut_off_time"]
    if cut_off != "00:00:00" and local.strftime("%H:%M:%S") >= cut_off:
        first = today + timedelta(days=settings["cut_off_days"] + 1)
    return Window(today, first, today + timedelta(days=settings["state_length"]))


class Ari:
    def __init__(self, store: Store, events: EventBus, clock) -> None:
        self.store = store
        self.events = events
        self.clock = clock

    # --- writing -----------------------------------------------------------------------------

    def set_availability(self, actor: Actor, values: Any) -> list[dict[str, Any]]:
        items, props = self._parse(actor, values, AvailabilityValue, "room_types", "room_type_id", "room type")
        warnings: list[dict[str, Any]] = []
        with self.store.transaction() as conn:
            for index, (value, target, dates) in enumerate(items):
                kept = _within(index, props[target["property_id"]], dates, warnings)
                conn.executemany(
                    "INSERT INTO availability (room_type_id, date, availability) VALUES (?, ?, ?) "
                    "ON CONFLICT(room_type_id, date) DO UPDATE SET availability = excluded.availability",
                    [(value.room_type_id, d.isoformat(), value.availability) for d in kept])
        self._changed(props)
        return warnings

    def set_restrictions(self, actor: Actor, values: Any) -> list[dict[str, Any]]:
        items, props = self._parse(actor, values, RestrictionValue, "rate_plans", "rate_plan_id", "rate plan")
        errors, prepared = Errors(), []
        for index, (value, plan, dates) in enumerate(items):
            fields = self._restriction_fields(index, value, plan, props[plan["property_id"]], errors)
            prepared.append((value, plan, dates, fields))
        errors.raise_if_any()
        warnings: list[dict[str, Any]] = []
        with self.store.transaction() as conn:
            for index, (value, plan, dates, fields) in enumerate(prepared):
                holder = props[plan["property_id"]]
                fields = self._clamp(index, fields, plan, holder, warnings)
                kept = _within(index, holder, dates, warnings)
                if not fields:
                    continue
                columns = ", ".join(fields)
                updates = ", ".join(f"{c} = excluded.{c}" for c in fields)
                conn.executemany(
                    f"INSERT INTO restrictions (rate_plan_id, date, {columns}) VALUES (?, ?{', ?' * len(fields)}) "
                    f"ON CONFLICT(rate_plan_id, date) DO UPDATE SET {updates}",
                    [(value.rate_plan_id, d.isoformat(), *fields.values()) for d in kept])
        self._changed(props)
        return warnings

    def _parse(self, actor: Actor, values: Any, model: type[Dated], table: str, key: str, noun: str):
        """Every value checked before anything is written; returns (value, target row, dates) and the properties."""
        if not isinstance(values, list) or not values:
            raise ValidationFailed.one("values", "must be a non-empty list")
        if len(values) > MAX_VALUES:
            raise ValidationFailed.one("values", f"must hold at most {MAX_VALUES} values")
        errors, items, props, now = Errors(), [], {}, self.clock()
        for index, raw in enumerate(values):
            prefix = f"values.{index}."
            if not isinstance(raw, dict):
                errors.add(f"values.{index}", "must be an object")
                continue
            try:
                value = model.model_validate(raw)
            except ValidationError as exc:
                errors.merge({("date" if k == "base" else k): v for k, v in details_of(exc).items()},
                             prefix)
                continue
            target = self.store.one(f"SELECT t.*, p.group_id FROM {table} t JOIN properties p ON p.id = t.property_id "
                                    "WHERE t.id = ?", (getattr(value, key),))
            if target is None or target["group_id"] not in actor.group_ids or target["property_id"] != value.property_id:
                errors.add(prefix + key, f"is not a {noun} of this property")
                continue
            if value.property_id not in props:
                row = self.store.one("SELECT * FROM properties WHERE id = ?", (value.property_id,))
                props[value.property_id] = Holder(row, from_json(row["settings"]), window_of(row, now))
            dates = _dates(value, props[value.property_id].window.today, prefix, errors)
            items.append((value, target, dates))
        errors.raise_if_any()
        return items, props

    def _restriction_fields(self, index: int, value: RestrictionValue, plan, holder: Holder,
                            errors: Errors) -> dict[str, Any]:
        prefix = f"values.{index}."
        fields = {name: getattr(value, name) for name in RESTRICTION_FIELDS if getattr(value, name) is not None}
        if "rate" in value.model_fields_set:
            try:
                fields["rate"] = parse_price(value.rate, plan["currency"])
            except ValueError as exc:
                errors.add(prefix + "rate", str(exc))
        if value.min_stay is not None:
            kind = holder.settings["min_stay_type"]
            for name in ("min_stay_arrival", "min_stay_through"):
                if kind in ("both", name.removeprefix("min_stay_")):
                    fields.setdefault(name, value.min_stay)
        for name in BOOLEANS:
            if name in fields:
                fields[name] = int(fields[name])
        if not fields:
            errors.add(prefix + "rate", "give at least one of rate, min_stay, " + ", ".join(RESTRICTION_FIELDS[1:]))
        return fields

    def _clamp(self, index: int, fields: dict[str, Any], plan, holder: Holder, warnings: list) -> dict[str, Any]:
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
            self.events.publish("ari.changed", property_id)

    # --- reading -----------------------------------------------------------------------------

    def availability(self, actor: Actor, query: ListQuery) -> dict[str, dict[str, int]]:
        property_id, start, end = self._range(actor, query)
        rooms = [r[0] for r in self.store.query("SELECT id FROM room_types WHERE property_id = ? ORDER BY title, id",
                                                (property_id,))]
        grid = {room: dict.fromkeys((d.isoformat() for d in days(start, end)), 0) for room in rooms}
        for room, day, value in self.store.query(
                "SELECT a.room_type_id, a.date, a.availability FROM availability a JOIN room_types r "
                "ON r.id = a.room_type_id WHERE r.property_id = ? AND a.date >= ? AND a.date < ?",
                (property_id, start.isoformat(), end.isoformat())):
            grid[room][day] = value
        return grid

    def restrictions(self, actor: Actor, query: ListQuery) -> dict[str, dict[str, dict[str, Any]]]:
        property_id, start, end = self._range(actor, query)
        wanted = self._fields(query)
        plans = {r["id"]: r["currency"] for r in self.store.query(
            "SELECT id, currency FROM rate_plans WHERE property_id = ? ORDER BY title, id", (property_id,))}
        empty = {k: DEFAULTS[k] for k in wanted}
        grid = {plan: {d.isoformat(): dict(empty) for d in days(start, end)} for plan in plans}
        for row in self.store.query(
                f"SELECT r.rate_plan_id, r.date, {', '.join('r.' + f for f in RESTRICTION_FIELDS)} FROM restrictions r "
                "JOIN rate_plans p ON p.id = r.rate_plan_id WHERE p.property_id = ? AND r.date >= ? AND r.date < ?",
                (property_id, start.isoformat(), end.isoformat())):
            cell = grid[row[0]][row[1]]
            for name in wanted:
                value = row[name]
                if name == "rate":
                    value = None if value is None else format_minor(value, plans[row[0]])
                elif name in BOOLEANS:
                    value = bool(value)
                cell[name] = value
        return grid

    def _range(self, actor: Actor, query: ListQuery) -> tuple[str, date, date]:
        """filter[property_id], filter[date][gte] and filter[date][lte] (both days included)."""
        found = {(f.field, f.op): f.value for f in query.filters}
        errors = Errors()
        property_id = found.get(("property_id", "eq"))
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
        row = self.store.one("SELECT group_id FROM properties WHERE id = ?", (property_id,))
        if row is None:
            raise NotFound(f"property {property_id} does not exist")
        if row["group_id"] not in actor.group_ids:
            raise Unauthorized("you have no access to this property")
        return property_id, bounds["gte"], bounds["lte"] + timedelta(days=1)  # type: ignore[return-value]

    def _fields(self, query: ListQuery) -> tuple[str, ...]:
        asked = next((f.value for f in query.filters if f.field == "restrictions"), None)
        if asked is None:
            return RESTRICTION_FIELDS
        names = tuple(n.strip() for n in asked.split(",") if n.strip())
        unknown = [n for n in names if n not in RESTRICTION_FIELDS]
        if unknown or not names:
            raise ValidationFailed.one("filter[restrictions]", f"use some of {', '.join(RESTRICTION_FIELDS)}")
        return names


def _within(index: int, holder: Holder, dates: list[date], warnings: list) -> list[date]:
    """The dates before the property's state_length ends; the rest are skipped with a warning."""
    end = holder.window.end
    kept = [d for d in dates if d < end]
    if len(kept) < len(dates):
        warnings.append({"index": index, "field": "date",
                         "message": f"{len(dates) - len(kept)} night(s) from {end.isoformat()} on are beyond "
                                    "the property's state_length and were skipped"})
    return kept


def _dates(value: Dated, today: date, prefix: str, errors: Errors) -> list[date]:
    """The dates a value covers, weekday mask applied; problems are added to errors."""
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
    if first < today:
        errors.add(prefix + names[0], f"is in the past (today is {today.isoformat()} at the property)")
        return []
    if last < first:
        errors.add(prefix + "date_to", "must be on or after date_from")
        return []
    if (last - first).days >= MAX_RANGE_DAYS:
        errors.add(prefix + "date_to", f"must be within {MAX_RANGE_DAYS} days of date_from")
        return []
    mask = {WEEKDAYS.index(d) for d in value.days} if value.days else None
    return [d for d in days(first, last + timedelta(days=1)) if mask is None or d.weekday() in mask]
