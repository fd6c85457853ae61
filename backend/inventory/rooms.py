"""Room types, rate plans and hotel policies: create, read, update, list and delete, access checked.

Each belongs to a property, and access to the property is access to them: someone else's is 401,
a missing one 404. Update takes the fields of create and changes only those sent. A rate plan's change that
makes its nights read otherwise (its weekday defaults, parent, modifiers, inherit flags, room type or primary
occupancy) is an `ari` event of the outbox over its property's window, as a write of its nights would be. A rate
plan or room type deleted, or a plan moved to another room type, tells the channels that sold it (a closing under
their codes, backend/distribution/remap.py), in the same transaction.
"""

from __future__ import annotations

import builtins
import json
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any, cast

from pydantic_core import from_json

from backend.core.dates import utc_clock
from backend.core.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.money import canonical, in_currency
from backend.core.validation import as_input, as_sent, failed, validate, validate_partly
from backend.distribution import remap
from backend.identity.access import owned_property, reaches
from backend.identity.models import Actor
from backend.inventory import sellable
from backend.inventory.models import (
    INHERITS,
    WEEKLY,
    DerivedOption,
    HotelPolicyInput,
    RatePlanInput,
    RoomTypeInput,
    complete,
)
from backend.inventory.photos import Photos, of_rooms
from backend.inventory.stays import Plan
from backend.inventory.store import (
    child_plans,
    delete_hotel_policy,
    delete_owned,
    derived_elsewhere,
    has_rates,
    hotel_policies_page,
    hotel_policy,
    hotel_policy_row,
    insert_free_hotel_policy,
    insert_owned,
    link_hotel_policy,
    move_hotel_policy,
    owned_of_property,
    owned_options,
    owned_page,
    owned_row,
    owned_row_in,
    parent_plan,
    property_access,
    property_currency,
    property_row_in,
    put_hotel_policy,
    room_plan_details,
    room_plan_ids,
    room_type,
    set_hotel_policy,
    update_owned,
)
from backend.inventory.tax_sets import PlanTaxes
from backend.inventory.taxes import rate_of
from backend.inventory.window import window_of
from backend.outbox import record as outbox
from storage import Connection, Reads, Row, Store, new_id, utc_now

READ_ONLY = frozenset({"id", "inserted_at", "updated_at"})
POLICY_ALIASES = {"checkin_time": "checkin_from_time", "checkout_time": "checkout_to_time"}
# Our older values of a policy's fields, read as the service's (storage/0008 and 0012 rewrote the stored ones).
OLDER_VALUES = {"pets_policy": ("by_arrangement", "by_arrangements"), "parking_type": ("nearby", "location_nearby")}
# What a failed required field is taken to be while the rest of a record is judged (backend/core/validation.py).
ROOM_STAND_INS = {"title": "-", "count_of_rooms": 0, "occ_adults": 1}
PLAN_STAND_INS = {"title": "-", "options": [{"occupancy": 1, "is_primary": True}]}


class Owned:
    """What room types and rate plans share: rows reached through their property's group."""

    table: str  # its filters and orders are the store's (backend/inventory/store.py)
    noun: str
    option_fields: tuple[str, ...]  # besides id and title, what an /options item shows

    def __init__(self, store: Store, events: EventBus, clock: Callable[[], datetime] = utc_clock) -> None:
        self.store = store
        self.events = events
        self.clock = clock

    def _row(self, actor: Actor, item_id: str) -> Row:
        return owned_property(self.store, actor, owned_row(self.store, self.table, item_id), self.noun, item_id)

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = owned_page(self.store, self.table, query, actor)
        return self._all_attributes(rows), meta

    def options(self, actor: Actor, query: ListQuery) -> builtins.list[dict[str, Any]]:
        """Every one the actor may see, short and unpaginated (the service's `/options`): the list's filters and
        order apply, its pagination does not."""
        rows = owned_options(self.store, self.table, query, actor)
        return [self._option(r) for r in rows]

    def _option(self, row: Row) -> dict[str, Any]:
        return {"id": row["id"], "title": row["title"], **{name: row[name] for name in self.option_fields}}

    def for_property(self, actor: Actor, property_id: str) -> builtins.list[dict[str, Any]]:
        self._property(actor, property_id, "property_id", strict=False)
        rows = owned_of_property(self.store, self.table, property_id)
        return self._all_attributes(rows)

    def get(self, actor: Actor, item_id: str) -> dict[str, Any]:
        return self._all_attributes([self._row(actor, item_id)])[0]

    def delete(self, actor: Actor, item_id: str) -> None:
        row = self._row(actor, item_id)
        with self.store.transaction() as conn:
            self._check_delete(row)  # in the transaction: nothing can come to depend on it meanwhile
            selling = remap.watching(conn, self._plans_of(conn, item_id), self.clock())
            delete_owned(conn, self.table, item_id)
            remap.told(conn, selling, self.clock())  # the channels that sold it close it
            sellable.refresh(self.store, [row["property_id"]])
        self.events.publish("inventory.changed", row["property_id"], item=self.noun, action="deleted")

    def _property(self, actor: Actor, property_id: str, field: str, strict: bool = True) -> Row:
        """The property a body names (422 naming the field) or a path names (404/401)."""
        row = property_access(self.store, property_id)
        if row is None or not reaches(self.store, actor, property_id, row["group_id"]):
            if strict:
                raise ValidationFailed.one(field, "is not a property of yours")
            if row is None:
                raise NotFound(f"property {property_id} does not exist")
            raise Unauthorized("you have no access to this property")
        return row

    def _insert(self, values: dict[str, Any]) -> str:
        item_id, now = new_id(), utc_now()
        with self.store.transaction() as conn:
            insert_owned(conn, self.table, item_id, values, now)
            sellable.refresh(self.store, [values["property_id"]])
        self.events.publish("inventory.changed", values["property_id"], item=self.noun, action="created")
        return item_id

    def _update(self, item_id: str, values: dict[str, Any],
                also: Callable[[Connection, Row], None] | None = None) -> None:
        """`also(conn, before)`: more of the change, in its transaction, given the row as it was (a rate plan's ARI
        event)."""
        with self.store.transaction() as conn:
            before = cast(Row, owned_row_in(conn, self.table, item_id))  # _merge found it
            moves = self._moves(before, values)
            selling = remap.watching(conn, self._plans_of(conn, item_id), self.clock()) if moves else {}
            update_owned(conn, self.table, item_id, values, utc_now())
            if also is not None:
                also(conn, before)
            remap.told(conn, selling, self.clock())  # a plan moved to another room type: its channels see it anew
            sellable.refresh(self.store, [before["property_id"]])
        self.events.publish("inventory.changed", values["property_id"], item=self.noun, action="updated")

    def _merge(self, actor: Actor, item_id: str, data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        current = self.get(actor, item_id)
        if not isinstance(data, dict):
            raise BadRequest([f"the {self.noun} must be a JSON object"])
        if data.get("property_id", current["property_id"]) != current["property_id"]:
            raise ValidationFailed.one("property_id", f"can't be changed; create a new {self.noun} instead")
        return current, {**current, **{k: v for k, v in data.items() if k not in READ_ONLY}}

    def _attributes(self, row: Row) -> dict[str, Any]:
        raise NotImplementedError

    def _all_attributes(self, rows: builtins.list[Row]) -> builtins.list[dict[str, Any]]:
        """Several rows' attributes, with what they read elsewhere read once for all."""
        return [self._attributes(r) for r in rows]

    def _check_delete(self, row: Row) -> None:
        """Refuses (a 422) when something else still needs the row."""

    def _plans_of(self, conn: Connection, item_id: str) -> builtins.list[str]:
        """The rate plans that go with it (the channels that sell them are told)."""
        return [item_id]

    def _moves(self, before: Row, values: dict[str, Any]) -> bool:
        """Whether an update changes what channels sell it as (a rate plan's room type)."""
        return False


class RoomTypes(Owned):
    table, noun = "room_types", "room type"
    option_fields = ("property_id", "occ_adults", "occ_children", "occ_infants", "default_occupancy")

    # Each change reads, checks and writes in one transaction: what it checks against (the room's rate plans, the
    # plans a plan derives from or that derive from it) can't change before it writes.

    def __init__(self, store: Store, events: EventBus, clock: Callable[[], datetime], photos: Photos) -> None:
        super().__init__(store, events, clock)
        self.photos = photos  # `content.photos`: the room type's rows of the photo store

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        found, errors = _room_model(_writable(data, "room type"))
        errors.raise_if_any()
        model = cast(RoomTypeInput, found)  # None only with problems, raised above
        with self.store.transaction() as conn:
            self._property(actor, model.property_id, "property_id")
            room_id = self._insert(_room_values(model))
            self.photos.apply(conn, model.property_id, room_id, model.content.photos)
            return self.get(actor, room_id)

    def update(self, actor: Actor, room_id: str, data: Any) -> dict[str, Any]:
        with self.store.transaction():
            current, _ = self._merge(actor, room_id, data)  # access, a JSON object, the same property
            model, errors = _room_model({k: v for k, v in data.items() if k not in READ_ONLY},
                                        as_input(RoomTypeInput, current))
            if model is not None and not failed(errors.details) & {"occ_adults", "occ_children"}:
                self._check_capacity(room_id, model.occ_adults + model.occ_children, errors)
            errors.raise_if_any()
            model = cast(RoomTypeInput, model)  # None only with problems, raised above
            photos = model.content.photos
            self._update(room_id, _room_values(model),
                         also=lambda conn, before: self.photos.apply(conn, before["property_id"], room_id, photos))
            return self.get(actor, room_id)

    def _check_capacity(self, room_id: str, capacity: int, errors: Errors) -> None:
        """The room must still hold the largest occupancy each of its rate plans sells."""
        for plan in room_plan_details(self.store, room_id):
            largest = max(o["occupancy"] for o in from_json(plan["details"])["options"])
            if largest > capacity:
                errors.add("occ_adults", f"rate plan {plan['title']!r} sells an occupancy of {largest}; change it first")
                return

    def _plans_of(self, conn: Connection, item_id: str) -> list[str]:
        return room_plan_ids(conn, item_id)

    def _check_delete(self, row: Row) -> None:
        """Its rate plans go with it, but not one that a plan of another room type derives from."""
        children = derived_elsewhere(self.store, row["id"])
        if children:
            raise ValidationFailed.one("room_type", f"sells the parent of derived rate plans of other room types "
                                                    f"({_titles(children)}): delete them or make them manual first")

    def _all_attributes(self, rows: list[Any]) -> list[dict[str, Any]]:
        photos = of_rooms(self.store, [r["id"] for r in rows])
        return [self._attributes(r, photos[r["id"]]) for r in rows]

    def _attributes(self, row: Row, photos: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        details = from_json(row["details"])
        return {"id": row["id"], "property_id": row["property_id"], "title": row["title"],
                "count_of_rooms": row["count_of_rooms"], "occ_adults": row["occ_adults"],
                "occ_children": row["occ_children"], "occ_infants": row["occ_infants"],
                "default_occupancy": row["default_occupancy"], "room_kind": details.get("room_kind", "room"),
                "capacity": details.get("capacity"),
                "content": {"description": details["description"], "photos": photos or []},
                "bed_options": details["bed_options"], "facilities": details["facilities"],
                "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}


class RatePlans(Owned):
    """Rate plans; a derived one (rate_mode "derived") follows a manual plan of its property, its parent: its
    rate is the parent's through the primary option's modifiers, and each restriction its inherit_* flags
    name is the parent's, both computed on every read (backend/inventory/stays.py). No chains: a parent is
    manual. A parent can't be deleted while plans derive from it."""

    table, noun = "rate_plans", "rate plan"
    option_fields = ("property_id", "room_type_id", "parent_rate_plan_id", "currency", "sell_mode")

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        """Its tax set: `tax_set_id`, its own made from `taxes[]`, or the property's default (backend/inventory/
        tax_sets.py)."""
        with self.store.transaction() as conn:
            sent = _writable(data, "rate plan")
            model, currency = self._checked(actor, sent, None)
            chosen = self.taxes.chosen(sent, model, currency, None)
            plan_id = self._insert({**_plan_values(model, currency), "tax_set_id": chosen})
            self.taxes.write(conn, plan_id, sent, model, currency, chosen)
            return self.get(actor, plan_id)

    def update(self, actor: Actor, plan_id: str, data: Any) -> dict[str, Any]:
        with self.store.transaction():
            current, merged = self._merge(actor, plan_id, data)
            model, currency = self._checked(actor, as_input(RatePlanInput, _implied(merged, data)), plan_id, current)
            sent = _tax_keys(data, current, model, currency)
            chosen = self.taxes.chosen(sent, model, currency, current)
            values = {**_plan_values(model, currency), "tax_set_id": chosen}

            def also(conn: Connection, before: Row) -> None:
                self._ari_changed(conn, before, values)
                self.taxes.write(conn, plan_id, sent, model, currency, chosen)

            self._update(plan_id, values, also=also)
            return self.get(actor, plan_id)

    @cached_property
    def taxes(self) -> PlanTaxes:
        return PlanTaxes(self.store)

    def _moves(self, before: Row, values: dict[str, Any]) -> bool:
        return cast(bool, values["room_type_id"] != before["room_type_id"])

    def _ari_changed(self, conn: Connection, before: Row, values: dict[str, Any]) -> None:
        """When the change makes the plan's nights read otherwise though no night was written (its weekday defaults,
        modifiers, ...): an ARI event over its property's whole window, for the plan and each plan derived from it,
        so that channels and webhooks hear of it."""
        if _as_read(Plan.of(before)) == _as_read(Plan.of({**dict(before), **values})):
            return
        prop = cast(Row, property_row_in(conn, before["property_id"]))  # the plan's, in this transaction
        window = window_of(prop, self.clock())
        outbox.rates_changed(conn, before["property_id"], before["id"],
                             (window.today.isoformat(), (window.end - timedelta(days=1)).isoformat()))

    def _checked(self, actor: Actor, data: dict[str, Any], plan_id: str | None,
                 current: dict[str, Any] | None = None) -> tuple[RatePlanInput, str]:
        """The plan and its currency, or every problem with it in one 422: its fields' own, and what the rules that
        read other records (its property, room type, parent, children, stored rates) say of the fields that
        passed."""
        model, details = self._validate(actor, data)
        errors = Errors()
        errors.merge(details)
        currency = ""
        if model is not None:
            rules = Errors()
            currency = self._check(actor, model, plan_id, rules)
            if (current is not None and plan_id is not None and model.currency != current["currency"]
                    and has_rates(self.store, plan_id)):
                rules.add("currency", "can't be changed once rates are stored; create a new rate plan")
            bad = failed(details)
            errors.merge({path: texts for path, texts in rules.details.items() if path.split(".")[0] not in bad})
        errors.raise_if_any()
        return cast(RatePlanInput, model), currency  # None only with problems, raised above

    def _validate(self, actor: Actor, data: dict[str, Any]) -> tuple[RatePlanInput | None, dict[str, list[str]]]:
        """Amounts are read in the plan's currency: its own, else its property's (when the actor's)."""
        currency = data.get("currency")
        if currency is None and isinstance(data.get("property_id"), str):
            currency = property_currency(self.store, data["property_id"], actor)
        return validate_partly(RatePlanInput, data, in_currency(currency), PLAN_STAND_INS)

    def _check(self, actor: Actor, model: RatePlanInput, plan_id: str | None, errors: Errors) -> str:
        """The cross-record rules, into errors; returns the plan's currency."""
        prop = self._property(actor, model.property_id, "property_id")
        room = room_type(self.store, model.room_type_id)
        if room is None or room["property_id"] != prop["id"]:
            errors.add("room_type_id", "is not a room type of this property")
        else:
            capacity = room["occ_adults"] + room["occ_children"]
            for index, option in enumerate(model.options):
                if option.occupancy > capacity:
                    errors.add(f"options.{index}.occupancy", f"must not exceed the room's capacity of {capacity}")
        currency = model.currency or prop["currency"]
        if model.cancellation_policy.currency not in (None, currency):  # its amounts are read in the plan's
            errors.add("cancellation_policy.currency", f"must be the rate plan's currency, {currency}")
        if model.meal_type and model.meal_plan and model.meal_type != model.meal_plan:
            errors.add("meal_plan", "must be the same as meal_type: it is that field's earlier name")
        if model.rate_mode == "derived":
            self._check_parent(model, plan_id, currency, errors)
        else:
            _check_manual(model, errors)
        if plan_id is not None:
            self._check_children(model, plan_id, currency, errors)
        return currency

    def _check_parent(self, model: RatePlanInput, plan_id: str | None, currency: str, errors: Errors) -> None:
        if model.inherit_rate is False:
            errors.add("inherit_rate", "is always true for a derived rate plan: its rate follows its parent")
        for index, option in enumerate(model.options):
            if option.derived_option and option.derived_option.rate and not option.is_primary:
                errors.add(f"options.{index}.derived_option", "only the primary option derives from the parent "
                                                               "(cascade, deriving every option, is not supported)")
        if model.parent_rate_plan_id is None:
            errors.add("parent_rate_plan_id", "is required for a derived rate plan")
            return
        parent = parent_plan(self.store, model.parent_rate_plan_id)
        if parent is None or parent["property_id"] != model.property_id:
            errors.add("parent_rate_plan_id", "is not a rate plan of this property")
        elif model.parent_rate_plan_id == plan_id:
            errors.add("parent_rate_plan_id", "can't be the rate plan itself")
        elif parent["parent_rate_plan_id"] is not None:
            errors.add("parent_rate_plan_id", f"“{parent['title']}” is derived itself: a parent must be a manual "
                                              "rate plan")
        elif parent["currency"] != currency:
            errors.add("parent_rate_plan_id", f"“{parent['title']}” is in {parent['currency']}: a derived rate "
                                              "plan is in its parent's currency")

    def _check_children(self, model: RatePlanInput, plan_id: str, currency: str, errors: Errors) -> None:
        """A parent stays manual and in its children's currency."""
        children = self._children(plan_id)
        if children and model.rate_mode == "derived":
            errors.add("rate_mode", f"must stay manual: {_titles(children)} derive(s) from this rate plan")
        if children and any(child["currency"] != currency for child in children):
            errors.add("currency", f"can't change while {_titles(children)} derive(s) from this rate plan")

    def _children(self, plan_id: str) -> list[Any]:
        return child_plans(self.store, plan_id)

    def _check_delete(self, row: Row) -> None:
        if children := self._children(row["id"]):
            raise ValidationFailed.one("rate_plan", f"has derived rate plans ({_titles(children)}): delete them or "
                                                    "make them manual first")

    def _option(self, row: Row) -> dict[str, Any]:
        """The service's item (reference §15): the plan's `occupancy` and `rate_category_id` are its primary
        option's."""
        primary = next(o for o in complete(from_json(row["details"]), row["currency"])["options"] if o["is_primary"])
        return {**super()._option(row), "occupancy": primary["occupancy"], "rate_category_id": primary["rate_category_id"]}

    def _all_attributes(self, rows: list[Any]) -> list[dict[str, Any]]:
        """Each with its tax set's taxes as `taxes[]`, read for the page at once."""
        taxes = self.taxes.shown([row["tax_set_id"] for row in rows if row["tax_set_id"]])
        return [self._attributes(row, taxes.get(row["tax_set_id"], [])) for row in rows]

    def _attributes(self, row: Row, taxes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        details = complete(from_json(row["details"]), row["currency"])
        options = [{"id": _option_id(row["id"], option["occupancy"]), **option} for option in details.pop("options")]
        if taxes is None:
            taxes = self.taxes.shown([row["tax_set_id"]]).get(row["tax_set_id"], []) if row["tax_set_id"] else []
        return {"id": row["id"], "property_id": row["property_id"], "room_type_id": row["room_type_id"],
                "title": row["title"], "currency": row["currency"], "sell_mode": row["sell_mode"],
                "rate_mode": "manual" if row["parent_rate_plan_id"] is None else "derived",
                "meal_type": row["meal_type"], "meal_plan": row["meal_type"],
                "parent_rate_plan_id": row["parent_rate_plan_id"], "options": options, **details,
                "tax_set_id": row["tax_set_id"], "taxes": taxes,
                "auto_rate_settings": None, "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}


class HotelPolicies:
    """One policy per property, shown by the shopping API's property_info. It is reached under its property
    (ours) and by its own ID, as the service's Hotel Policy Collection has it
    (https://docs.channex.io/api-v.1-documentation/hotel-policy-collection), where `checkin_time` and
    `checkout_time` are our `checkin_from_time` and `checkout_to_time` (sent with a different value, an error)."""

    def __init__(self, store: Store, events: EventBus, rooms: RoomTypes) -> None:
        self.store = store
        self.events = events
        self.rooms = rooms

    def get(self, actor: Actor, property_id: str) -> dict[str, Any] | None:
        self.rooms._property(actor, property_id, "property_id", strict=False)
        return self.read(property_id)

    def read(self, property_id: str) -> dict[str, Any] | None:
        return policy_of(self.store, property_id)

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = hotel_policies_page(self.store, query, actor)
        return [_policy(r) for r in rows], meta

    def by_id(self, actor: Actor, policy_id: str) -> dict[str, Any]:
        return _policy(self._row(actor, policy_id))

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        """A policy for a property that has none (`property_id`), or, without one, a policy of the actor's group
        that a property names later by its `hotel_policy_id` (as the service's clients do; `currency` required)."""
        property_id = _writable(data, "hotel policy").get("property_id")
        if property_id is None:
            policy = self._checked({}, data, None)
            policy_id, group_id = new_id(), actor.default_group_id
            with self.store.transaction() as conn:
                insert_free_hotel_policy(conn, policy_id, group_id, json.dumps(policy), utc_now())
            return self.by_id(actor, policy_id)
        if not isinstance(property_id, str):
            raise ValidationFailed.one("property_id", "must be the ID of the property the policy is for, or left out")
        with self.store.transaction():  # of two creates at once, the second finds the first's
            self.rooms._property(actor, property_id, "property_id")
            if existing := self.read(property_id):
                raise ValidationFailed.one("property_id", f"already has a hotel policy ({existing['id']}): change "
                                                          f"it with PUT /api/v1/hotel_policies/{existing['id']}")
            return self.put(actor, property_id, data)

    def update(self, actor: Actor, policy_id: str, data: Any) -> dict[str, Any]:
        with self.store.transaction() as conn:  # a policy deleted meanwhile is not made again under a new id
            row = self._row(actor, policy_id)
            if _writable(data, "hotel policy").get("property_id", row["property_id"]) != row["property_id"]:
                raise ValidationFailed.one("property_id", "can't be changed: a property names its policy by its "
                                                          "hotel_policy_id")
            if row["property_id"] is None:
                policy = self._checked(_policy(row), data, None)
                set_hotel_policy(conn, policy_id, json.dumps(policy), utc_now())
                return self.by_id(actor, policy_id)
            return self.put(actor, row["property_id"], data)

    def link(self, conn: Connection, actor: Actor, prop: dict[str, Any], policy_id: Any) -> None:
        """A property's `hotel_policy_id` (None: no policy) in the caller's transaction: a policy of its group, no
        other property's; the one it had is left to the group. A 422 otherwise, nothing changed."""
        if policy_id is not None:
            row = hotel_policy_row(self.store, policy_id) if isinstance(policy_id, str) else None
            if row is None or row["group_id"] not in actor.group_ids:
                raise ValidationFailed.one("hotel_policy_id", "is not a hotel policy of yours")
            if row["group_id"] != prop["group_id"]:
                raise ValidationFailed.one("hotel_policy_id", "is a policy of another group than the property's")
        if not link_hotel_policy(conn, prop["id"], policy_id, prop["group_id"]):
            raise ValidationFailed.one("hotel_policy_id", "is the policy of another property: a policy is one "
                                                          "property's")
        self.events.publish("inventory.changed", prop["id"], item="hotel policy", action="updated")

    def delete(self, actor: Actor, policy_id: str) -> None:
        row = self._row(actor, policy_id)
        with self.store.transaction() as conn:
            delete_hotel_policy(conn, policy_id)
        if row["property_id"] is not None:
            self.events.publish("inventory.changed", row["property_id"], item="hotel policy", action="deleted")

    def moved(self, conn: Connection, property_id: str) -> None:
        """The property changed its own group (`relationships.group`): its policy goes with it."""
        move_hotel_policy(conn, property_id)

    def _row(self, actor: Actor, policy_id: str) -> Row:
        """A property's policy is reached as the property is, a policy of no property by its group's users."""
        row = hotel_policy_row(self.store, policy_id)
        if row is not None and row["property_id"] is not None:
            return owned_property(self.store, actor, row, "hotel policy", policy_id)
        return actor.owned(row, "hotel policy", policy_id)

    def put(self, actor: Actor, property_id: str, data: Any) -> dict[str, Any]:
        """The policy as sent over what it is, read and written in one transaction: two partial PUTs at once each
        keep the other's fields."""
        with self.store.transaction():
            return self._put(actor, property_id, data)

    def _put(self, actor: Actor, property_id: str, data: Any) -> dict[str, Any]:
        prop = self.rooms._property(actor, property_id, "property_id", strict=False)
        policy = self._checked(self.read(property_id) or {}, data, prop["currency"])
        with self.store.transaction() as conn:
            put_hotel_policy(conn, new_id(), property_id, prop["group_id"], json.dumps(policy), utc_now())
        self.events.publish("inventory.changed", property_id, item="hotel policy", action="updated")
        return cast(dict[str, Any], self.read(property_id))  # just written


    def _checked(self, current: dict[str, Any], data: Any, currency: str | None) -> dict[str, Any]:
        """The policy as sent over `current`, every problem at once; `currency`: its property's, the default of
        its own (a policy of no property must name its own)."""
        sent, errors = _policy_aliases(_writable(data, "hotel policy", {"property_id"}))
        merged = {**{k: v for k, v in current.items() if k not in {"id", "property_id"}}, **sent}
        currency = merged.get("currency") or currency
        if currency is None:
            errors.add("currency", "is required for a policy of no property")
        try:
            model = validate(HotelPolicyInput, merged, in_currency(currency))  # its fees in its currency
        except ValidationFailed as failed:
            errors.merge(as_sent(failed.details, {name: short for short, name in POLICY_ALIASES.items()
                                                  if short in data and name not in data}))
        errors.raise_if_any()
        return {**model.model_dump(), "currency": model.currency or currency}


def policy_of(store: Reads, property_id: str) -> dict[str, Any] | None:
    """The property's hotel policy, if it has one."""
    row = hotel_policy(store, property_id)
    return None if row is None else _policy(row)


def _policy(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "property_id": row["property_id"], **from_json(row["policy"])}


def with_service_names(policy: dict[str, Any]) -> dict[str, Any]:
    """A policy with its times also under the service's documented names (`checkin_time`, `checkout_time`)."""
    return {**policy, **{short: policy[name] for short, name in POLICY_ALIASES.items()}}


def _policy_aliases(sent: dict[str, Any]) -> tuple[dict[str, Any], Errors]:
    """The service's names for ours: `checkin_time` is `checkin_from_time`, `checkout_time` `checkout_to_time`
    (both with different values is an error), and our older `by_arrangement` and `nearby` are its
    `by_arrangements` and `location_nearby`."""
    errors, changes = Errors(), dict(sent)
    for short, name in POLICY_ALIASES.items():
        if short in changes:
            value = changes.pop(short)
            if name in changes and changes[name] != value:
                errors.add(short, f"differs from {name}, the same time: send one of them")
            changes.setdefault(name, value)
    for name, (older, value) in OLDER_VALUES.items():
        if changes.get(name) == older:
            changes[name] = value
    return changes, errors


def _writable(data: Any, noun: str, extra: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest([f"the {noun} must be a JSON object"])
    return {k: v for k, v in data.items() if k not in READ_ONLY | extra}


def _room_model(sent: dict[str, Any], stored: dict[str, Any] | None = None) -> tuple[RoomTypeInput | None, Errors]:
    """The room type as sent over the stored one (update), `content` key by key, and every problem with its fields.
    The older top-level `description` and `photos` go into `content`; both spellings at once is an error. With
    problems, the model holds the fields that passed (None when it can't), for the rules that read other records."""
    errors = Errors()
    changes = dict(sent)
    for old in ("description", "photos"):
        if old in changes:
            content = changes.get("content", {})
            if isinstance(content, dict) and old in content:
                errors.add(old, f"is the older name of content.{old}: send one of them")
            value = changes.pop(old)
            if isinstance(content, dict):  # else the error on content says enough
                changes["content"] = {old: value, **content}
    if stored:  # its photos are the photo store's: only those sent are changes
        stored = {**stored, "content": {k: v for k, v in stored["content"].items() if k != "photos"}}
    record = {**(stored or {}), **changes}
    if stored and isinstance(changes.get("content"), dict):
        record["content"] = {**stored["content"], **changes["content"]}
    model, details = validate_partly(RoomTypeInput, record, stand_ins=ROOM_STAND_INS)
    aliases: dict[str, str] = {f"content.{old}": old for old in ("description", "photos") if old in sent}
    errors.merge(as_sent(details, aliases))
    return model, errors


def _room_values(model: RoomTypeInput) -> dict[str, Any]:
    """Stored as before (`description` beside the rest: the shopping API reads it there); its photos are rows of the
    photo store (backend/inventory/photos.py)."""
    details = {**model.content.model_dump(exclude={"photos"}),
               **model.model_dump(include={"bed_options", "facilities", "room_kind", "capacity"})}
    return {"property_id": model.property_id, "title": model.title, "count_of_rooms": model.count_of_rooms,
            "occ_adults": model.occ_adults, "occ_children": model.occ_children, "occ_infants": model.occ_infants,
            "default_occupancy": model.default_occupancy or model.occ_adults, "details": json.dumps(details)}


def _check_manual(model: RatePlanInput, errors: Errors) -> None:
    """Only a derived plan has a parent, inherits and derives."""
    if model.parent_rate_plan_id is not None:
        errors.add("parent_rate_plan_id", "is only for a derived rate plan: set rate_mode to derived")
    for flag in INHERITS:
        if getattr(model, flag):
            errors.add(flag, "is only for a derived rate plan: a manual one has no parent to inherit from")
    for index, option in enumerate(model.options):
        if option.derived_option and option.derived_option.rate:
            errors.add(f"options.{index}.derived_option", "is only for a derived rate plan")
        for flag in INHERITS:
            if getattr(option, flag):
                errors.add(f"options.{index}.{flag}", "is only for a derived rate plan: a manual one has no parent")


def _implied(merged: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
    """What a partial update leaves unsaid follows what it says: inherit_rate follows rate_mode, a meal name sent
    stands for both, and a plan made manual drops its parent, flags and modifiers."""
    implied = {k: v for k, v in merged.items() if k != "inherit_rate" or k in sent}
    if sent.keys() & {"meal_type", "meal_plan"}:
        implied = {k: v for k, v in implied.items() if k not in ("meal_type", "meal_plan") or k in sent}
    if sent.get("rate_mode") == "manual":
        implied = {k: v for k, v in implied.items() if k not in ("parent_rate_plan_id", *INHERITS) or k in sent}
        if "options" not in sent:
            implied["options"] = [{k: v for k, v in option.items() if k != "derived_option" and k not in INHERITS}
                                  for option in merged["options"]]
    return implied


def _tax_keys(data: dict[str, Any], current: dict[str, Any], model: RatePlanInput, currency: str) -> dict[str, Any]:
    """The tax keys an update says anything with: `taxes[]` as the plan shows them (a form or a client sending back
    what it read) leaves its set as it is, and so does its own `tax_set_id` sent beside new taxes."""
    sent = dict(data)
    if "taxes" in sent and _same_taxes(model, current["taxes"], currency):
        del sent["taxes"]
    elif "taxes" in sent and sent.get("tax_set_id", "") == current["tax_set_id"]:
        del sent["tax_set_id"]
    return sent


def _same_taxes(model: RatePlanInput, shown: list[dict[str, Any]], currency: str) -> bool:
    def key(tax: dict[str, Any]) -> tuple[Any, ...]:
        try:
            rate = rate_of(tax["mode"], tax["rate"], currency)
        except ValueError:
            rate = None
        return tax["title"], tax["mode"], rate, tax["inclusive"], tax.get("type", "tax"), tax.get("level", 0)

    return [key(t.model_dump()) for t in model.taxes] == [key(t) for t in shown]


def _titles(rows: list[Row]) -> str:
    return ", ".join(f"“{row['title']}”" for row in rows)


def _option_id(plan_id: str, occupancy: int) -> str:
    """An option's id, the same for as long as its occupancy is: derived from the plan's own (a UUID)."""
    return str(uuid.uuid5(uuid.UUID(plan_id), str(occupancy)))


def _plan_values(model: RatePlanInput, currency: str) -> dict[str, Any]:
    policy = model.cancellation_policy.model_dump()
    policy["currency"] = policy["currency"] or currency
    policy["cancellation_policy_penalty"] = str(policy["cancellation_policy_penalty"])
    amount = policy["guarantee_payment_amount"]
    policy["guarantee_payment_amount"] = None if amount is None else canonical(amount, policy["currency"])
    derived = model.rate_mode == "derived"
    flags = {**{flag: getattr(model, flag) for flag in INHERITS}, "inherit_rate": derived}
    details = {
        "options": [{"occupancy": o.occupancy, "is_primary": o.is_primary, "rate": canonical(o.rate, currency),
                     "derived_option": _modifiers(o.derived_option, currency) if derived and o.is_primary else None,
                     "rate_category_id": o.rate_category_id,
                     **{flag: flags[flag] if getattr(o, flag) is None else getattr(o, flag) for flag in INHERITS}}
                    for o in model.options],
        "cancellation_policy": policy,
        "children_fee": canonical(model.children_fee, currency),
        "infant_fee": canonical(model.infant_fee, currency),
        **{name: getattr(model, name) for name in WEEKLY},
        **flags,
    }
    return {"property_id": model.property_id, "room_type_id": model.room_type_id, "title": model.title,
            "currency": currency, "sell_mode": model.sell_mode,
            "meal_type": model.meal_type or model.meal_plan or "none",
            "parent_rate_plan_id": model.parent_rate_plan_id if derived else None, "details": json.dumps(details)}


def _as_read(plan: Plan) -> tuple[Any, ...]:
    """What a rate plan's nights read as, besides their own rows (backend/inventory/stays.py): its room type, weekday
    defaults, parent, modifiers and inherit flags, and the occupancy its rate is for (OTA's NumberOfGuests)."""
    primary = next(option["occupancy"] for option in plan.details["options"] if option["is_primary"])
    return plan.room_type_id, plan.weekdays, plan.parent_id, plan.modifiers, plan.takes, primary


def _modifiers(option: DerivedOption | None, currency: str) -> dict[str, Any]:
    """The primary option's modifiers, amounts in the plan's currency."""
    rules = option.rate if option else []
    return {"rate": [[rule, canonical(value, currency) if rule.endswith("_amount") else value]
                     for rule, value in rules]}
