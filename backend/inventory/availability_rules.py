"""The service's availability rules collection (reference §9), per property: whoever reaches the property manages its
rules (another group's is a 401). What a rule does to the channels it names is backend/inventory/channel_rules.py.

A rule names channels connected to its property and room types of it. Every change is one transaction under the
property's write scope (backend/core/scopes.py), the scope a booking's push takes too: a push either lands before a
rule that closes its nights or is refused after it, never sold in between. In that transaction the channels hear of
it as of any availability write: an `ari` event, for that channel alone, per channel and room type the rule named
before or names now, over the nights it covered or covers (cut to the property's window; the channel is sent the
values read when it leaves), and the sellable index of those nights is made again.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Annotated, Any, cast

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from pydantic_core import from_json

from backend.core.dates import parse_date
from backend.core.errors import (
    BadRequest,
    Errors,
    NotFound,
    NotFoundAsSpelt,
    ResourceNotFound,
    Unauthorized,
    ValidationFailed,
)
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.scopes import property_scope
from backend.core.validation import validate
from backend.identity.access import reaches
from backend.identity.models import Actor
from backend.inventory import sellable
from backend.inventory.channel_rules import WEEKDAYS, RuleType, Weekday
from backend.inventory.store import (
    connected_channel_ids,
    delete_rule,
    property_access,
    property_room_ids,
    property_row_in,
    put_rule,
    rule_channels,
    rule_page,
    rule_row,
)
from backend.inventory.window import window_of
from backend.outbox.record import record
from storage import Connection, Row, Store, new_id, utc_now

MAX_TITLE = 255
MAX_CHANNELS = 50
MAX_ROOM_TYPES = 200
MAX_VALUE = 100_000
MAX_SPAN_DAYS = 3 * 366  # start_date to end_date, both included; an open-ended rule has no end
NEWEST_FIRST = {"order_by": "inserted_at", "order_direction": "desc"}
READ_ONLY = frozenset({"id", "inserted_at", "updated_at"})  # sent back by clients that PUT what they read
BLANK = "can't be blank"
Id = Annotated[StrictStr, Field(max_length=64)]  # an ID is a UUID; anything longer names nothing


class RuleInput(BaseModel):
    """A rule as `{"channel_availability_rule": {...}}` gives it; required fields are checked beside (a blank one is
    the service's "can't be blank")."""

    model_config = ConfigDict(extra="forbid")

    property_id: Id | None = None
    title: Annotated[StrictStr, Field(max_length=MAX_TITLE)] | None = None
    type: RuleType | None = Field(None, description="close_out, availability_offset or max_availability")
    value: Annotated[StrictInt, Field(ge=0, le=MAX_VALUE)] | None = Field(
        None, description="rooms: the offset or the ceiling; required for those two, ignored for a close out")
    affected_channels: Annotated[list[Id], Field(max_length=MAX_CHANNELS)] | None = Field(
        None, description="channels connected to the property")
    affected_room_types: Annotated[list[Id], Field(max_length=MAX_ROOM_TYPES)] | None = Field(
        None, description="room types of the property")
    days: Annotated[list[Weekday], Field(max_length=len(WEEKDAYS))] | None = Field(
        None, description="weekdays mo..su the rule applies on; empty: every day")
    start_date: StrictStr | None = None
    end_date: StrictStr | None = Field(None, description="the last night; none: open-ended")


class RuleEnvelope(BaseModel):
    channel_availability_rule: RuleInput


class AvailabilityRules:
    def __init__(self, store: Store, events: EventBus, clock: Callable[[], datetime]) -> None:
        self.store, self.events, self.clock = store, events, clock

    # --- reading -----------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The rules of the actor's properties, newest first; `filter[property_id]` naming another group's
        property is a 401."""
        for wanted in query.filters:
            if wanted.field == "property_id":
                for property_id in wanted.value.split(","):
                    row = property_access(self.store, property_id)
                    if row is not None and not reaches(self.store, actor, row["id"], row["group_id"]):
                        raise Unauthorized("you have no access to this property")
        rows, meta = rule_page(self.store, query, actor)
        channels = rule_channels(self.store, [r["id"] for r in rows]) if rows else {}
        return [_attributes(row, channels[row["id"]]) for row in rows], {**meta, **NEWEST_FIRST}

    def get(self, actor: Actor, rule_id: str, missing: type[NotFound] = NotFoundAsSpelt) -> dict[str, Any]:
        row = rule_row(self.store, rule_id)
        if row is None:
            raise missing(f"availability rule {rule_id} does not exist")
        if not reaches(self.store, actor, row["property_id"], row["group_id"]):
            raise Unauthorized("you have no access to this availability rule")
        return _attributes(row, rule_channels(self.store, [rule_id])[rule_id])

    # --- writing -----------------------------------------------------------------------------

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(RuleInput, _writable(data))
        property_id = model.property_id
        if isinstance(property_id, str):
            prop = property_access(self.store, property_id)
            if prop is not None and not reaches(self.store, actor, prop["id"], prop["group_id"]):
                raise Unauthorized("you have no access to this property")
        rule_id = new_id()
        with self.store.transaction(property_scope(property_id)) as conn:
            values = self._checked(conn, model)
            values["id"] = rule_id
            put_rule(conn, _columns(values), values["affected_channels"], utc_now(), new=True)
            self._tell(conn, values["property_id"], [values])
        self.events.publish("inventory.changed", values["property_id"], item="availability rule", action="created")
        return self.get(actor, rule_id)

    def update(self, actor: Actor, rule_id: str, data: Any) -> dict[str, Any]:
        """Only the fields sent change; the property can't."""
        given = _writable(data)
        current = self.get(actor, rule_id, ResourceNotFound)
        property_id = current["property_id"]
        if given.get("property_id", property_id) != property_id:
            raise ValidationFailed.one("property_id", "can't be changed; create a rule for the other property")
        validate(RuleInput, given)  # the body's own problems first
        with self.store.transaction(property_scope(property_id)) as conn:
            current = self.get(actor, rule_id, ResourceNotFound)  # as it is now, under the scope: a change meanwhile is kept
            values = self._checked(conn, validate(RuleInput, {**_as_input(current), **given}))
            values["id"] = rule_id
            put_rule(conn, _columns(values), values["affected_channels"], utc_now(), new=False)
            self._tell(conn, property_id, [current, values])
        self.events.publish("inventory.changed", property_id, item="availability rule", action="updated")
        return self.get(actor, rule_id)

    def delete(self, actor: Actor, rule_id: str) -> None:
        property_id = self.get(actor, rule_id, ResourceNotFound)["property_id"]
        with self.store.transaction(property_scope(property_id)) as conn:
            current = self.get(actor, rule_id, ResourceNotFound)
            delete_rule(conn, rule_id)
            self._tell(conn, property_id, [current])
        self.events.publish("inventory.changed", property_id, item="availability rule", action="deleted")

    def _checked(self, conn: Connection, model: RuleInput) -> dict[str, Any]:
        """The rule's values, every problem at once (422); read in the write's transaction."""
        errors = Errors()
        for name in ("title", "type", "property_id", "start_date", "affected_channels", "affected_room_types"):
            if _blank(getattr(model, name)):
                errors.add(name, BLANK)
        if model.type in ("availability_offset", "max_availability") and model.value is None:
            errors.add("value", BLANK)
        start, end = _date(model, "start_date", errors), _date(model, "end_date", errors)
        if start and end and end < start:
            errors.add("end_date", "must not be before start_date")
        elif start and end and (end - start).days + 1 > MAX_SPAN_DAYS:
            errors.add("end_date", f"may be at most {MAX_SPAN_DAYS} days after start_date (or leave it out: open-ended)")
        prop = property_row_in(conn, model.property_id) if model.property_id else None
        if model.property_id and prop is None:
            errors.add("property_id", "is not a property of yours")
        channels = list(dict.fromkeys(model.affected_channels or ()))
        rooms = list(dict.fromkeys(model.affected_room_types or ()))
        if prop is not None:
            connected = connected_channel_ids(conn, prop["id"], channels) if channels else set()
            for index, channel_id in enumerate(model.affected_channels or ()):
                if channel_id not in connected:
                    errors.add(f"affected_channels.{index}", "is not a channel connected to the property")
            found = property_room_ids(conn, prop["id"], rooms) if rooms else set()
            for index, room_id in enumerate(model.affected_room_types or ()):
                if room_id not in found:
                    errors.add(f"affected_room_types.{index}", "is not a room type of the property")
        errors.raise_if_any()
        return {"property_id": model.property_id, "title": model.title, "type": model.type,
                "value": None if model.type == "close_out" else model.value,
                "days": [day for day in WEEKDAYS if day in set(model.days or ())],
                "start_date": model.start_date, "end_date": model.end_date or None,
                "affected_channels": channels, "affected_room_types": rooms}

    def _tell(self, conn: Connection, property_id: str, rules: builtins.list[dict[str, Any]]) -> None:
        """The channels and the sellable index hear of what the rules (as they were and as they are) cover."""
        prop = cast(Row, property_row_in(conn, property_id))  # the rules' property, as this transaction reads it
        window = window_of(prop, self.clock())
        last_night = window.end - timedelta(days=1)
        for rule in rules:
            first = max(date.fromisoformat(rule["start_date"]), window.today)
            last = min(date.fromisoformat(rule["end_date"]), last_night) if rule["end_date"] else last_night
            if first > last:
                continue
            for channel_id in rule["affected_channels"]:
                for room_id in rule["affected_room_types"]:
                    record(conn, "ari", property_id, {"property_id": property_id, "room_type_id": room_id,
                                                      "date_from": first.isoformat(), "date_to": last.isoformat()},
                           channel_id=channel_id)
        if any(rule["end_date"] is None for rule in rules):
            sellable.refresh(self.store, [property_id])
        else:
            sellable.refresh(self.store, [property_id], min(r["start_date"] for r in rules),
                             max(r["end_date"] for r in rules))


def _blank(value: Any) -> bool:
    return value is None or value == [] or (isinstance(value, str) and not value.strip())


def _date(model: RuleInput, name: str, errors: Errors) -> date | None:
    raw = getattr(model, name)
    if not raw:
        return None
    try:
        return parse_date(raw)
    except ValueError as exc:
        errors.add(name, str(exc))
        return None


def _writable(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(["the channel_availability_rule must be a JSON object"])
    return {k: v for k, v in data.items() if k not in READ_ONLY}


def _columns(values: dict[str, Any]) -> dict[str, Any]:
    return {**values, "days": json.dumps(values["days"]),
            "affected_room_types": json.dumps(values["affected_room_types"])}


def _as_input(attributes: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attributes.items() if k in RuleInput.model_fields}


def _attributes(row: Row, channels: list[str]) -> dict[str, Any]:
    """The service's attributes, and `property_id` (its relationship)."""
    return {"id": row["id"], "type": row["type"], "value": row["value"], "title": row["title"],
            "days": from_json(row["days"]), "start_date": row["start_date"], "end_date": row["end_date"],
            "affected_channels": channels, "affected_room_types": from_json(row["affected_room_types"]),
            "property_id": row["property_id"]}
