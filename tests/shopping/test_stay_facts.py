"""A stay summed up by the database (backend/inventory/calendar.py `stay_facts`, one row a plan) is judged as the
same stay read night by night (`restrictions`, then stays.facts_of): the same rates, or not sellable for the same
reason, on random ARI with gaps, rows without a rate, weekday defaults of every kind and derived plans inheriting
some of their parent's restrictions. A plan the summary can't settle (a weekday default that stops sale or raises
the min stay through) is read night by night: both kinds occur here."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, date, datetime, timedelta

from backend.inventory.calendar import Scope
from backend.inventory.stays import Nights, NotSellable, facts_of, open_rates
from backend.inventory.store import property_row
from backend.inventory.window import window_of
from tests.conftest import CONTACT

DAYS = 30


def week(rng: random.Random, kind: str) -> list:
    """Seven weekday defaults, mostly the plain ones."""
    if kind in ("stop_sell", "closed_to_arrival", "closed_to_departure"):
        return [rng.random() < 0.15 for _ in range(7)]
    if kind == "max_stay":
        return [rng.choice([0, 0, 0, 4, 9]) for _ in range(7)]
    return [rng.choice([1, 1, 1, 2, 3]) for _ in range(7)]


def build(engine, rng: random.Random) -> tuple[str, list[str], str]:
    """A property, two rooms, manual plans (some with weekday defaults) and derived ones, and random ARI."""
    op = engine.identity.operator()
    today = datetime.now(UTC).date()
    prop = engine.properties.create(op, {"title": "Facts", "currency": "EUR", **CONTACT})["id"]
    rooms = [engine.inventory.room_types.create(op, {"property_id": prop, "title": f"Room {n}", "count_of_rooms": 4,
                                                     "occ_adults": 2})["id"] for n in range(2)]
    manual, plans = [], []
    kinds = ([], [], ["min_stay_through"], ["stop_sell"],  # plain, plain, each of what a summary can't settle,
             ["min_stay_arrival", "max_stay", "closed_to_arrival", "closed_to_departure"],  # what it can, and all
             ["stop_sell", "min_stay_through", "min_stay_arrival", "max_stay", "closed_to_arrival", "closed_to_departure"])
    for n in range(6):
        defaults = {kind: week(rng, kind) for kind in kinds[n]}
        plan = engine.inventory.rate_plans.create(op, {
            "property_id": prop, "room_type_id": rooms[n % 2], "title": f"Plan {n}", **defaults,
            "options": [{"occupancy": 2, "rate": "100", "is_primary": True}]})["id"]
        manual.append(plan)
    for n, parent in enumerate(manual):
        flags = {f"inherit_{kind}": rng.random() < 0.5 for kind in (
            "stop_sell", "min_stay_through", "min_stay_arrival", "max_stay", "closed_to_arrival", "closed_to_departure")}
        plans.append(engine.inventory.rate_plans.create(op, {
            "property_id": prop, "room_type_id": rooms[n % 2], "title": f"Derived {n}", "rate_mode": "derived",
            "parent_rate_plan_id": parent, **flags, "stop_sell": week(rng, "stop_sell") if n % 3 == 0 else False,
            "options": [{"occupancy": 2, "rate": "0", "is_primary": True,
                         "derived_option": {"rate": [["decrease_by_percent", "10"]]}}]})["id"])
    plans += manual[:4]  # two manual plans stay out of the asked set: derived plans' parents read beside them
    when = lambda offset: (today + timedelta(days=offset)).isoformat()  # noqa: E731
    engine.inventory.ari.set_availability(op, [{"property_id": prop, "room_type_id": room, "date_from": when(0),
                                                "date_to": when(DAYS), "availability": 2} for room in rooms])
    engine.inventory.ari.set_availability(op, [{"property_id": prop, "room_type_id": rng.choice(rooms),
                                                "date": when(rng.randrange(DAYS)), "availability": 0}
                                               for _ in range(3)])
    values = []
    for plan in manual:
        for offset in range(DAYS + 1):
            if rng.random() < 0.05:
                continue  # no row at all
            night = {"property_id": prop, "rate_plan_id": plan, "date": when(offset)}
            if rng.random() < 0.95:
                night["rate"] = f"{90 + rng.randrange(40)}.00"
            for kind, chance in (("stop_sell", 0.05), ("closed_to_arrival", 0.1), ("closed_to_departure", 0.1)):
                if rng.random() < chance:
                    night[kind] = rng.random() < 0.7
            for kind, chance in (("min_stay_through", 0.1), ("min_stay_arrival", 0.1), ("max_stay", 0.05)):
                if rng.random() < chance:
                    night[kind] = rng.choice([1, 2, 3, 5]) if kind != "max_stay" else rng.choice([0, 3, 8])
            if len(night) == 3:
                night["stop_sell"] = False  # a row with no rate, nor any other value than a plain one
            values.append(night)
    derived_rows = [{"property_id": prop, "rate_plan_id": plan, "date": when(rng.randrange(DAYS)),
                     rng.choice(["stop_sell", "closed_to_arrival"]): True} for plan in plans[:6] for _ in range(3)]
    engine.inventory.ari.set_restrictions(op, values + derived_rows)
    return prop, plans, today.isoformat()


def outcome(facts, nights: Nights, window, min_stay_type: str) -> tuple:
    """Sold at these rates, or why not, a night's own reason told only as such."""
    try:
        return ("sold", tuple(open_rates(nights, window, facts, min_stay_type)))
    except NotSellable as why:
        reason = str(why)
        return ("closed", "a night" if facts.closed is not None and reason == facts.closed else reason)


def test_a_summed_stay_is_judged_as_the_stay_read_night_by_night(engine):
    rng = random.Random(24)
    prop, plan_ids, first = build(engine, rng)
    calendar = engine.shopping.calendar
    plans = list(calendar.plans(plan_ids).values())
    window = window_of(property_row(engine.store, prop), datetime.now(UTC))
    seen: Counter[str] = Counter()
    for arrival in range(DAYS - 9):
        for length in range(1, 10):
            start = date.fromisoformat(first) + timedelta(days=arrival)
            nights = Nights.of(start, start + timedelta(days=length))
            last = nights.departure.isoformat()
            availability = calendar.availability(Scope(tuple({p.room_type_id for p in plans})), nights.keys[0], last)
            left = {room: min(availability.get(room, {}).get(key, 0) for key in nights.keys) for room in availability}
            summed = calendar.stay_facts(plans, nights, availability, left)
            read = calendar.restrictions(Scope(tuple(p.id for p in plans)), nights.keys[0], last, plans)
            for plan in plans:
                by_night = facts_of(nights, read[plan.id], availability.get(plan.room_type_id, {}))
                expected = outcome(by_night, nights, window, "both")
                if by_night.closed is not None and summed[plan.id].closed == by_night.closed:
                    seen["read night by night"] += 1  # a summary's reason names no night
                assert outcome(summed[plan.id], nights, window, "both") == expected, (plan.title, nights.keys)
                seen["derived" if plan.parent_id else "manual"] += 1
                seen[expected[0]] += 1
                seen["a night closed" if expected[1] == "a night" else "other"] += 1
    assert min(seen.values()) >= 20, seen  # every kind of plan and outcome was compared, and some were left out
