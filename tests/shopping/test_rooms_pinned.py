"""The shopping `rooms` answer, pinned: its JSON, key order and all, for a property that uses every part of an
offer (options at their own occupancy, a party, children's ages, per-person pricing, fees, a derived plan, taxes
inclusive and on top, restrictions that stop some plans), against tests/shopping/rooms_pinned.json, the answer the
engine gave before `rooms` was made faster. Ids are named (room-0, plan-2) and dates counted from a Monday a week or
two ahead (day+3), so that the file holds on any day."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from backend.engine import Engine

PINNED = Path(__file__).with_name("rooms_pinned.json")
CONTACT = {"email": "desk@example.com", "phone": "+44 20 7946 0000", "zip_code": "EC1A 1BB", "country": "GB",
           "state": "England", "city": "London", "address": "1 Example Street", "longitude": "-0.1278",
           "latitude": "51.5074"}
# (room, plan settings, options): the plans of each room, in the order they are made.
PLANS: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = [
    (0, {"meal_type": "breakfast"}, [{"occupancy": 1, "rate": "80"}, {"occupancy": 2, "rate": "100", "is_primary": True},
                                     {"occupancy": 3, "rate": "125"}]),
    (0, {"sell_mode": "per_person", "children_fee": "7.50", "infant_fee": "2.25"},
     [{"occupancy": 2, "rate": "60", "is_primary": True}, {"occupancy": 3, "rate": "55"}]),
    (0, {"cancellation_policy": {"cancellation_policy_logic": "non_refundable"}},
     [{"occupancy": 2, "rate": "90", "is_primary": True}]),
    (1, {}, [{"occupancy": 1, "rate": "70"}, {"occupancy": 2, "rate": "95", "is_primary": True}]),
    (1, {}, [{"occupancy": 2, "rate": "100", "is_primary": True}]),  # stop sell on a night of the stay
    (2, {}, [{"occupancy": 2, "rate": "100", "is_primary": True}]),  # closed to arrival on the arrival
]
TAXES = [{"title": "Cleaning", "logic": "per_booking", "type": "fee", "rate": "5.00", "is_inclusive": False,
          "currency": "EUR", "level": 1},
         {"title": "VAT", "logic": "percent", "type": "tax", "rate": "10", "is_inclusive": True, "level": 0},
         {"title": "City tax", "logic": "per_person_per_night", "type": "tax", "rate": "2.50", "is_inclusive": False,
          "currency": "EUR", "level": 0}]
CALLS: list[dict[str, str]] = [
    {"checkin_date": "0", "checkout_date": "6"},
    {"checkin_date": "0", "checkout_date": "6", "adults": "2", "children": "1", "infants": "1"},
    {"checkin_date": "0", "checkout_date": "3", "adults": "1", "children_age": "4,12"},
    {"checkin_date": "3", "length_of_stay": "2", "currency": "EUR"},
    {},
]


def monday() -> date:
    """The Monday the stays are counted from: the weekend rates fall on the same nights of every stay."""
    today = datetime.now(UTC).date()
    return today + timedelta(days=7 + (7 - today.weekday()) % 7)


def day(offset: int) -> str:
    return (monday() + timedelta(days=offset)).isoformat()


def build(engine: Engine) -> tuple[str, str, dict[str, str]]:
    """The property and its channel; the names of its ids."""
    op = engine.identity.operator()

    prop = engine.properties.create(op, {"title": "Pinned Hotel", "currency": "EUR", **CONTACT})["id"]
    names = {prop: "property"}
    rooms = []
    for index in range(3):
        room = engine.inventory.room_types.create(op, {"property_id": prop, "title": f"Room {index}",
                                                       "count_of_rooms": 4, "occ_adults": 3, "occ_children": 2,
                                                       "occ_infants": 1})["id"]
        rooms.append(room)
        names[room] = f"room-{index}"
    plans: list[str] = []
    for room, settings, options in PLANS:
        plan = engine.inventory.rate_plans.create(op, {"property_id": prop, "room_type_id": rooms[room],
                                                       "title": f"Plan {len(plans)}", "options": options,
                                                       **settings})["id"]
        names[plan] = f"plan-{len(plans)}"
        plans.append(plan)
    derived = engine.inventory.rate_plans.create(op, {
        "property_id": prop, "room_type_id": rooms[1], "title": "Plan derived", "rate_mode": "derived",
        "parent_rate_plan_id": plans[3], "inherit_stop_sell": True,
        "options": [{"occupancy": 2, "rate": "95", "is_primary": True, "derived_option": {
            "rate": [["decrease_by_percent", "10"], ["increase_by_amount", "5.00"]]}}]})["id"]
    names[derived] = "plan-derived"
    members = []
    for tax in TAXES:
        made = engine.inventory.taxes.create(op, {"property_id": prop, **{k: v for k, v in tax.items() if k != "level"}})
        members.append({"id": made["id"], "level": tax["level"]})
        names[made["id"]] = f"tax-{tax['title']}"
    tax_set = engine.inventory.tax_sets.create(op, {"title": "Standard", "property_id": prop, "currency": "EUR",
                                                    "taxes": members, "associated_rate_plan_ids": plans[:2]})["id"]
    names[tax_set] = "tax-set"
    channel = engine.channels.create(op, {"title": "OpenShopping", "channel": "OpenShopping", "properties": [prop],
                                          "rate_plans": [{"rate_plan_id": p} for p in [*plans, derived]]})["id"]
    engine.inventory.ari.set_availability(op, [{"property_id": prop, "room_type_id": room, "date_from": day(0),
                                                "date_to": day(20), "availability": 2 + i} for i, room in enumerate(rooms)])
    values: list[dict[str, Any]] = []
    for i, plan in enumerate(plans):
        base = {"property_id": prop, "rate_plan_id": plan, "date_from": day(0), "date_to": day(20)}
        values.append({**base, "rate": f"{100 + 7 * i}.00"})
        values.append({**base, "days": ["fr", "sa"], "rate": f"{130 + 3 * i}.50"})
    values.append({"property_id": prop, "rate_plan_id": plans[0], "date": day(2), "rate": "99.99"})
    values.append({"property_id": prop, "rate_plan_id": plans[4], "date": day(2), "stop_sell": True})
    values.append({"property_id": prop, "rate_plan_id": plans[5], "date_from": day(0), "date_to": day(0),
                   "closed_to_arrival": True})
    engine.inventory.ari.set_restrictions(op, values)
    return channel, prop, names


def named(answer: Any, names: dict[str, str]) -> str:
    """The answer's JSON with its ids and dates put by name."""
    text = json.dumps(answer, indent=1)
    for item_id, name in names.items():
        text = text.replace(item_id, name)
    for offset in range(21):
        text = text.replace(day(offset), f"day+{offset}")
    return text


def answers(engine: Engine) -> str:
    channel, prop, names = build(engine)
    found = []
    for call in CALLS:
        params = {name: day(int(value)) if name.endswith("_date") else value for name, value in call.items()}
        found.append({"call": call, "rooms": engine.shopping.rooms(channel, prop, params)})
    return named(found, names) + "\n"


def test_the_rooms_answer_is_as_it_was(engine):
    assert answers(engine) == PINNED.read_text()
