"""Taxes and tax sets: create, read, update, list and delete, access checked (a property's, as its room types are),
and how a rate plan names its set.

Decisions where the service's page is silent (docs/coming-from-channex.md):
- The property's default set is the tax set whose `is_default` is true: the first set a property gets becomes it,
  unless it says `is_default: false`; `is_default: true` moves it. A new rate plan that names no set (and embeds no
  taxes) is priced with the default, when that is in its currency.
- A set's taxes are its property's; a tax for an amount is in the set's currency, and a rate plan's set in the
  plan's currency.
- A rate plan's embedded `taxes[]` is written as that plan's own set (and own taxes), replaced whole by each write of
  `taxes[]` and deleted with the plan or when the plan names another set; `taxes: []` leaves it none. Its own set is
  no other plan's, nor the default, and its own taxes are in no other set.
- A tax in sets, or a set that rate plans are priced with, is not deleted: 422 naming them.
"""

from __future__ import annotations

import builtins
import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, cast

from pydantic_core import from_json

from backend.core.errors import BadRequest, Errors, NotFound, ResourceNotFound, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.validation import failed, validate_partly
from backend.identity.access import reaches
from backend.identity.models import Actor
from backend.inventory.models import RatePlanInput
from backend.inventory.store import (
    claim_default,
    default_tax_set,
    delete_own_taxes,
    delete_tax,
    delete_tax_set,
    insert_tax,
    insert_tax_set,
    own_tax_set,
    plans_with_set,
    point_plans,
    property_access,
    put_set_taxes,
    rows_by_id,
    set_default,
    set_plans,
    set_taxes,
    sets_holding,
    tax_or_set_page,
    tax_or_set_row,
    taxes_by_id,
    update_tax,
    update_tax_set,
)
from backend.inventory.taxes import TaxInput, TaxSetInput, rate_of
from storage import Connection, Row, Store, new_id, utc_now

READ_ONLY = frozenset({"id", "inserted_at", "updated_at", "applicable_after", "applicable_before"})
TAX_STAND_INS = {"title": "-", "logic": "percent", "rate": "0", "is_inclusive": False}


class _Property:
    """What taxes and sets share: the property of a body (422 naming the field) or of a row (404/401)."""

    table: str
    noun: str

    def __init__(self, store: Store, events: EventBus) -> None:
        self.store = store
        self.events = events

    def _property(self, actor: Actor, property_id: Any) -> Any:
        row = property_access(self.store, property_id) if isinstance(property_id, str) else None
        if row is None or not reaches(self.store, actor, row["id"], row["group_id"]):
            raise ValidationFailed.one("property_id", "is not a property of yours")
        return row

    def _row(self, actor: Actor, item_id: str, missing: type[NotFound] = NotFound) -> Row:
        """404 `not_found` on a read, `resource_not_found` on a change (the service's codes, §10)."""
        row = tax_or_set_row(self.store, self.table, item_id)
        if row is None:
            raise missing(f"{self.noun} {item_id} does not exist")
        if not reaches(self.store, actor, row["property_id"], row["group_id"]):
            raise Unauthorized(f"you have no access to this {self.noun}")
        return row

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = tax_or_set_page(self.store, self.table, query, actor)
        return self._all(rows), meta

    def get(self, actor: Actor, item_id: str) -> dict[str, Any]:
        return self._all([self._row(actor, item_id)])[0]

    def _changed(self, property_id: str, action: str) -> None:
        self.events.publish("inventory.changed", property_id, item=self.noun, action=action)

    def _all(self, rows: builtins.list[Any]) -> builtins.list[dict[str, Any]]:
        raise NotImplementedError


class Taxes(_Property):
    table, noun = "taxes", "tax"

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        with self.store.transaction() as conn:
            values, property_id = self._checked(actor, _writable(data, "tax"))
            tax_id = new_id()
            insert_tax(conn, tax_id, property_id, None, values, utc_now())
        self._changed(property_id, "created")
        return self.get(actor, tax_id)

    def update(self, actor: Actor, tax_id: str, data: Any) -> dict[str, Any]:
        with self.store.transaction() as conn:  # the sets it is in can't change before it is written
            row = self._row(actor, tax_id, ResourceNotFound)
            sent = _writable(data, "tax")
            if sent.get("property_id", row["property_id"]) != row["property_id"]:
                raise ValidationFailed.one("property_id", "can't be changed; create a new tax instead")
            current = _tax_input(row)
            values, _ = self._checked(actor, {**current, **sent}, sets_holding(conn, tax_id))
            update_tax(conn, tax_id, values, utc_now())
        self._changed(row["property_id"], "updated")
        return self.get(actor, tax_id)

    def delete(self, actor: Actor, tax_id: str) -> None:
        with self.store.transaction() as conn:
            row = self._row(actor, tax_id, ResourceNotFound)
            if holding := sets_holding(conn, tax_id):
                raise ValidationFailed.one("tax", f"is in tax sets {_titles(holding)}: take it out of them first")
            delete_tax(conn, tax_id)
        self._changed(row["property_id"], "deleted")

    def _checked(self, actor: Actor, data: dict[str, Any], holding: Sequence[Any] = ()) -> tuple[dict[str, Any], str]:
        """The tax's columns, or every problem at once; `holding`: the sets it is in, whose currency an amount must
        be in."""
        model, details = validate_partly(TaxInput, data, stand_ins=TAX_STAND_INS)
        errors = Errors()
        errors.merge(details)
        if model is not None:
            bad = failed(details)
            if "property_id" not in bad:
                self._property(actor, model.property_id)
            if not bad & {"logic", "rate", "currency"}:
                check_rate(model.logic, model.rate, model.currency, errors, "")
                if model.logic != "percent":
                    for held in holding:
                        if held["currency"] != model.currency:
                            errors.add("currency", f"must be {held['currency']}, the currency of tax set "
                                                   f"“{held['title']}” that holds it")
        errors.raise_if_any()
        model = cast(TaxInput, model)  # None only with problems, raised above
        values = {name: getattr(model, name) for name in
                  ("title", "logic", "type", "currency", "skip_nights", "max_nights")}
        values.update(rate=rate_of(model.logic, model.rate, model.currency), is_inclusive=int(model.is_inclusive),
                      applicable_date_ranges=json.dumps([r.model_dump() for r in model.applicable_date_ranges]))
        return values, model.property_id

    def _all(self, rows: list[Any]) -> list[dict[str, Any]]:
        return [tax_attributes(row) for row in rows]


class TaxSets(_Property):
    table, noun = "tax_sets", "tax set"

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        with self.store.transaction() as conn:  # of two first sets at once, one is the default (claim_default)
            sent = _writable(data, "tax set")
            model = self._checked(actor, sent, None)
            set_id = new_id()
            insert_tax_set(conn, set_id, model.property_id, None, model.title, model.currency, utc_now())
            self._write(conn, set_id, model, None)
            if model.is_default is None:
                claim_default(conn, set_id, model.property_id)
        self._changed(model.property_id, "created")
        return self.get(actor, set_id)

    def update(self, actor: Actor, set_id: str, data: Any) -> dict[str, Any]:
        with self.store.transaction() as conn:
            row = self._row(actor, set_id, ResourceNotFound)
            sent = _writable(data, "tax set")
            if sent.get("property_id", row["property_id"]) != row["property_id"]:
                raise ValidationFailed.one("property_id", "can't be changed; create a new tax set instead")
            current = self._all([row])[0]
            merged = {"property_id": row["property_id"], "title": current["title"], "currency": current["currency"],
                      "taxes": [{"id": t["id"], "level": t["level"]} for t in current["taxes"]], **sent}
            model = self._checked(actor, merged, row)
            update_tax_set(conn, set_id, model.title, model.currency, utc_now())
            self._write(conn, set_id, model, row)
        self._changed(row["property_id"], "updated")
        return self.get(actor, set_id)

    def delete(self, actor: Actor, set_id: str) -> None:
        with self.store.transaction() as conn:
            row = self._row(actor, set_id, ResourceNotFound)
            if plans := plans_with_set(conn, set_id):
                raise ValidationFailed.one("tax_set", f"prices rate plans {_titles(plans)}: give them another tax set "
                                                      "(tax_set_id) first")
            delete_tax_set(conn, set_id)
        self._changed(row["property_id"], "deleted")

    def _checked(self, actor: Actor, data: dict[str, Any], row: Row | None) -> TaxSetInput:
        """The set as sent, its taxes and rate plans checked against what they are: every problem at once."""
        model, details = validate_partly(TaxSetInput, data, stand_ins={"title": "-", "taxes": []})
        errors = Errors()
        errors.merge(details)
        if model is None:
            errors.raise_if_any()
        model = cast(TaxSetInput, model)  # None only with problems, raised above
        bad = failed(details)
        if "property_id" not in bad:
            self._property(actor, model.property_id)
        own = row["rate_plan_id"] if row is not None else None
        if own is not None and model.is_default:
            errors.add("is_default", "a rate plan's own tax set (its taxes[]) is not a property's default")
        if not bad & {"property_id", "currency", "taxes"}:
            found = taxes_by_id(self.store.conn, [t.id for t in model.taxes])
            for index, member in enumerate(model.taxes):
                tax = found.get(member.id)
                if tax is None or tax["property_id"] != model.property_id:
                    errors.add(f"taxes.{index}.id", "is not a tax of this property")
                elif tax["rate_plan_id"] not in (None, own):
                    errors.add(f"taxes.{index}.id", "is a rate plan's own tax (from its taxes[]): make a tax of "
                                                    "the property's instead")
                elif tax["logic"] != "percent" and tax["currency"] != model.currency:
                    errors.add(f"taxes.{index}.id", f"“{tax['title']}” is in {tax['currency']}, the set in "
                                                    f"{model.currency}")
        if not bad & {"property_id", "currency", "associated_rate_plan_ids"}:
            self._check_plans(model, row, errors)
        errors.raise_if_any()
        return model

    def _check_plans(self, model: TaxSetInput, row: Row | None, errors: Errors) -> None:
        """The plans it prices: those sent, else those it had (its currency may have changed)."""
        if model.associated_rate_plan_ids is None:
            plans = plans_with_set(self.store.conn, row["id"]) if row is not None else []
            for plan in plans:
                if plan["currency"] != model.currency:
                    errors.add("currency", f"must stay {plan['currency']}: it prices rate plan “{plan['title']}”")
            return
        if row is not None and row["rate_plan_id"] is not None:
            errors.add("associated_rate_plan_ids", "a rate plan's own tax set prices that plan alone")
            return
        found = {plan["id"]: plan for plan in rows_by_id(self.store, "rate_plans", model.associated_rate_plan_ids)}
        for index, plan_id in enumerate(model.associated_rate_plan_ids):
            named = found.get(plan_id)
            if named is None or named["property_id"] != model.property_id:
                errors.add(f"associated_rate_plan_ids.{index}", "is not a rate plan of this property")
            elif named["currency"] != model.currency:
                errors.add(f"associated_rate_plan_ids.{index}", f"“{named['title']}” is in {named['currency']}, the "
                                                                f"set in {model.currency}")

    def _write(self, conn: Connection, set_id: str, model: TaxSetInput, row: Row | None) -> None:
        now = utc_now()
        put_set_taxes(conn, set_id, [(t.id, t.level) for t in model.taxes])
        if model.associated_rate_plan_ids is not None:
            wanted = list(dict.fromkeys(model.associated_rate_plan_ids))
            gone = [p["id"] for p in plans_with_set(conn, set_id) if p["id"] not in wanted]
            point_plans(conn, gone, None, now)
            for plan_id in wanted:  # a plan priced with its own set before leaves it
                if (own := own_tax_set(conn, plan_id)) is not None and own != set_id:
                    delete_own_taxes(conn, plan_id)
            point_plans(conn, wanted, set_id, now)
        if model.is_default is not None:
            set_default(conn, set_id, model.property_id, model.is_default)

    def _all(self, rows: list[Any]) -> list[dict[str, Any]]:
        ids = [row["id"] for row in rows]
        taxes, plans = defaultdict(list), defaultdict(list)
        for tax in set_taxes(self.store, ids) if ids else []:
            taxes[tax["tax_set_id"]].append({**tax_attributes(tax), "level": tax["level"], "taxes": []})
        for set_id, plan_id in set_plans(self.store, ids) if ids else []:
            plans[set_id].append(plan_id)
        return [{"id": row["id"], "property_id": row["property_id"], "title": row["title"],
                 "currency": row["currency"], "is_default": bool(row["is_default"]),
                 "rate_plan_id": row["rate_plan_id"], "associated_rate_plan_ids": plans[row["id"]],
                 "taxes": taxes[row["id"]], "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}
                for row in rows]


# --- a rate plan's tax set -----------------------------------------------------------------------------------------

class PlanTaxes:
    """What a rate plan write decides of its set: `tax_set_id` sent, `taxes[]` sent (its own set), or neither (a new
    plan: the property's default; a changed one: its set as it was, which must be in its currency)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def chosen(self, sent: dict[str, Any], model: RatePlanInput, currency: str, current: dict[str, Any] | None) -> str | None:
        """The set the plan is priced with, before its own set is written (`write`); 422 when it can't be."""
        if "tax_set_id" in sent and "taxes" in sent:
            raise ValidationFailed.one("taxes", "send either taxes (the rate plan's own tax set) or tax_set_id")
        errors = Errors()
        if "taxes" in sent:
            for index, tax in enumerate(model.taxes):
                check_rate(tax.mode, tax.rate, currency, errors, f"taxes.{index}.")
            errors.raise_if_any()
            return None
        if "tax_set_id" not in sent and current is None:
            found = default_tax_set(self.store, model.property_id)
            return found["id"] if found is not None and found["currency"] == currency else None
        set_id = model.tax_set_id if "tax_set_id" in sent or current is None else current["tax_set_id"]
        if set_id is None:
            return None
        field = "tax_set_id" if "tax_set_id" in sent else "currency"
        row = tax_or_set_row(self.store, "tax_sets", set_id)
        if row is None or row["property_id"] != model.property_id:
            raise ValidationFailed.one("tax_set_id", "is not a tax set of this property")
        if row["rate_plan_id"] not in (None, current and current["id"]):
            raise ValidationFailed.one("tax_set_id", "is another rate plan's own tax set (its taxes[])")
        if row["currency"] != currency:
            raise ValidationFailed.one(field, f"tax set “{row['title']}” is in {row['currency']}, the rate plan in "
                                              f"{currency}")
        return cast(str | None, set_id)

    def write(self, conn: Connection, plan_id: str, sent: dict[str, Any], model: RatePlanInput, currency: str,
              chosen: str | None) -> None:
        """The plan's own set, in the plan's write: made again from `taxes[]` when sent, dropped when the plan now
        names another set."""
        if "taxes" not in sent:
            if own_tax_set(conn, plan_id) not in (None, chosen):
                delete_own_taxes(conn, plan_id)
            return
        own_set(conn, plan_id, model.property_id, model.title, currency, [t.model_dump() for t in model.taxes])

    def shown(self, set_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        """Each set's taxes as a rate plan embeds them (`taxes[]`)."""
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for tax in set_taxes(self.store, set_ids) if set_ids else []:
            found[tax["tax_set_id"]].append({"title": tax["title"], "mode": tax["logic"], "rate": tax["rate"],
                                             "inclusive": bool(tax["is_inclusive"]), "type": tax["type"],
                                             "level": tax["level"], "amount": None})
        return found


def own_set(conn: Connection, plan_id: str, property_id: str, title: str, currency: str,
            taxes: list[dict[str, Any]]) -> None:
    """The rate plan's own set made again from its embedded taxes (`title`, `mode`, `rate`, `inclusive`, `type`,
    `level`; none: no set), and the plan priced with it."""
    delete_own_taxes(conn, plan_id)
    set_id, now = None, utc_now()
    if taxes:
        set_id = new_id()
        insert_tax_set(conn, set_id, property_id, plan_id, f"{title} (its own taxes)", currency, now)
        members = []
        for tax in taxes:
            tax_id, mode = new_id(), tax["mode"]
            insert_tax(conn, tax_id, property_id, plan_id, {
                "title": tax["title"], "logic": mode, "type": tax.get("type", "tax"),
                "rate": rate_of(mode, tax["rate"], currency), "currency": None if mode == "percent" else currency,
                "is_inclusive": int(tax["inclusive"]), "skip_nights": None, "max_nights": None,
                "applicable_date_ranges": "[]"}, now)
            members.append((tax_id, tax.get("level", 0)))
        put_set_taxes(conn, set_id, members)
    point_plans(conn, [plan_id], set_id, now)


def check_rate(logic: str, rate: object, currency: str | None, errors: Errors, prefix: str) -> None:
    if logic != "percent" and currency is None:
        errors.add(f"{prefix}currency", "is required unless the logic is percent")
        return
    try:
        rate_of(logic, rate, currency)
    except ValueError as problem:
        errors.add(f"{prefix}rate", str(problem))


def tax_attributes(row: Row) -> dict[str, Any]:
    ranges = from_json(row["applicable_date_ranges"])
    one = ranges[0] if len(ranges) == 1 else {}
    return {"id": row["id"], "property_id": row["property_id"], "title": row["title"], "logic": row["logic"],
            "type": row["type"], "rate": row["rate"], "currency": row["currency"],
            "is_inclusive": bool(row["is_inclusive"]), "skip_nights": row["skip_nights"],
            "max_nights": row["max_nights"], "applicable_date_ranges": ranges,
            "applicable_after": one.get("after"), "applicable_before": one.get("before"),
            "rate_plan_id": row["rate_plan_id"], "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}


def _tax_input(row: Row) -> dict[str, Any]:
    attributes = tax_attributes(row)
    return {k: v for k, v in attributes.items() if k in TaxInput.model_fields}


def _writable(data: Any, noun: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest([f"the {noun} must be a JSON object"])
    return {k: v for k, v in data.items() if k not in READ_ONLY}


def _titles(rows: list[Row]) -> str:
    return ", ".join(f"“{row['title']}”" for row in rows)
