"""What the Inventory area shows for one property, read in one go (in a worker): its room types,
rate plans, the channels they can be mapped to, and availability, rates and restrictions for a
run of dates.

"Today" is the property's own date by the engine's clock, never the machine's, so a frozen clock
shows the same calendar every time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from backend.channels.service import mapped_plan_ids
from backend.core.dates import local_now
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.identity.models import Actor

NIGHTS = 14  # shown before the screen knows its width
SIGNS = {"increase_by_percent": ("+", "%"), "decrease_by_percent": ("−", "%"), "increase_by_amount": ("+", ""),
         "decrease_by_amount": ("−", "")}


@dataclass(frozen=True)
class InventoryData:
    properties: list[dict[str, Any]]  # every property of the operator, for the picker
    property: dict[str, Any] | None  # the one shown (None: the operator has none)
    today: date
    start: date
    nights: int = NIGHTS
    rooms: list[dict[str, Any]] = field(default_factory=list)
    plans: list[dict[str, Any]] = field(default_factory=list)  # grouped by room type, in room order
    channels: list[dict[str, Any]] = field(default_factory=list)  # those the property is connected to
    availability: dict[str, dict[str, int]] = field(default_factory=dict)
    restrictions: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    @property
    def dates(self) -> list[date]:
        return [self.start + timedelta(days=offset) for offset in range(self.nights)]

    def rate_on(self, plan: dict[str, Any], day: date) -> str | None:
        """The plan's rate of a night as the calendar shows it (the engine's ARI read: the night's own, a derived
        plan's from its parent), or None when it has none."""
        return self.restrictions.get(plan["id"], {}).get(day.isoformat(), {}).get("rate")

    def plans_of(self, room_id: str) -> list[dict[str, Any]]:
        return [plan for plan in self.plans if plan["room_type_id"] == room_id]

    def parent_of(self, plan: dict[str, Any]) -> dict[str, Any] | None:
        return next((p for p in self.plans if p["id"] == plan["parent_rate_plan_id"]), None)

    def channels_of(self, plan_id: str) -> list[dict[str, Any]]:
        return [channel for channel in self.channels if plan_id in mapped_plan_ids(channel)]


def property_today(engine: Engine, prop: dict[str, Any]) -> date:
    return local_now(prop["timezone"], engine.config.clock()).date()


def load_inventory(engine: Engine, actor: Actor, property_id: str | None, start: date | None,
                   nights: int = NIGHTS) -> InventoryData:
    """The picked property's inventory (the first property when none is picked or it has gone);
    the calendar starts at `start`, or at the property's today when that is None, and shows `nights`."""
    properties = engine.properties.options(actor)
    ids = [p["id"] for p in properties]
    if property_id not in ids:
        property_id = ids[0] if ids else None
    if property_id is None:
        today = engine.config.clock().date()
        return InventoryData(properties, None, today, start or today, nights)
    prop = engine.properties.get(actor, property_id)
    today = property_today(engine, prop)
    start = start or today
    rooms = engine.inventory.room_types.for_property(actor, property_id)
    order = {room["id"]: index for index, room in enumerate(rooms)}
    plans = sorted(engine.inventory.rate_plans.for_property(actor, property_id),
                   key=lambda plan: order.get(plan["room_type_id"], len(order)))
    channels = [c for c in engine.channels.for_property(actor, property_id) if c["connected"]]
    query = ListQuery.from_params([("filter[property_id]", property_id), ("filter[date][gte]", start.isoformat()),
                                   ("filter[date][lte]", (start + timedelta(days=nights - 1)).isoformat())])
    return InventoryData(properties, prop, today, start, nights, rooms, plans, channels,
                         engine.inventory.ari.availability(actor, query),
                         engine.inventory.ari.restrictions(actor, query))


def inherits(plan: dict[str, Any], name: str) -> bool:
    """Whether a night's `name` (rate, stop_sell, …) of this plan is its parent's."""
    return plan["rate_mode"] == "derived" and plan[f"inherit_{name}"]


def modifiers(plan: dict[str, Any]) -> str:
    """A derived plan's modifiers, briefly: "−10% +5.00" ("as is" without any)."""
    primary = next(option for option in plan["options"] if option["is_primary"])
    rules = (primary["derived_option"] or {}).get("rate", [])
    return " ".join(f"{SIGNS[rule][0]}{value}{SIGNS[rule][1]}" for rule, value in rules) or "as is"
