"""The rate plan editor: what is sold (room type, meal plan, per room or per person), the rate per
occupancy, the cancellation and payment policy, and taxes."""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel
from textual.app import ComposeResult
from textual.containers import Grid

from backend.inventory.models import (
    MEAL_PLANS,
    TAX_MODES,
    CancellationPolicy,
    RatePlanInput,
)
from backend.inventory.rooms import RatePlans
from backend.validation import as_input
from console.forms import blank_to_none, int_or_raw, set_path
from console.screens.inventory_editor import InventoryEditor, section
from console.widgets.item_list import Column, ItemList

POLICY = "cancellation_policy."
OPTION_COLUMNS = (Column("occupancy", "Guests", "number", placeholder="2", width="12"),
                  Column("rate", "Rate per night", placeholder="e.g. 120.00", width="24"),
                  Column("is_primary", "Primary", "yes_no", width="9"))
TAX_COLUMNS = (Column("title", "Tax", placeholder="e.g. City tax", width="2fr"),
               Column("mode", "Charged", "choice", TAX_MODES, width="2fr"),
               Column("rate", "Rate", placeholder="% or amount"),
               Column("inclusive", "Included", "yes_no", width="10"))
POLICY_LABELS = {"title": "Policy title", "cancellation_policy_logic": "Cancellation",
                 "cancellation_policy_deadline": "Deadline", "cancellation_policy_deadline_type": "Deadline in",
                 "cancellation_policy_mode": "Penalty as", "cancellation_policy_penalty": "Penalty",
                 "guarantee_payment_policy": "Guarantee", "guarantee_payment_amount": "Guarantee amount",
                 "non_show_policy": "No-show charge", "currency": "Policy currency"}
POLICY_CHOICES = ("cancellation_policy_logic", "cancellation_policy_deadline_type", "cancellation_policy_mode",
                  "guarantee_payment_policy", "non_show_policy")


def choices_of(model: type[BaseModel], name: str) -> list[tuple[str, str]]:
    """The values of a Literal field, as (label, value) options."""
    return [(value.replace("_", " "), value) for value in get_args(model.model_fields[name].annotation)]


class RatePlanEditor(InventoryEditor):
    NOUN = "rate plan"
    LABELS = {"property_id": "Property", "room_type_id": "Room type", "title": "Title", "currency": "Currency",
              "sell_mode": "Sold", "meal_plan": "Meal plan", "options": "Option", "taxes": "Tax",
              **{POLICY + name: label for name, label in POLICY_LABELS.items()}, "cancellation_policy": "Policy"}

    def __init__(self, prop: dict[str, Any], rooms: list[dict[str, Any]], plan: dict[str, Any] | None,
                 room_id: str | None = None) -> None:
        self.property_id = prop["id"]
        self.rooms = rooms
        values = as_input(RatePlanInput, plan) if plan else {
            "room_type_id": room_id or rooms[0]["id"], "sell_mode": "per_room", "meal_plan": "room_only",
            "options": [{"occupancy": 2, "is_primary": True}],
            "cancellation_policy": CancellationPolicy().model_dump(mode="json")}
        super().__init__(plan, values, f"{prop['title']} › {plan['title'] if plan else 'New rate plan'}")

    def service(self) -> RatePlans:
        return self.app.engine.inventory.rate_plans

    def build(self) -> None:
        self.text("title", "e.g. Best Available Rate", required=True)
        self.choice("room_type_id", [(room["title"], room["id"]) for room in self.rooms])
        self.text("currency", "the property's")
        self.choice("sell_mode", choices_of(RatePlanInput, "sell_mode"))
        self.choice("meal_plan", [(plan.replace("_", " "), plan) for plan in MEAL_PLANS])
        self.item_list(ItemList("options", OPTION_COLUMNS, self.values.get("options") or [],
                                "Add occupancy"))
        for name in POLICY_LABELS:
            if name in POLICY_CHOICES:
                self.choice(POLICY + name, choices_of(CancellationPolicy, name))
            else:
                self.text(POLICY + name)
        self.item_list(ItemList("taxes", TAX_COLUMNS, self.values.get("taxes") or [], "Add tax"))

    def sections(self) -> ComposeResult:
        f = self.fields
        yield section("Rate plan", Grid(*(f[p] for p in ("title", "room_type_id", "meal_plan", "sell_mode",
                                                          "currency")), classes="fields"))
        yield section("Rates", self.lists["options"])
        yield section("Cancellation and payment", Grid(*(f[POLICY + name] for name in POLICY_LABELS), classes="fields"))
        yield section("Taxes", self.lists["taxes"])

    def payload(self) -> dict[str, Any]:
        f = self.fields
        data: dict[str, Any] = {
            "property_id": self.property_id,
            "title": f["title"].value,
            "room_type_id": f["room_type_id"].value,
            "currency": blank_to_none(f["currency"].value),
            "sell_mode": f["sell_mode"].value,
            "meal_plan": f["meal_plan"].value,
            "options": self.lists["options"].value,
            "taxes": self.lists["taxes"].value,
        }
        for name in POLICY_LABELS:
            value = f[POLICY + name].value
            if name == "cancellation_policy_deadline":
                value = int_or_raw(value)
            elif name in ("title", "guarantee_payment_amount", "currency"):
                value = blank_to_none(value)
            set_path(data, POLICY + name, value)
        return data
