"""The five shopping endpoints over real HTTP, as a meta channel calls them."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.shopping.shop import check, day, make_shop


def add_property(shop, title: str, city: str, latitude: str, rate: str | None = "100.00") -> str:
    """Another property on the shop's channel, with its own room and plan."""
    client = shop.user.client
    from tests.conftest import CONTACT
    pid = check(client.post("/api/v1/properties", json={"property": {
        "title": title, "currency": "EUR", **CONTACT, "city": city, "latitude": latitude}}), 201)["data"]["id"]
    room = check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": pid, "title": "Room", "count_of_rooms": 1, "occ_adults": 2}}), 201)["data"]["id"]
    plan = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": pid, "room_type_id": room, "title": "Plan", "options": [{"occupancy": 2, "rate": "1"}]}}),
        201)["data"]["id"]
    channel = check(client.get(f"/api/v1/channels/{shop.channel_id}"))["data"]["attributes"]
    check(client.put(f"/api/v1/channels/{shop.channel_id}", json={"channel": {
        "properties": [*channel["properties"], pid], "rate_plans": [*channel["rate_plans"], {"rate_plan_id": plan}]}}))
    check(client.post("/api/v1/availability", json={"values": [{
        "property_id": pid, "room_type_id": room, "date_from": day(0), "date_to": day(20), "availability": 1}]}))
    if rate:
        check(client.post("/api/v1/restrictions", json={"values": [{
            "property_id": pid, "rate_plan_id": plan, "date_from": day(0), "date_to": day(20), "rate": rate}]}))
    return pid


@pytest.fixture
def portfolio(user):
    shop = make_shop(user, rate="120.00")
    add_property(shop, "Alpha Inn", "Bern", "46.9480", rate="80.00")
    add_property(shop, "Beta Lodge", "Basel", "47.5596", rate=None)  # no rates: never available
    return shop


def titles(body) -> list[str]:
    return [p["attributes"]["title"] for p in body["data"]]


def test_property_list_with_filters_and_operators(portfolio, anonymous):
    url = f"/api/v1/meta/{portfolio.channel_name}/property_list"
    everything = check(anonymous.get(url))
    assert everything["meta"] == {"page": 1, "limit": 10, "total": 3}
    item = everything["data"][0]
    assert item["type"] == "property" and item["attributes"]["best_offer"] is None
    assert set(item["attributes"]) >= {"address", "city", "country", "description", "id", "latitude", "longitude",
                                       "photos", "state", "title", "zip_code", "best_offer"}
    assert titles(check(anonymous.get(url, params={"filter[city]": "Bern"}))) == ["Alpha Inn"]
    assert titles(check(anonymous.get(url, params={"filter[title][has]": "odg"}))) == ["Beta Lodge"]
    assert titles(check(anonymous.get(url, params={"filter[latitude][gt]": "47", "filter[latitude][lt]": "50"}))) == [
        "Beta Lodge"]
    assert titles(check(anonymous.get(url, params={"filter[latitude][lte]": "46.948"}))) == ["Alpha Inn"]
    assert len(check(anonymous.get(url, params={"filter[country][eq]": "GB"}))["data"]) == 3
    assert check(anonymous.get(url, params={"pagination[limit]": "1", "pagination[page]": "2"}))["meta"]["total"] == 3
    bad = anonymous.get(url, params={"filter[latitude][gt]": "north"})
    assert "filter[latitude][gt]" in check(bad, 422)["errors"]["details"]
    assert "filter[colour]" in check(anonymous.get(url, params={"filter[colour]": "red"}), 422)["errors"]["details"]


def test_best_offer_and_is_available(portfolio, anonymous):
    url = f"/api/v1/meta/{portfolio.channel_name}/property_list"
    stay = {"checkin_date": day(3), "checkout_date": day(5)}
    offers = {p["attributes"]["title"]: p["attributes"]["best_offer"] for p in check(anonymous.get(url, params=stay))["data"]}
    assert offers["Alpha Inn"] == "160.00" and offers["Beta Lodge"] is None
    assert [o for t, o in offers.items() if t.startswith("Shop")] == ["240.00"]
    available = check(anonymous.get(url, params={**stay, "filter[is_available]": "true"}))
    assert sorted(titles(available))[0] == "Alpha Inn" and available["meta"]["total"] == 2
    unavailable = check(anonymous.get(url, params={**stay, "filter[is_available]": "false"}))
    assert titles(unavailable) == ["Beta Lodge"]
    no_dates = anonymous.get(url, params={"filter[is_available]": "true"})
    assert "filter[is_available]" in check(no_dates, 422)["errors"]["details"]
    reversed_stay = anonymous.get(url, params={"checkin_date": day(5), "checkout_date": day(3)})
    assert "checkout_date" in check(reversed_stay, 422)["errors"]["details"]


def test_property_info(portfolio, anonymous):
    client = portfolio.user.client
    check(client.put(f"/api/v1/properties/{portfolio.property_id}/hotel_policy", json={"hotel_policy": {
        "checkin_from_time": "16:00", "is_adults_only": True}}))
    info = check(anonymous.get(f"{portfolio.meta}/property_info"))["data"]
    assert info["type"] == "property_info"
    attributes = info["attributes"]
    assert attributes["location"] == {"latitude": "51.5074", "longitude": "-0.1278"}
    assert attributes["hotel_policy"]["checkin_from_time"] == "16:00" and attributes["hotel_policy"]["is_adults_only"]
    assert isinstance(attributes["facilities"], list)


def test_closed_dates_report_min_stays_above_one_only(portfolio, anonymous):
    portfolio.restrict(day(4), min_stay_arrival=3)
    portfolio.restrict(day(6), min_stay_through=2)
    attributes = check(anonymous.get(f"{portfolio.meta}/closed_dates"))["data"]["attributes"]
    assert attributes["min_stay_arrival"] == {day(4): 3}
    assert attributes["min_stay_through"] == {day(6): 2}
    assert day(30) in attributes["closed"] and day(3) not in attributes["closed"]


def test_rooms_with_and_without_dates(portfolio, anonymous):
    bare = check(anonymous.get(f"{portfolio.meta}/rooms"))["data"]
    assert bare[0]["type"] == "room_with_rates" and bare[0]["attributes"]["rate_plans"] == []
    by_length = check(anonymous.get(f"{portfolio.meta}/rooms", params={"checkin_date": day(2), "length_of_stay": "3"}))
    plan = by_length["data"][0]["attributes"]["rate_plans"][0]
    assert plan["price"] == "360.00" and plan["occupancy"] == {"adults": 2, "children": 0, "infants": 0}
    assert set(plan) >= {"id", "title", "occupancy", "meal_plan", "price", "cancellation_policy", "taxes"}
    for params, field in (({"checkin_date": day(2), "length_of_stay": "0"}, "length_of_stay"),
                          ({"checkin_date": day(2)}, "checkout_date"),
                          ({"checkin_date": "2020-01-01", "checkout_date": "2020-01-02"}, "checkin_date"),
                          ({"checkin_date": day(2), "checkout_date": day(4), "adults": "two"}, "adults"),
                          ({"checkin_date": day(2), "checkout_date": day(4), "length_of_stay": "5"}, "checkout_date")):
        assert field in check(anonymous.get(f"{portfolio.meta}/rooms", params=params), 422)["errors"]["details"]


def test_unknown_channel_or_property_is_404(portfolio, anonymous):
    assert anonymous.get("/api/v1/meta/NoSuchChannel/property_list").status_code == 404
    assert anonymous.get(f"/api/v1/meta/{portfolio.channel_name}/nope/rooms").status_code == 404


def test_a_provider_api_key_guards_the_channel(user, anonymous):
    shop = make_shop(user, provider_api_key="s3cret-key-123")
    assert check(anonymous.get(f"{shop.meta}/rooms"), 401)["errors"]["code"] == "unauthorized"
    assert anonymous.get(f"{shop.meta}/rooms", headers={"api-key": "wrong-key-000"}).status_code == 401
    assert anonymous.get(f"{shop.meta}/rooms", headers={"api-key": "s3cret-key-123"}).status_code == 200
    listing = f"/api/v1/meta/{shop.channel_name}/property_list"
    assert anonymous.get(listing).status_code == 401
    assert check(anonymous.get(listing, headers={"api-key": "s3cret-key-123"}))["meta"]["total"] == 1


def test_cut_off_closes_todays_sales_in_the_propertys_time_zone(engine):
    """With the clock at 19:00 in Zurich and a cut-off at 18:00, today and cut_off_days more are closed."""
    from datetime import UTC, datetime

    from backend.core.config import Config
    from backend.engine import Engine
    from tests.conftest import CONTACT

    clock = {"now": datetime(2027, 3, 10, 17, 0, tzinfo=UTC)}  # 18:00 in Zurich (UTC+1)
    engine = Engine(engine.store, Config(clock=lambda: clock["now"], keys_path=engine.config.keys_path))
    op = engine.identity.operator()
    prop = engine.properties.create(op, {"title": "Cut", "currency": "CHF", **CONTACT, "timezone": "Europe/Zurich",
                                         "settings": {"cut_off_time": "18:30:00", "cut_off_days": 1}})
    room = engine.inventory.room_types.create(op, {"property_id": prop["id"], "title": "R", "count_of_rooms": 1,
                                                   "occ_adults": 2})
    plan = engine.inventory.rate_plans.create(op, {"property_id": prop["id"], "room_type_id": room["id"], "title": "P",
                                                   "options": [{"occupancy": 2, "rate": "10"}]})
    channel = engine.channels.create(op, {"title": "OpenShopping", "channel_code": "OpenShopping",
                                          "property_ids": [prop["id"]], "rate_plan_ids": [plan["id"]]})
    engine.inventory.ari.set_availability(op, [{"property_id": prop["id"], "room_type_id": room["id"],
                                                "date_from": "2027-03-10", "date_to": "2027-03-20", "availability": 1}])
    engine.inventory.ari.set_restrictions(op, [{"property_id": prop["id"], "rate_plan_id": plan["id"],
                                                "date_from": "2027-03-10", "date_to": "2027-03-20", "rate": "10"}])

    def sellable(arrival: str) -> bool:
        return bool(engine.shopping.rooms(channel["id"], prop["id"], {"checkin_date": arrival, "length_of_stay": "1"}))

    assert sellable("2027-03-10")  # 18:00 local, before the 18:30 cut-off
    clock["now"] = datetime(2027, 3, 10, 18, 0, tzinfo=UTC)  # 19:00 in Zurich
    assert not sellable("2027-03-10") and not sellable("2027-03-11") and sellable("2027-03-12")
    closed = engine.shopping.closed_dates(channel["id"], prop["id"])["closed"]
    assert closed[:2] == ["2027-03-10", "2027-03-11"] and "2027-03-12" not in closed


def test_a_property_list_being_read_holds_up_no_other_request(user, anonymous, live, monkeypatch):
    """The list is read in a worker thread: while one is being read (held here), the server answers others."""
    shop = make_shop(user)
    reading, release = threading.Event(), threading.Event()
    read = live[0].shopping.property_list

    def held(*args):
        reading.set()
        release.wait(10)
        return read(*args)

    monkeypatch.setattr(live[0].shopping, "property_list", held)
    with ThreadPoolExecutor(1) as pool:
        listed = pool.submit(anonymous.get, f"/api/v1/meta/{shop.channel_name}/property_list")
        assert reading.wait(10)
        try:
            assert check(anonymous.get("/api/v1/health", timeout=3))["data"]["attributes"]["status"] == "ok"
        finally:
            release.set()
        assert [p["id"] for p in check(listed.result())["data"]] == [shop.property_id]
