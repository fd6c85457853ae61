"""The shopping property list answers from the sellable index (backend/inventory/sellable.py) exactly what pricing
every rate plan answers: the same properties, the same best_offer, for every stay and party, on every store; and
the index stays what a rebuild makes of the data after every kind of change, also with writers at once."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from backend.core.errors import ValidationFailed
from backend.inventory import sellable
from backend.shopping.stay_query import parse_stay
from backend.upgrades import sellable_nights
from backend.upgrades.steps import run_pending
from tests.conftest import CONTACT

DERIVED = {"rate_mode": "derived", "inherit_closed_to_arrival": True, "inherit_stop_sell": True,
           "inherit_min_stay_arrival": True}
PARTIES = [{}, {"adults": "1"}, {"adults": "2"}, {"adults": "2", "children": "1"}, {"adults": "1", "infants": "1"},
           {"adults": "3"}, {"adults": "2", "currency": "EUR"}, {"currency": "USD"}]


def day(offset: int) -> str:
    return (datetime.now(UTC).date() + timedelta(days=offset)).isoformat()


def _options(*rates: str) -> list[dict]:
    return [{"occupancy": n + 1, "rate": rate, "is_primary": n == len(rates) - 1} for n, rate in enumerate(rates)]


class Portfolio:
    """Seven properties on one shopping channel, each with what can stop a stay: stop sells, sold-out nights, min
    stays of both kinds, max stay, closed to arrival and to departure, derived plans, two currencies, small rooms,
    a plan left unmapped, a far time zone with a cut-off, a short state_length."""

    def __init__(self, engine) -> None:
        self.engine, self.actor = engine, engine.identity.operator()
        self.properties, self.plans, self.rooms, mapped = [], {}, {}, []
        shapes = [{}, {}, {"currency": "USD", "settings": {"min_stay_type": "arrival"}},
                  {"timezone": "Pacific/Kiritimati", "settings": {"cut_off_time": "00:30:00", "cut_off_days": 1}},
                  {"settings": {"min_stay_type": "through"}}, {}, {"settings": {"state_length": 100}}]
        for n, shape in enumerate(shapes):
            prop = engine.properties.create(self.actor, {"title": f"Hotel {n}", "currency": "EUR", **CONTACT,
                                                         **shape})["id"]
            self.properties.append(prop)
            small = n == 5
            room = engine.inventory.room_types.create(self.actor, {
                "property_id": prop, "title": "Room", "count_of_rooms": 5, "occ_adults": 1 if small else 2,
                "occ_children": 0 if small else 1, "occ_infants": 1})["id"]
            base = engine.inventory.rate_plans.create(self.actor, {
                "property_id": prop, "room_type_id": room, "title": "Base",
                "options": _options("80") if small else _options("80", "100")})["id"]
            child = engine.inventory.rate_plans.create(self.actor, {
                "property_id": prop, "room_type_id": room, "title": "Saver", **DERIVED, "parent_rate_plan_id": base,
                "options": [{"occupancy": 1 if small else 2, "rate": "0", "is_primary": True,
                             "derived_option": {"rate": [["decrease_by_percent", "10"]]}}]})["id"]
            hidden = engine.inventory.rate_plans.create(self.actor, {
                "property_id": prop, "room_type_id": room, "title": "Unmapped",
                "options": _options("20") if small else _options("20", "30")})["id"]
            self.rooms[prop], self.plans[prop] = room, (base, child, hidden)
            mapped += [base, child]
            first = 1 if "timezone" in shape else 0  # its today may be tomorrow in UTC
            self.available(prop, first, 40, 3)
            self.restrict(prop, base, first, 40, rate=f"{100 + 7 * n}.00")
            self.restrict(prop, hidden, first, 40, rate="10.00")
        engine.inventory.ari.set_restrictions(self.actor, [
            {"property_id": self.properties[6], "rate_plan_id": self.plans[self.properties[6]][0],
             "date_from": day(90), "date_to": day(99), "rate": "90.00"}])
        self.available(self.properties[6], 90, 99, 1)
        p0, p1, p2, p3, p4, _, _ = self.properties
        self.restrict(p0, self.plans[p0][0], 3, 4, stop_sell=True)
        self.restrict(p0, self.plans[p0][1], 6, 6, closed_to_arrival=True)
        self.available(p1, 3, 3, 0)
        self.restrict(p1, self.plans[p1][0], 5, 5, closed_to_departure=True)
        self.restrict(p1, self.plans[p1][1], 2, 2, closed_to_arrival=True, max_stay=3)
        self.restrict(p2, self.plans[p2][0], 4, 4, min_stay_through=3, min_stay_arrival=2)
        self.restrict(p2, self.plans[p2][0], 1, 1, min_stay_arrival=4)
        self.restrict(p3, self.plans[p3][0], 1, 9, min_stay_arrival=2)
        self.restrict(p4, self.plans[p4][0], 2, 3, min_stay_through=4, closed_to_departure=True)
        self.channel = engine.channels.create(self.actor, {
            "title": "Meta", "channel": "OpenShopping", "properties": self.properties,
            "rate_plans": [{"rate_plan_id": plan} for plan in mapped]})["id"]

    def available(self, prop: str, first: int, last: int, count: int) -> None:
        self.engine.inventory.ari.set_availability(self.actor, [{"property_id": prop, "room_type_id": self.rooms[prop],
                                                                 "date_from": day(first), "date_to": day(last),
                                                                 "availability": count}])

    def restrict(self, prop: str, plan: str, first: int, last: int, **values) -> None:
        self.engine.inventory.ari.set_restrictions(self.actor, [{"property_id": prop, "rate_plan_id": plan,
                                                                 "date_from": day(first), "date_to": day(last),
                                                                 **values}])


@pytest.fixture
def portfolio(engine) -> Portfolio:
    return Portfolio(engine)


def listed(engine, channel: str, params: dict, wanted: str) -> dict[str, str | None]:
    items, meta = engine.shopping.property_list([channel], [*params.items(), ("filter[is_available]", wanted),
                                                            ("pagination[limit]", "100")])
    assert meta["total"] == len(items)
    return {item["id"]: item["best_offer"] for item in items}


def priced(engine, channel: str, params: dict, sold: set[str]) -> dict[str, str]:
    """What pricing every mapped plan of every property sold answers: the list's computed way."""
    offers = engine.shopping.best_offers([channel], parse_stay(list(params.items())), None)
    return {pid: price for pid, (price, _) in offers.items() if pid in sold}


def assert_lists_as_priced(portfolio: Portfolio, arrivals, lengths, parties=PARTIES) -> int:
    engine, channel, every = portfolio.engine, portfolio.channel, set(portfolio.properties)
    sellable_stays = 0
    for arrival in arrivals:
        for length in lengths:
            for party in parties:
                params = {"checkin_date": day(arrival), "checkout_date": day(arrival + length), **party}
                expected = priced(engine, channel, params, every)
                assert listed(engine, channel, params, "true") == expected, params
                assert listed(engine, channel, params, "false") == dict.fromkeys(every - expected.keys()), params
                sellable_stays += len(expected)
    return sellable_stays


def indexed(engine) -> list[list[tuple]]:
    return [sorted(tuple(row) for row in engine.store.query(f"SELECT * FROM {table}"))
            for table in ("sellable_nights", "channel_sold_counts")]


def assert_index_is_rebuilt(engine) -> None:
    kept = indexed(engine)
    with engine.store.transaction():
        sellable.rebuild(engine.store)
    assert indexed(engine) == kept


def test_the_indexed_list_answers_what_pricing_every_plan_answers(portfolio):
    engine = portfolio.engine
    assert assert_lists_as_priced(portfolio, range(0, 9), range(1, 8)) > 500  # plenty sells, and plenty doesn't
    assert_lists_as_priced(portfolio, (96, 97, 98), (1, 2, 3), [{}])  # the end of a short state_length
    assert_index_is_rebuilt(engine)
    # Children's ages (the property's bands) and stays beyond the index are priced, and agree as well.
    assert_lists_as_priced(portfolio, (1,), (31,), [{}, {"adults": "1", "children_age": "5"}])


def test_a_database_from_before_the_index_has_it_built_when_first_opened(portfolio):
    engine = portfolio.engine
    kept = indexed(engine)
    with engine.store.transaction() as conn:  # as a database made before it: no rows, the step not run
        for table in ("sellable_nights", "channel_sold_counts"):
            conn.execute(f"DELETE FROM {table}")
        conn.execute("DELETE FROM data_steps WHERE name = ?", (sellable_nights.STEP.name,))
    assert run_pending(engine, [sellable_nights.STEP]) == {"sellable_nights": len(portfolio.properties)}
    assert indexed(engine) == kept
    assert_lists_as_priced(portfolio, (0, 3), (1, 2), [{}])


def test_the_index_follows_every_kind_of_change(portfolio):
    engine, actor = portfolio.engine, portfolio.actor
    p0, p1, p2, *_ = portfolio.properties
    base, child, hidden = portfolio.plans[p1]
    booking = {"status": "new", "reservation_id": "R-1", "arrival_date": day(5), "departure_date": day(7),
               "currency": "EUR", "customer": {"surname": "Doe", "name": "Jane", "mail": "j@example.com",
                                               "country": "GB"},
               "rooms": [{"room_type_code": portfolio.rooms[p0], "rate_plan_code": portfolio.plans[p0][0],
                          "occupancy": {"adults": 2, "children": 0, "infants": 0}}]}
    for _ in range(3):  # the last rooms of those nights taken
        engine.bookings.push(portfolio.channel, p0, {**booking, "reservation_id": f"R-{_}"}, secure=False)
    engine.inventory.rate_plans.update(actor, base, {"options": _options("60", "70")})  # the child follows
    engine.inventory.room_types.update(actor, portfolio.rooms[p2], {"occ_adults": 3})
    engine.channels.map_rate_plan(actor, portfolio.channel, hidden, True)
    engine.channels.map_rate_plan(actor, portfolio.channel, portfolio.plans[p2][1], False)
    engine.properties.update(actor, p2, {"settings": {"min_stay_type": "both"}})
    edit = engine.inventory.ari.edit(actor, [], [{"property_id": p1, "rate_plan_id": base, "date_from": day(1),
                                                  "date_to": day(8), "stop_sell": True}])
    assert_lists_as_priced(portfolio, (0, 2, 4), (1, 2, 3), PARTIES[:4])
    assert_index_is_rebuilt(engine)
    engine.inventory.ari.undo(actor, edit.undo)
    engine.inventory.rate_plans.delete(actor, child)
    engine.properties.delete(actor, p2)
    engine.properties.update(actor, p0, {"is_active": False})
    portfolio.properties[:] = [p for p in portfolio.properties if p not in (p0, p2)]
    assert_lists_as_priced(portfolio, (0, 2, 4), (1, 2, 3), PARTIES[:4])
    assert_index_is_rebuilt(engine)
    plain = engine.shopping.property_list([portfolio.channel], [("pagination[limit]", "2")])  # the kept total
    assert plain[1]["total"] == len(portfolio.properties) and len(plain[0]) == 2
    engine.channels.disconnect(actor, portfolio.channel, p1)
    assert engine.shopping.property_list([portfolio.channel], [])[1]["total"] == len(portfolio.properties) - 1
    assert_index_is_rebuilt(engine)


def test_a_push_under_an_availability_rule_leaves_the_index_as_pricing_reads_it(portfolio):
    """A push reads its property's availability rules once, for its own check and for the index it refreshes."""
    engine, p0 = portfolio.engine, portfolio.properties[0]
    engine.availability_rules.create(portfolio.actor, {
        "title": "Two kept back", "type": "availability_offset", "value": 2, "property_id": p0,
        "affected_channels": [portfolio.channel], "affected_room_types": [portfolio.rooms[p0]],
        "start_date": day(0), "end_date": day(10)})
    stay = {"checkin_date": day(5), "checkout_date": day(6)}
    assert p0 in listed(engine, portfolio.channel, stay, "true")  # one of its 3 rooms left to the channel
    engine.bookings.push(portfolio.channel, p0, {
        "status": "new", "reservation_id": "RULED", "arrival_date": day(5), "departure_date": day(7),
        "currency": "EUR", "customer": {"surname": "Doe", "name": "Jane", "mail": "j@example.com", "country": "GB"},
        "rooms": [{"room_type_code": portfolio.rooms[p0], "rate_plan_code": portfolio.plans[p0][0],
                   "occupancy": {"adults": 2, "children": 0, "infants": 0}}]}, secure=False)
    assert p0 not in listed(engine, portfolio.channel, stay, "true")  # 2 rooms left, both kept back
    assert_lists_as_priced(portfolio, (4, 5, 6), (1, 2), [{}])
    assert_index_is_rebuilt(engine)


def test_ari_writes_and_bookings_at_once_on_one_property_leave_the_index_as_a_rebuild_makes_it(portfolio):
    engine, prop = portfolio.engine, portfolio.properties[1]
    room, (base, _, _) = portfolio.rooms[prop], portfolio.plans[prop]
    start = threading.Barrier(6)

    def work(n: int) -> None:
        rng = random.Random(n)
        start.wait(10)
        for step in range(6):
            first = rng.randrange(0, 20)
            try:
                if n % 3 == 0:
                    engine.bookings.push(portfolio.channel, prop, {
                        "status": "new", "reservation_id": f"T{n}-{step}", "arrival_date": day(first),
                        "departure_date": day(first + 2), "currency": "EUR",
                        "customer": {"surname": "Doe", "name": "Jane", "mail": "j@example.com", "country": "GB"},
                        "rooms": [{"room_type_code": room, "rate_plan_code": base,
                                   "occupancy": {"adults": 2, "children": 0, "infants": 0}}]}, secure=False)
                elif n % 3 == 1:
                    portfolio.available(prop, first, first + rng.randrange(0, 4), rng.randrange(0, 3))
                else:
                    portfolio.restrict(prop, base, first, first + rng.randrange(0, 4),
                                       stop_sell=rng.random() < 0.3, closed_to_departure=rng.random() < 0.3,
                                       min_stay_through=rng.randrange(1, 4))
            except ValidationFailed:
                pass  # a booking for nights sold out meanwhile

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(work, range(6)))
    assert_index_is_rebuilt(engine)
    assert_lists_as_priced(portfolio, (0, 5, 10), (1, 2, 3), [{}])
