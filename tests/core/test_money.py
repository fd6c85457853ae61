"""Every money amount the engine takes reads as the service it is modelled on reads it: a whole number is
minor units (10050 is 100.50 EUR), a string a decimal; never a float. Percentages and penalties are not
money. (docs.channex.io: ARI, "rate ... or an integer in minor units"; hotels collection, "min_price /
max_price: either a string like "100.00" or an integer in minor units".)"""

from __future__ import annotations

import pytest

from tests.chat.test_chat_api import Desk, inquiry_body as airbnb_inquiry
from tests.conftest import CONTACT
from tests.shopping.shop import booking, check, day, make_shop


def plan_body(shop, **fields) -> dict:
    return {"rate_plan": {"property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Minor units",
                          "options": [{"occupancy": 2, "is_primary": True, "rate": 10000}], **fields}}


def test_an_integer_rate_is_minor_units_not_a_hundred_times_more(user):
    shop = make_shop(user)
    plan = check(user.client.post("/api/v1/rate_plans", json=plan_body(
        shop, cancellation_policy={"guarantee_payment_amount": 2050, "cancellation_policy_mode": "percent",
                                   "cancellation_policy_penalty": 50},
        taxes=[{"title": "City tax", "mode": "percent", "rate": 10}])), 201)["data"]["attributes"]
    assert plan["options"][0]["rate"] == "100.00"
    assert plan["cancellation_policy"]["guarantee_payment_amount"] == "20.50"
    assert plan["cancellation_policy"]["cancellation_policy_penalty"] == "50"  # 50 percent: not money
    assert plan["taxes"][0]["rate"] == "10"  # 10 percent: not money


@pytest.mark.parametrize("currency, sent, stored", [("JPY", 10050, "10050"), ("KWD", 10050, "10.050"),
                                                    ("EUR", "100.5", "100.50")])
def test_minor_units_follow_the_currency(user, currency, sent, stored):
    prop = check(user.client.post("/api/v1/properties", json={"property": {
        "title": f"In {currency}", "currency": currency, "settings": {"min_price": sent}}}), 201)["data"]
    assert prop["attributes"]["settings"]["min_price"] == stored
    room = check(user.client.post("/api/v1/room_types", json={"room_type": {
        "property_id": prop["id"], "title": "Room", "count_of_rooms": 1, "occ_adults": 2}}), 201)["data"]["id"]
    plan = check(user.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": prop["id"], "room_type_id": room, "title": "Plan",
        "options": [{"occupancy": 2, "is_primary": True, "rate": sent}]}}), 201)["data"]["attributes"]
    assert plan["options"][0]["rate"] == stored


@pytest.mark.parametrize("field, value", [("rate", 100.5), ("rate", "100.505"), ("rate", True), ("rate", -100)])
def test_floats_extra_decimals_and_negative_amounts_are_refused(user, field, value):
    shop = make_shop(user)
    body = plan_body(shop)
    body["rate_plan"]["options"][0][field] = value
    details = check(user.client.post("/api/v1/rate_plans", json=body), 422)["errors"]["details"]
    assert list(details) == [f"options.0.{field}"]


def test_property_price_limits_and_hotel_policy_fees_are_minor_units(user):
    prop = check(user.client.post("/api/v1/properties", json={"property": {
        "title": "Limits", "currency": "EUR", **CONTACT, "settings": {"min_price": 5000, "max_price": 90000}}}),
        201)["data"]
    assert (prop["attributes"]["settings"]["min_price"], prop["attributes"]["settings"]["max_price"]) == ("50.00", "900.00")
    policy = check(user.client.put(f"/api/v1/properties/{prop['id']}/hotel_policy", json={"hotel_policy": {
        "pets_policy": "allowed", "pets_non_refundable_fee": 1500, "internet_access_cost": "2.5"}}))["data"]
    assert policy["attributes"]["pets_non_refundable_fee"] == "15.00"
    assert policy["attributes"]["internet_access_cost"] == "2.50"


def test_booking_prices_are_minor_units(user, anonymous):
    shop = make_shop(user, rate="100.00")
    body = booking(shop, day(2), day(4), reservation_id="MONEY-1", services=[{
        "type": "Fee", "name": "Cleaning", "total_price": 2500, "price_per_unit": "25", "price_mode": "Per stay",
        "persons": 2, "nights": 2}])
    made = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]["attributes"]
    assert made["services"][0]["total_price"] == "25.00" and made["services"][0]["price_per_unit"] == "25.00"
    assert made["amount"] == "225.00"  # two nights at 100.00 and the fee
    cancelled = check(anonymous.post(f"{shop.meta}/push_booking", json={"booking": {
        "status": "cancelled", "reservation_id": "MONEY-1", "services": [{
            "type": "Fee", "name": "Late cancellation", "total_price": 5000, "price_per_unit": 5000,
            "price_mode": "Per stay", "persons": 1, "nights": 1}]}}))["data"]["attributes"]
    assert cancelled["services"][-1]["total_price"] == "50.00"  # in the booking's currency, though not named


def test_ota_nightly_prices_and_an_inquiry_payout_are_minor_units(user, live):
    desk = Desk(user, live)
    body = booking(desk.shop, day(5), day(7), property_id=desk.shop.property_id, reservation_id="OTA-M")
    body["booking"]["rooms"][0].update(room_type_code="unmapped", rate_plan_code="unmapped",
                                       days={day(5): 12000, day(6): "130"})
    made = check(desk.adapter.post(f"{desk.inbound}/bookings", json=body), 201)["data"]["attributes"]
    assert made["rooms"][0]["days"] == {day(5): "120.00", day(6): "130.00"} and made["amount"] == "250.00"
    desk.adapter.close()
    airbnb = Desk(user, live, code="AirBNB")
    inquiry = airbnb_inquiry(airbnb.shop.property_id)
    inquiry["booking_details"]["expected_payout_amount_accurate"] = 61240
    thread = check(airbnb.adapter.post(f"{airbnb.inbound}/inquiries", json={"inquiry": inquiry}), 201)["data"]
    messages = check(airbnb.client.get(f"/api/v1/message_threads/{thread['id']}/messages"))["data"]
    details = next(m for m in messages if m["attributes"]["sender"] == "system")["attributes"]["meta"]["booking_details"]
    assert details["expected_payout_amount_accurate"] == "612.40"
    airbnb.adapter.close()


def test_ari_rates_were_already_minor_units(user):
    shop = make_shop(user, rate="100.00")
    shop.restrict(day(3), rate=12345)
    read = check(user.client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(3), "filter[date][lte]": day(3),
        "filter[restrictions]": "rate"}))["data"]
    assert read[shop.plan_id][day(3)]["rate"] == "123.45"
