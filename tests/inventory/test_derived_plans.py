"""Derived rate plans over real HTTP, from the service's documented shapes (reference §4.3): a child plan's rate
is its parent's through its modifiers and it inherits the restrictions its flags name, live, in every read:
ARI, closed dates, rooms, property_list and push_booking."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import CONTACT
from tests.shopping.shop import Shop, booking, check, day, make_shop


@pytest.fixture
def shop(user) -> Shop:
    return make_shop(user, rooms=3)


def derive(shop: Shop, title: str, rules: list, *, expect: int = 201, **fields) -> dict:
    """A derived plan of the shop's room, following the shop's plan, sold on the shop's channel."""
    body = {"property_id": shop.property_id, "room_type_id": shop.room_id, "title": title, "rate_mode": "derived",
            "parent_rate_plan_id": shop.plan_id,
            "options": [{"occupancy": 2, "is_primary": True, "derived_option": {"rate": rules}}], **fields}
    response = shop.user.client.post("/api/v1/rate_plans", json={"rate_plan": body})
    answer = check(response, expect)
    if expect == 201:
        shop.sell(answer["data"]["id"])
    return answer


def nights(shop: Shop, plan_id: str, first: int, last: int, names: str | None = None) -> dict[str, dict]:
    params = {"filter[property_id]": shop.property_id, "filter[date][gte]": day(first), "filter[date][lte]": day(last)}
    if names:
        params["filter[restrictions]"] = names
    return check(shop.user.client.get("/api/v1/restrictions", params=params))["data"][plan_id]


def price(shop: Shop, client: httpx.Client, plan_id: str, checkin: int, checkout: int) -> str | None:
    data = check(shop.rooms(client, day(checkin), day(checkout), adults=2))["data"]
    found = [p["price"] for room in data for p in room["attributes"]["rate_plans"] if p["id"] == plan_id]
    return found[0] if found else None


def push(client: httpx.Client, shop: Shop, plan_id: str, arrival: int, departure: int) -> httpx.Response:
    body = booking(shop, day(arrival), day(departure))
    body["booking"]["rooms"][0]["rate_plan_code"] = plan_id
    return client.post(f"{shop.meta}/push_booking", json=body)


# --- rates -----------------------------------------------------------------------------------------

def test_a_derived_rate_is_the_parents_through_its_modifiers_in_order(shop, anonymous):
    child = derive(shop, "Member rate", [["decrease_by_percent", "10.00"], ["increase_by_amount", "12.00"]])["data"]
    assert child["attributes"]["rate_mode"] == "derived"
    assert child["attributes"]["parent_rate_plan_id"] == shop.plan_id
    assert child["attributes"]["inherit_rate"] is True
    assert child["attributes"]["options"][0]["derived_option"] == {
        "rate": [["decrease_by_percent", "10.00"], ["increase_by_amount", "12.00"]]}
    # 100.00 less 10% is 90.00, plus 12.00: 102.00 (the other order would give 100.80)
    assert [n["rate"] for n in nights(shop, child["id"], 1, 2).values()] == ["102.00", "102.00"]
    assert price(shop, anonymous, child["id"], 1, 3) == "204.00"


def test_a_parents_change_is_seen_at_once_by_its_children(shop, anonymous):
    child = derive(shop, "Member rate", [["increase_by_percent", "5"]])["data"]["id"]
    shop.restrict(day(2), rate="200.00")
    assert nights(shop, child, 2, 2, "rate") == {day(2): {"rate": "210.00"}}
    assert price(shop, anonymous, child, 2, 3) == "210.00"
    assert check(push(anonymous, shop, child, 2, 4), 201)["data"]["attributes"]["rooms"][0]["days"] == {
        day(2): "210.00", day(3): "105.00"}


def test_amounts_are_money_and_a_derived_rate_is_rounded_once_half_up(user):
    client = user.client
    prop = check(client.post("/api/v1/properties", json={"property": {"title": "Ryokan", "currency": "JPY",
                                                                       **CONTACT}}), 201)["data"]["id"]
    room = check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": prop, "title": "Washitsu", "count_of_rooms": 1, "occ_adults": 2}}), 201)["data"]["id"]
    parent = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": prop, "room_type_id": room, "title": "Kaiseki", "options": [{"occupancy": 2, "rate": 1005}]}}),
        201)["data"]["id"]
    child = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": prop, "room_type_id": room, "title": "Early bird", "rate_mode": "derived",
        "parent_rate_plan_id": parent, "options": [{"occupancy": 2, "is_primary": True, "derived_option": {
            "rate": [["decrease_by_percent", "10"], ["decrease_by_amount", 0]]}}]}}), 201)["data"]
    assert child["attributes"]["options"][0]["derived_option"]["rate"][1] == ["decrease_by_amount", "0"]
    refused = client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": prop, "room_type_id": room, "title": "Sen", "rate_mode": "derived",
        "parent_rate_plan_id": parent, "options": [{"occupancy": 2, "derived_option": {
            "rate": [["increase_by_amount", "0.5"]]}}]}})
    assert "options.0.derived_option.rate.0" in check(refused, 422)["errors"]["details"]  # yen have no decimals
    check(client.post("/api/v1/restrictions", json={"values": [{"property_id": prop, "rate_plan_id": parent,
                                                                 "date": day(1), "rate": 1005}]}))
    read = check(client.get("/api/v1/restrictions", params={
        "filter[property_id]": prop, "filter[date][gte]": day(1), "filter[date][lte]": day(1),
        "filter[restrictions]": "rate"}))["data"]
    assert read[child["id"]] == {day(1): {"rate": "905"}}  # 904.5 yen, rounded half up


def test_the_cheapest_derived_offer_is_the_best_offer(shop, anonymous):
    child = derive(shop, "Advance purchase", [["decrease_by_amount", "25.00"]])["data"]["id"]
    listing = check(anonymous.get(f"/api/v1/meta/{shop.channel_name}/property_list", params={
        "checkin_date": day(1), "checkout_date": day(3)}))["data"]
    assert [p["attributes"]["best_offer"] for p in listing] == ["150.00"]
    assert price(shop, anonymous, child, 1, 3) == "150.00"


# --- restrictions ----------------------------------------------------------------------------------

def test_a_derived_plan_inherits_the_restrictions_its_flags_name(shop, anonymous):
    child = derive(shop, "Member rate", [["decrease_by_percent", "10"]], inherit_stop_sell=True,
                   inherit_closed_to_arrival=True)["data"]["id"]
    shop.restrict(day(3), stop_sell=True)
    shop.restrict(day(5), closed_to_arrival=True, min_stay_arrival=4)
    cells = nights(shop, child, 3, 5, "stop_sell,closed_to_arrival,min_stay_arrival")
    assert cells == {day(3): {"stop_sell": True, "closed_to_arrival": False, "min_stay_arrival": 1},
                     day(4): {"stop_sell": False, "closed_to_arrival": False, "min_stay_arrival": 1},
                     day(5): {"stop_sell": False, "closed_to_arrival": True, "min_stay_arrival": 1}}
    assert price(shop, anonymous, child, 2, 4) is None  # the parent's stop sell
    assert price(shop, anonymous, child, 5, 6) is None  # closed to arrival, inherited
    shop.restrict(day(5), closed_to_arrival=False)
    assert price(shop, anonymous, child, 5, 6) == "90.00"  # the parent's min stay of 4 is not inherited
    assert "rooms.0" in check(push(anonymous, shop, child, 2, 4), 422)["errors"]["details"]


def test_closed_dates_read_derived_plans_live(shop, anonymous):
    derive(shop, "Member rate", [["decrease_by_percent", "10"]], inherit_stop_sell=True)
    shop.restrict(day(4), stop_sell=True)
    assert day(4) in check(anonymous.get(f"{shop.meta}/closed_dates"))["data"]["attributes"]["closed"]


def test_writes_to_inherited_values_are_skipped_with_a_warning(shop):
    child = derive(shop, "Member rate", [["decrease_by_percent", "10"]], inherit_stop_sell=True)["data"]["id"]
    answer = shop.restrict(day(2), day(3), plan_id=child, rate="55.00", stop_sell=True, min_stay_arrival=2)
    assert [(w["index"], w["field"]) for w in answer["meta"]["warnings"]] == [(0, "rate"), (0, "stop_sell")]
    assert "follows its parent" in answer["meta"]["warnings"][0]["message"]
    assert nights(shop, child, 2, 2, "rate,stop_sell,min_stay_arrival") == {
        day(2): {"rate": "90.00", "stop_sell": False, "min_stay_arrival": 2}}  # its own value was written


# --- the rules of a derived plan -------------------------------------------------------------------

def test_a_derived_plan_needs_a_manual_parent_of_its_property_in_its_currency(shop, user, make_user):
    child = derive(shop, "Member rate", [])["data"]["id"]
    other = make_shop(user)
    for fields, field in (({"parent_rate_plan_id": None}, "parent_rate_plan_id"),
                          ({"parent_rate_plan_id": child}, "parent_rate_plan_id"),  # no chains
                          ({"parent_rate_plan_id": other.plan_id}, "parent_rate_plan_id"),
                          ({"currency": "GBP"}, "parent_rate_plan_id"),
                          ({"inherit_rate": False}, "inherit_rate")):
        details = derive(shop, "Bad", [], expect=422, **fields)["errors"]["details"]
        assert field in details, (fields, details)
    made_manual = shop.user.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Manual", "parent_rate_plan_id": child,
        "inherit_stop_sell": True,
        "options": [{"occupancy": 2, "derived_option": {"rate": [["increase_by_amount", 5]]}}]}})
    assert set(check(made_manual, 422)["errors"]["details"]) == {
        "parent_rate_plan_id", "inherit_stop_sell", "options.0.derived_option"}
    two = shop.user.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Two", "rate_mode": "derived",
        "parent_rate_plan_id": shop.plan_id, "options": [
            {"occupancy": 1, "derived_option": {"rate": [["increase_by_amount", 5]]}},
            {"occupancy": 2, "is_primary": True}]}})
    assert "options.0.derived_option" in check(two, 422)["errors"]["details"]  # cascade: each option derived
    parent_made_derived = shop.user.client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {
        "rate_mode": "derived", "parent_rate_plan_id": other.plan_id}})
    assert "rate_mode" in check(parent_made_derived, 422)["errors"]["details"]


@pytest.mark.parametrize("mode", ["auto", "cascade"])
def test_auto_and_cascade_rate_modes_are_not_supported(shop, mode):
    details = derive(shop, "Auto", [], expect=422, rate_mode=mode)["errors"]["details"]
    assert details["rate_mode"] == [f"{mode} is not supported: use manual, or derived with parent_rate_plan_id"]


def test_a_parent_is_not_deleted_under_its_children(shop):
    client = shop.user.client
    child = derive(shop, "Member rate", [])["data"]["id"]
    refused = check(client.delete(f"/api/v1/rate_plans/{shop.plan_id}"), 422)["errors"]["details"]
    assert refused == {"rate_plan": [
        "has derived rate plans (“Member rate”): delete them or make them manual first"]}
    suite = check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": shop.property_id, "title": "Suite", "count_of_rooms": 1, "occ_adults": 2}}), 201)["data"]["id"]
    check(client.put(f"/api/v1/rate_plans/{child}", json={"rate_plan": {"room_type_id": suite}}))
    assert "room_type" in check(client.delete(f"/api/v1/room_types/{shop.room_id}"), 422)["errors"]["details"]
    assert check(client.get(f"/api/v1/rate_plans/{shop.plan_id}"))["data"]["id"] == shop.plan_id
    manual = check(client.put(f"/api/v1/rate_plans/{child}", json={"rate_plan": {"rate_mode": "manual"}}))
    assert manual["data"]["attributes"]["parent_rate_plan_id"] is None
    assert manual["data"]["attributes"]["inherit_rate"] is False
    assert manual["data"]["attributes"]["options"][0]["derived_option"] is None
    assert nights(shop, child, 1, 1, "rate") == {day(1): {"rate": None}}  # its own rates now: none yet
    check(client.delete(f"/api/v1/rate_plans/{shop.plan_id}"))
