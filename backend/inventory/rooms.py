"""Room types, rate plans and hotel policies: create, read, update, list and delete, access checked.

Each belongs to a property, and access to the property is access to them: someone else's is 401,
a missing one 404. Update takes the fields of create and changes only those sent.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import from_json

from backend.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.events import EventBus
from backend.fields import currency_minor_digits
from backend.identity import Actor
from backend.inventory.models import HotelPolicyInput, RatePlanInput, RoomTypeInput
from backend.listing import Column, ListQuery, page
from backend.money import format_amount
from backend.validation import as_input, validate
from storage import Store, new_id, utc_now

READ_ONLY = frozenset({"id", "inserted_at", "updated_at"})
ROOM_COLUMNS = {"id": Column("r.id", "id"), "property_id": Column("r.property_id", "id"), "title": Column("r.title"),
                "count_of_rooms": Column("r.count_of_rooms", "number")}
PLAN_COLUMNS = {"id": Column("r.id", "id"), "property_id": Column("r.property_id", "id"),
                "room_type_id": Column("r.room_type_id", "id"), "title": Column("r.title"),
                "currency": Column("r.currency", "enum"), "meal_plan": Column("r.meal_plan", "enum"),
                "sell_mode": Column("r.sell_mode", "enum")}


class Owned:
    """What room types and rate plans share: rows reached through their property's group."""

    table: str
    noun: str
    columns: dict[str, Column]

    def __init__(self, store: Store, events: EventBus) -> None:
        self.store = store
        self.events = events

    def _row(self, actor: Actor, item_id: str):
        row = self.store.one(f"SELECT r.*, p.group_id FROM {self.table} r JOIN properties p ON p.id = r.property_id "
                             "WHERE r.id = ?", (item_id,))
        if row is None:
            raise NotFound(f"{self.noun} {item_id} does not exist")
        if row["group_id"] not in actor.group_ids:
            raise Unauthorized(f"you have no access to this {self.noun}")
        return row

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        marks, groups = actor.group_params()
        rows, meta = page(self.store, query, self.columns, select="r.*",
                          source=f"{self.table} r JOIN properties p ON p.id = r.property_id",
                          scope=f"p.group_id IN ({marks})", scope_params=groups, default_order="r.title, r.id")
        return [self._attributes(r) for r in rows], meta

    def for_property(self, actor: Actor, property_id: str) -> list[dict[str, Any]]:
        self._property(actor, property_id, "property_id", strict=False)
        rows = self.store.query(f"SELECT * FROM {self.table} WHERE property_id = ? ORDER BY title, id", (property_id,))
        return [self._attributes(r) for r in rows]

    def get(self, actor: Actor, item_id: str) -> dict[str, Any]:
        return self._attributes(self._row(actor, item_id))

    def delete(self, actor: Actor, item_id: str) -> None:
        row = self._row(actor, item_id)
        with self.store.transaction() as conn:
            conn.execute(f"DELETE FROM {self.table} WHERE id = ?", (item_id,))
        self.events.publish("inventory.changed", row["property_id"], item=self.noun, action="deleted")

    def _property(self, actor: Actor, property_id: str, field: str, strict: bool = True):
        """The property a body names (422 naming the field) or a path names (404/401)."""
        row = self.store.one("SELECT id, group_id, currency FROM properties WHERE id = ?", (property_id,))
        if row is None or row["group_id"] not in actor.group_ids:
            if strict:
                raise ValidationFailed.one(field, "is not a property of yours")
            if row is None:
                raise NotFound(f"property {property_id} does not exist")
            raise Unauthorized("you have no access to this property")
        return row

    def _insert(self, values: dict[str, Any]) -> str:
        item_id, now = new_id(), utc_now()
        with self.store.transaction() as conn:
            conn.execute(f"INSERT INTO {self.table} (id, {', '.join(values)}, inserted_at, updated_at) "
                         f"VALUES (?, {', '.join('?' * len(values))}, ?, ?)", (item_id, *values.values(), now, now))
        self.events.publish("inventory.changed", values["property_id"], item=self.noun, action="created")
        return item_id

    def _update(self, item_id: str, values: dict[str, Any]) -> None:
        with self.store.transaction() as conn:
            conn.execute(f"UPDATE {self.table} SET {', '.join(f'{k} = ?' for k in values)}, updated_at = ? WHERE id = ?",
                         (*values.values(), utc_now(), item_id))
        self.events.publish("inventory.changed", values["property_id"], item=self.noun, action="updated")

    def _merge(self, actor: Actor, item_id: str, data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        current = self.get(actor, item_id)
        if not isinstance(data, dict):
            raise BadRequest([f"the {self.noun} must be a JSON object"])
        if data.get("property_id", current["property_id"]) != current["property_id"]:
            raise ValidationFailed.one("property_id", f"can't be changed; create a new {self.noun} instead")
        return current, {**current, **{k: v for k, v in data.items() if k not in READ_ONLY}}

    def _attributes(self, row) -> dict[str, Any]:
        raise NotImplementedError


class RoomTypes(Owned):
    table, noun, columns = "room_types", "room type", ROOM_COLUMNS

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(RoomTypeInput, _writable(data, "room type"))
        self._property(actor, model.property_id, "property_id")
        return self.get(actor, self._insert(_room_values(model)))

    def update(self, actor: Actor, room_id: str, data: Any) -> dict[str, Any]:
        _, merged = self._merge(actor, room_id, data)
        model = validate(RoomTypeInput, as_input(RoomTypeInput, merged))
        capacity = model.occ_adults + model.occ_children
        too_big = self.store.query("SELECT title, details FROM rate_plans WHERE room_type_id = ?", (room_id,))
        for plan in too_big:
            largest = max(o["occupancy"] for o in from_json(plan["details"])["options"])
            if largest > capacity:
                raise ValidationFailed.one("occ_adults", f"rate plan {plan['title']!r} sells an occupancy of {largest}; "
                                                         "change it first")
        self._update(room_id, _room_values(model))
        return self.get(actor, room_id)

    def _attributes(self, row) -> dict[str, Any]:
        return {"id": row["id"], "property_id": row["property_id"], "title": row["title"],
                "count_of_rooms": row["count_of_rooms"], "occ_adults": row["occ_adults"],
                "occ_children": row["occ_children"], "occ_infants": row["occ_infants"],
                "default_occupancy": row["default_occupancy"], **from_json(row["details"]),
                "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}


class RatePlans(Owned):
    table, noun, columns = "rate_plans", "rate plan", PLAN_COLUMNS

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(RatePlanInput, _writable(data, "rate plan"))
        currency = self._check(actor, model)
        return self.get(actor, self._insert(_plan_values(model, currency)))

    def update(self, actor: Actor, plan_id: str, data: Any) -> dict[str, Any]:
        current, merged = self._merge(actor, plan_id, data)
        model = validate(RatePlanInput, as_input(RatePlanInput, merged))
        if model.currency != current["currency"] and self.store.scalar(
                "SELECT 1 FROM restrictions WHERE rate_plan_id = ? AND rate IS NOT NULL LIMIT 1", (plan_id,)):
            raise ValidationFailed.one("currency", "can't be changed once rates are stored; create a new rate plan")
        currency = self._check(actor, model)
        self._update(plan_id, _plan_values(model, currency))
        return self.get(actor, plan_id)

    def _check(self, actor: Actor, model: RatePlanInput) -> str:
        """The cross-record rules; returns the plan's currency."""
        prop = self._property(actor, model.property_id, "property_id")
        room = self.store.one("SELECT * FROM room_types WHERE id = ?", (model.room_type_id,))
        errors = Errors()
        if room is None or room["property_id"] != prop["id"]:
            errors.add("room_type_id", "is not a room type of this property")
        else:
            capacity = room["occ_adults"] + room["occ_children"]
            for index, option in enumerate(model.options):
                if option.occupancy > capacity:
                    errors.add(f"options.{index}.occupancy", f"must not exceed the room's capacity of {capacity}")
        currency = model.currency or prop["currency"]
        digits = currency_minor_digits(currency)
        for index, option in enumerate(model.options):
            if option.rate != round(option.rate, digits):
                errors.add(f"options.{index}.rate", f"must have at most {digits} decimals in {currency}")
        errors.raise_if_any()
        return currency

    def _attributes(self, row) -> dict[str, Any]:
        return {"id": row["id"], "property_id": row["property_id"], "room_type_id": row["room_type_id"],
                "title": row["title"], "currency": row["currency"], "sell_mode": row["sell_mode"],
                "meal_plan": row["meal_plan"], **from_json(row["details"]),
                "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}


class HotelPolicies:
    """One policy per property, shown by the shopping API's property_info."""

    def __init__(self, store: Store, events: EventBus, rooms: RoomTypes) -> None:
        self.store = store
        self.events = events
        self.rooms = rooms

    def get(self, actor: Actor, property_id: str) -> dict[str, Any] | None:
        self.rooms._property(actor, property_id, "property_id", strict=False)
        return self.read(property_id)

    def read(self, property_id: str) -> dict[str, Any] | None:
        row = self.store.one("SELECT policy FROM hotel_policies WHERE property_id = ?", (property_id,))
        return None if row is None else {"property_id": property_id, **from_json(row["policy"])}

    def put(self, actor: Actor, property_id: str, data: Any) -> dict[str, Any]:
        prop = self.rooms._property(actor, property_id, "property_id", strict=False)
        current = self.read(property_id) or {}
        model = validate(HotelPolicyInput, {**{k: v for k, v in current.items() if k != "property_id"},
                                            **_writable(data, "hotel policy", {"property_id"})})
        currency = model.currency or prop["currency"]
        policy = {**model.model_dump(), "currency": currency}
        for key in ("internet_access_cost", "pets_non_refundable_fee", "pets_refundable_deposit"):
            policy[key] = format_amount(policy[key], currency)
        with self.store.transaction() as conn:
            conn.execute("INSERT INTO hotel_policies (property_id, policy, updated_at) VALUES (?, ?, ?) "
                         "ON CONFLICT(property_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at",
                         (property_id, json.dumps(policy), utc_now()))
        self.events.publish("inventory.changed", property_id, item="hotel policy", action="updated")
        return self.read(property_id)  # type: ignore[return-value]


def _writable(data: Any, noun: str, extra: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest([f"the {noun} must be a JSON object"])
    return {k: v for k, v in data.items() if k not in READ_ONLY | extra}


def _room_values(model: RoomTypeInput) -> dict[str, Any]:
    details = model.model_dump(include={"description", "bed_options", "facilities", "photos"})
    return {"property_id": model.property_id, "title": model.title, "count_of_rooms": model.count_of_rooms,
            "occ_adults": model.occ_adults, "occ_children": model.occ_children, "occ_infants": model.occ_infants,
            "default_occupancy": model.default_occupancy or model.occ_adults, "details": json.dumps(details)}


def _plan_values(model: RatePlanInput, currency: str) -> dict[str, Any]:
    policy = model.cancellation_policy.model_dump()
    policy["currency"] = policy["currency"] or currency
    policy["cancellation_policy_penalty"] = str(policy["cancellation_policy_penalty"])
    policy["guarantee_payment_amount"] = format_amount(policy["guarantee_payment_amount"], policy["currency"])
    details = {
        "options": [{"occupancy": o.occupancy, "is_primary": o.is_primary, "rate": format_amount(o.rate, currency)}
                    for o in model.options],
        "cancellation_policy": policy,
        "taxes": [{"title": t.title, "mode": t.mode, "rate": str(t.rate), "inclusive": t.inclusive, "amount": None}
                  for t in model.taxes],
    }
    return {"property_id": model.property_id, "room_type_id": model.room_type_id, "title": model.title,
            "currency": currency, "sell_mode": model.sell_mode, "meal_plan": model.meal_plan,
            "details": json.dumps(details)}
