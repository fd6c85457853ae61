"""The rate plan editor: what is sold (room type, meal, per room or per person, fees for children and
infants), how it is priced (its own rate per occupancy, or derived from another plan of the property
through modifiers, following that plan's restrictions where chosen), the restrictions by weekday, the
cancellation and payment policy, and taxes."""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel
from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import Static

from backend.core.validation import as_input
from backend.inventory.models import MEAL_TYPES, RATE_RULES, TAX_MODES, WEEKLY, CancellationPolicy, RatePlanInput
from backend.inventory.rooms import RatePlans
from console.kit.choice import Choice
from console.kit.form_editor import FormEditor
from console.kit.forms import (
    blank_to_none,
    flags_from,
    int_or_raw,
    numbers_by_weekday,
    numbers_from,
    set_path,
    weekdays_of,
)
from console.kit.item_list import Column, ItemList
from console.kit.section import Deferred, Section

POLICY = "cancellation_policy."
OPTION_COLUMNS = (Column("occupancy", "Guests", "number", placeholder="2", width="12"),
                  Column("rate", "Rate per night", placeholder="e.g. 120.00", width="24"),
                  Column("is_primary", "Primary", "yes_no", width="9"))
MODIFIER_COLUMNS = (Column("rule", "Change", "choice", RATE_RULES, width="2fr"),
                    Column("value", "By", placeholder="% or amount", width="1fr"))
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
WEEKLY_LABELS = {"min_stay_arrival": "Min stay on arrival", "min_stay_through": "Min stay through",
                 "max_stay": "Max stay (0: none)", "closed_to_arrival": "Closed to arrival on",
                 "closed_to_departure": "Closed to departure on", "stop_sell": "Stop sell on"}
# What a derived plan can follow its parent for, in the order the calendar shows them.
FOLLOWS = {"inherit_stop_sell": "Stop sell", "inherit_closed_to_arrival": "Closed to arrival",
           "inherit_closed_to_departure": "Closed to departure", "inherit_min_stay_arrival": "Min stay on arrival",
           "inherit_min_stay_through": "Min stay through", "inherit_max_stay": "Max stay"}
PRICED = [("own rates", "manual"), ("from another plan", "derived")]


def choices_of(model: type[BaseModel], name: str) -> list[tuple[str, str]]:
    """The values of a Literal field, as (label, value) options."""
    return [(value.replace("_", " "), value) for value in get_args(model.model_fields[name].annotation)]


class RatePlanEditor(FormEditor):
    AREA = "inventory"
    NOUN = "rate plan"
    pricing: Deferred  # a derived plan's parent, modifiers and flags
    LABELS = {"property_id": "Property", "room_type_id": "Room type", "title": "Title", "currency": "Currency",
              "sell_mode": "Sold", "meal_type": "Meal", "meal_plan": "Meal", "children_fee": "Per child a night",
              "infant_fee": "Per infant a night", "options": "Option", "taxes": "Tax", "rate_mode": "Priced",
              "parent_rate_plan_id": "From rate plan", "derived": "Modifier", **WEEKLY_LABELS, **FOLLOWS,
              **{POLICY + name: label for name, label in POLICY_LABELS.items()}, "cancellation_policy": "Policy"}

    def __init__(self, prop: dict[str, Any], rooms: list[dict[str, Any]], plans: list[dict[str, Any]],
                 plan: dict[str, Any] | None, room_id: str | None = None) -> None:
        self.property_id = prop["id"]
        self.rooms = rooms
        # A parent is a manual plan of the property, and not this one.
        self.parents = [p for p in plans if p["rate_mode"] == "manual" and (plan is None or p["id"] != plan["id"])]
        values = as_input(RatePlanInput, plan) if plan else {
            "room_type_id": room_id or rooms[0]["id"], "sell_mode": "per_room", "meal_type": "none",
            "rate_mode": "manual", "options": [{"occupancy": 2, "is_primary": True}],
            "cancellation_policy": CancellationPolicy().model_dump(mode="json")}
        crumb = f"{prop['title']} › {plan['title'] if plan else 'New rate plan'}"
        super().__init__(plan["id"] if plan else None, values, crumb)

    def service(self) -> RatePlans:
        return self.app.engine.inventory.rate_plans

    def build(self) -> None:
        values = self.values
        self.text("title", "e.g. Best Available Rate", required=True)
        self.choice("room_type_id", [(room["title"], room["id"]) for room in self.rooms])
        self.text("currency", "the property's")
        self.choice("sell_mode", choices_of(RatePlanInput, "sell_mode"))
        self.choice("meal_type", [(label, code) for code, label in MEAL_TYPES.items()])
        self.text("children_fee", "0.00")
        self.text("infant_fee", "0.00")
        self.choice("rate_mode", PRICED)
        self.add("parent_rate_plan_id", Choice([(p["title"], p["id"]) for p in self.parents], prompt="Select",
                                               value=values.get("parent_rate_plan_id")))
        for flag in FOLLOWS:
            self.add(flag, Choice([("yes", True), ("no", False)], bool(values.get(flag))))
        self.item_list(ItemList("options", OPTION_COLUMNS, values.get("options") or [], "Add occupancy"))
        self.item_list(ItemList("derived", MODIFIER_COLUMNS, _modifiers(values), "Add modifier"))
        for name, default in WEEKLY.items():
            current = values.get(name) or [default] * 7
            self.text(name, "weekdays, e.g. sa su" if isinstance(default, bool) else "one, or 7 from Mo")
            self.fields[name].value = weekdays_of(current) if isinstance(default, bool) else numbers_by_weekday(current)
        for name in POLICY_LABELS:
            if name in POLICY_CHOICES:
                self.choice(POLICY + name, choices_of(CancellationPolicy, name))
            else:
                self.text(POLICY + name)
        self.item_list(ItemList("taxes", TAX_COLUMNS, values.get("taxes") or [], "Add tax"))

    def sections(self) -> ComposeResult:
        f = self.fields
        yield Section("Rate plan", Grid(*(f[p] for p in ("title", "room_type_id", "meal_type", "sell_mode",
                                                          "currency", "children_fee", "infant_fee")), classes="fields"))
        derived = self.values.get("rate_mode") == "derived"
        # A manual plan's parent, modifiers and flags are built only if it is made derived.
        self.pricing = Deferred(Grid(f["parent_rate_plan_id"], classes="fields"),
                                Static("Its rate is that plan's, changed by these modifiers in order:",
                                       classes="editor-hint"),
                                self.lists["derived"],
                                Static("It follows that plan for (yes), or has its own (no):", classes="editor-hint"),
                                Grid(*(f[flag] for flag in FOLLOWS), classes="fields"),
                                deferred=not derived, id="derived-pricing")
        self.pricing.display = derived
        yield Section("Rates", Grid(f["rate_mode"], classes="fields"), self.pricing,
                      Static("Rate per occupancy: a night sells the primary at the calendar's rate, the others at "
                             "their difference from the primary here:", classes="editor-hint"), self.lists["options"])
        yield Section("Restrictions by weekday, for nights without their own",
                      Grid(*(f[name] for name in WEEKLY), classes="fields"))
        yield Section("Cancellation and payment", Grid(*(f[POLICY + name] for name in POLICY_LABELS), classes="fields"),
                      deferred=True)  # at the bottom edge at 120×40
        yield Section("Taxes", self.lists["taxes"], deferred=True)

    async def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "input-rate_mode":
            derived = event.value == "derived"
            if derived:
                await self.pricing.build()
            self.pricing.display = derived

    def payload(self) -> dict[str, Any]:
        f = self.fields
        derived = f["rate_mode"].value == "derived"
        options = self.lists["options"].value
        primary = next((o for o in options if o.get("is_primary")), options[0] if len(options) == 1 else None)
        if derived and primary is not None:
            # Amounts as typed, a decimal: a whole number would be read as minor units.
            primary["derived_option"] = {"rate": [[m.get("rule"), m.get("value")] for m in self.lists["derived"].value]}
        data: dict[str, Any] = {
            "property_id": self.property_id,
            "title": f["title"].value,
            "room_type_id": f["room_type_id"].value,
            "currency": blank_to_none(f["currency"].value),
            "sell_mode": f["sell_mode"].value,
            "meal_type": f["meal_type"].value,
            "children_fee": blank_to_none(f["children_fee"].value) or "0",
            "infant_fee": blank_to_none(f["infant_fee"].value) or "0",
            "rate_mode": f["rate_mode"].value,
            "options": options,
            "taxes": self.lists["taxes"].value,
            **{name: flags_from(f[name].value) for name, default in WEEKLY.items() if isinstance(default, bool)},
            **{name: numbers_from(f[name].value) for name, default in WEEKLY.items()
               if not isinstance(default, bool) and f[name].value.strip()},  # blank: as it was
        }
        if derived:  # a manual plan leaves its parent and flags out: the engine drops them
            data["parent_rate_plan_id"] = f["parent_rate_plan_id"].value
            data.update({flag: f[flag].value for flag in FOLLOWS})
        for name in POLICY_LABELS:
            value = f[POLICY + name].value
            if name == "cancellation_policy_deadline":
                value = int_or_raw(value)
            elif name in ("title", "guarantee_payment_amount", "currency"):
                value = blank_to_none(value)
            set_path(data, POLICY + name, value)
        return data

    def target_for(self, path: str) -> tuple[Any, str]:
        """A modifier's message (`options.N.derived_option.rate.K`) stands beside its row of modifiers."""
        parts = path.split(".")
        if len(parts) > 2 and parts[0] == "options" and parts[2] == "derived_option":
            # rate.K.0 is the rule's name; rate.K, the value as its rule reads it, and rate.K.1 stand by the value
            column = "rule" if parts[5:6] == ["0"] else "value"
            return super().target_for(f"derived.{parts[4]}.{column}" if len(parts) > 4 else "derived")
        return super().target_for(path)


def _modifiers(values: dict[str, Any]) -> list[dict[str, Any]]:
    """The primary option's modifiers as rows of the list."""
    primary = next((o for o in values.get("options") or [] if o.get("is_primary")), None)
    rules = ((primary or {}).get("derived_option") or {}).get("rate", [])
    return [{"rule": rule, "value": value} for rule, value in rules]
