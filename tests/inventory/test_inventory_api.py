"""Room types, rate plans, hotel policies and ARI writes over real HTTP: shapes, rules, access."""

from __future__ import annotations

import pytest

from tests.shopping.shop import check, day, make_shop


@pytest.fixture
def shop(user):
    return make_shop(user)


def test_room_type_round_trip(shop):
    client = shop.user.client
    body = check(client.get(f"/api/v1/room_types/{shop.room_id}"))["data"]
    assert body["type"] == "room_type"
    assert body["attributes"]["count_of_rooms"] == 2 and body["attributes"]["default_occupancy"] == 2
    changed = check(client.put(f"/api/v1/room_types/{shop.room_id}", json={"room_type": {
        "title": "Deluxe Double", "bed_options": [{"title": "King bed", "count": 1, "size": "180 cm"}],
        "photos": [{"url": "https://example.com/room.jpg", "title": "The room"}]}}))["data"]["attributes"]
    assert changed["title"] == "Deluxe Double" and changed["count_of_rooms"] == 2
    listed = check(client.get("/api/v1/room_types", params={"filter[property_id]": shop.property_id}))
    assert [r["attributes"]["title"] for r in listed["data"]] == ["Deluxe Double"]


def test_room_type_validation_reports_every_field(shop):
    response = shop.user.client.post("/api/v1/room_types", json={"room_type": {
        "property_id": shop.property_id, "title": " ", "count_of_rooms": -1, "occ_adults": 0,
        "photos": [{"url": "ftp://x"}], "colour": "red"}})
    details = check(response, 422)["errors"]["details"]
    assert set(details) >= {"title", "count_of_rooms", "occ_adults", "photos.0.url", "colour"}


def test_rate_plan_rules(shop):
    client = shop.user.client
    base = {"property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Plan"}
    cases = [
        ({"options": []}, "options"),
        ({"options": [{"occupancy": 5, "rate": "10"}]}, "options.0.occupancy"),  # above the room's capacity (3)
        ({"options": [{"occupancy": 1, "rate": "-1"}]}, "options.0.rate"),
        ({"options": [{"occupancy": 1, "rate": 1.5}]}, "options.0.rate"),
        ({"options": [{"occupancy": 1, "rate": "10.005"}]}, "options.0.rate"),
        ({"options": [{"occupancy": 1, "rate": "10"}, {"occupancy": 2, "rate": "12"}]}, "options"),  # no primary
        ({"options": [{"occupancy": 1, "rate": "10"}], "sell_mode": "per_bed"}, "sell_mode"),
        ({"options": [{"occupancy": 1, "rate": "10"}], "currency": "EURO"}, "currency"),
        ({"options": [{"occupancy": 1, "rate": "10"}], "taxes": [{"title": "VAT", "mode": "sometimes", "rate": "7"}]},
         "taxes.0.mode"),
        ({"options": [{"occupancy": 1, "rate": "10"}], "cancellation_policy": {"cancellation_policy_logic": "maybe"}},
         "cancellation_policy.cancellation_policy_logic"),
        ({"options": [{"occupancy": 1, "rate": "10"}], "room_type_id": "nope"}, "room_type_id"),
    ]
    for fields, field in cases:
        details = check(client.post("/api/v1/rate_plans", json={"rate_plan": {**base, **fields}}), 422)
        assert field in details["errors"]["details"], (fields, details)
    assert check(client.get("/api/v1/rate_plans", params={"filter[property_id]": shop.property_id}))["meta"]["total"] == 1


def test_rate_plan_problems_come_in_one_answer(shop):
    """A field's own problem and what the rules that read other records say of the rest (an occupancy above the
    room's, a currency that can't change once rates are stored): one 422 names them all."""
    client = shop.user.client
    created = client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": " ", "sell_mode": "per_bed",
        "options": [{"occupancy": 9, "rate": "10"}]}})
    assert set(check(created, 422)["errors"]["details"]) == {"title", "sell_mode", "options.0.occupancy"}
    changed = client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {
        "title": "", "currency": "USD", "options": [{"occupancy": 1, "rate": "10"}, {"occupancy": 5, "rate": "12",
                                                                                    "is_primary": True}]}})
    assert set(check(changed, 422)["errors"]["details"]) == {"title", "currency", "options.1.occupancy",
                                                             "cancellation_policy.currency"}  # the stored policy's EUR


def test_room_type_problems_come_in_one_answer(shop):
    """A blank title and fewer adults than a rate plan of the room sells: both at once."""
    response = shop.user.client.put(f"/api/v1/room_types/{shop.room_id}", json={"room_type": {
        "title": "", "occ_adults": 1, "occ_children": 0, "default_occupancy": 1}})
    assert set(check(response, 422)["errors"]["details"]) == {"title", "occ_adults"}


def test_rate_plan_shape(shop):
    plan = check(shop.user.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Half board", "meal_plan": "half_board",
        "options": [{"occupancy": 1, "rate": "80"}, {"occupancy": 2, "rate": 9500, "is_primary": True}],  # minor units
        "cancellation_policy": {"cancellation_policy_logic": "deadline", "cancellation_policy_deadline": 48,
                                "cancellation_policy_deadline_type": "hours", "guarantee_payment_amount": "20"},
        "taxes": [{"title": "VAT", "mode": "percent", "rate": "7.7", "inclusive": True}]}}), 201)["data"]["attributes"]
    assert plan["currency"] == "EUR"
    assert [{k: o[k] for k in ("occupancy", "is_primary", "rate")} for o in plan["options"]] == [
        {"occupancy": 1, "is_primary": False, "rate": "80.00"}, {"occupancy": 2, "is_primary": True, "rate": "95.00"}]
    assert plan["cancellation_policy"]["guarantee_payment_amount"] == "20.00"
    assert plan["cancellation_policy"]["currency"] == "EUR"
    assert plan["taxes"][0]["rate"] == "7.7"


def test_other_users_get_401_and_unknown_ids_404(shop, make_user):
    other = make_user().client
    for path in (f"/api/v1/room_types/{shop.room_id}", f"/api/v1/rate_plans/{shop.plan_id}",
                 f"/api/v1/properties/{shop.property_id}/hotel_policy"):
        assert check(other.get(path), 401)["errors"]["code"] == "unauthorized"
    assert other.delete(f"/api/v1/rate_plans/{shop.plan_id}").status_code == 401
    assert other.get("/api/v1/availability", params={"filter[property_id]": shop.property_id,
                                                     "filter[date][gte]": day(0), "filter[date][lte]": day(1)}
                     ).status_code == 401
    assert shop.user.client.get("/api/v1/room_types/nope").status_code == 404
    response = other.post("/api/v1/room_types", json={"room_type": {
        "property_id": shop.property_id, "title": "Mine", "count_of_rooms": 1, "occ_adults": 1}})
    assert "property_id" in check(response, 422)["errors"]["details"]
    assert check(other.get("/api/v1/room_types"))["meta"]["total"] == 0


def test_deleting_a_room_type_takes_its_plans_and_nights(shop):
    client = shop.user.client
    check(client.delete(f"/api/v1/room_types/{shop.room_id}"))
    assert client.get(f"/api/v1/rate_plans/{shop.plan_id}").status_code == 404
    grid = check(client.get("/api/v1/restrictions", params={"filter[property_id]": shop.property_id,
                                                            "filter[date][gte]": day(0), "filter[date][lte]": day(2)}))
    assert grid["data"] == {}


def test_hotel_policy(shop):
    client = shop.user.client
    assert check(client.get(f"/api/v1/properties/{shop.property_id}/hotel_policy"))["data"] is None
    policy = check(client.put(f"/api/v1/properties/{shop.property_id}/hotel_policy", json={"hotel_policy": {
        "checkin_from_time": "15:00", "pets_policy": "allowed", "pets_refundable_deposit": "50"}}))["data"]["attributes"]
    assert policy["checkin_from_time"] == "15:00" and policy["pets_refundable_deposit"] == "50.00"
    assert policy["currency"] == "EUR" and policy["smoking_policy"] == "no_smoking"
    bad = client.put(f"/api/v1/properties/{shop.property_id}/hotel_policy", json={"hotel_policy": {
        "checkin_from_time": "25:00", "max_count_of_guests": 0}})
    assert set(check(bad, 422)["errors"]["details"]) == {"checkin_from_time", "max_count_of_guests"}


def test_ari_writes_apply_in_order_with_weekday_masks(shop):
    client = shop.user.client
    values = [{"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(1), "date_to": day(14),
               "rate": "120.00"},
              {"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(1), "date_to": day(14),
               "days": ["sa", "su"], "rate": 15000, "stop_sell": False, "min_stay_arrival": 2}]
    check(client.post("/api/v1/restrictions", json={"values": values}))
    grid = check(client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(1), "filter[date][lte]": day(14),
        "filter[restrictions]": "rate,min_stay_arrival"}))["data"][shop.plan_id]
    from datetime import date
    for text, cell in grid.items():
        weekend = date.fromisoformat(text).weekday() >= 5
        assert cell == ({"rate": "150.00", "min_stay_arrival": 2} if weekend else {"rate": "120.00", "min_stay_arrival": 1})


def test_rates_are_clamped_by_min_and_max_price_with_warnings(shop):
    shop.settings(min_price="50", max_price="200")
    warnings = shop.restrict(day(1), day(2), rate="20.00")["meta"]["warnings"]
    warnings += shop.restrict(day(3), rate="999.00")["meta"]["warnings"]
    assert [w["message"].split(";")[1].strip() for w in warnings] == ["stored as min_price", "stored as max_price"]
    grid = check(shop.user.client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(1), "filter[date][lte]": day(3)}))
    assert [c["rate"] for c in grid["data"][shop.plan_id].values()] == ["50.00", "50.00", "200.00"]


@pytest.mark.parametrize(("value", "field"), [
    ({"date": "2020-01-01", "rate": "10"}, "values.0.date"),
    ({"date_from": "DAY5", "date_to": "DAY2", "rate": "10"}, "values.0.date_to"),
    ({"date": "2026-02-30", "rate": "10"}, "values.0.date"),
    ({"date": "DAY1", "rate": "-5"}, "values.0.rate"),
    ({"date": "DAY1", "rate": "ten"}, "values.0.rate"),
    ({"date": "DAY1", "rate": 10.5}, "values.0.rate"),
    ({"date": "DAY1", "min_stay_arrival": 0}, "values.0.min_stay_arrival"),
    ({"date": "DAY1", "stop_sell": "yes"}, "values.0.stop_sell"),
    ({"date": "DAY1", "rate_plan_id": "nope", "rate": "10"}, "values.0.rate_plan_id"),
    ({"date": "DAY1"}, "values.0.rate"),
    ({"rate": "10"}, "values.0.date"),
])
def test_bad_restriction_values_are_refused_and_nothing_changes(shop, value, field):
    value = {k: day(int(v[3:])) if isinstance(v, str) and v.startswith("DAY") else v for k, v in value.items()}
    good = {"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date": day(1), "rate": "77.00"}
    response = shop.user.client.post("/api/v1/restrictions", json={"values": [
        good, {"property_id": shop.property_id, "rate_plan_id": shop.plan_id, **value}]})
    assert field.replace("0", "1", 1) in check(response, 422)["errors"]["details"]
    grid = check(shop.user.client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(1), "filter[date][lte]": day(1)}))
    assert grid["data"][shop.plan_id][day(1)]["rate"] == "100.00"


def test_bad_availability_values(shop):
    client = shop.user.client
    for value, field in (({"availability": -1}, "values.0.availability"), ({"availability": "3"}, "values.0.availability"),
                         ({"availability": 1, "room_type_id": shop.plan_id}, "values.0.room_type_id")):
        body = {"values": [{"property_id": shop.property_id, "room_type_id": shop.room_id, "date": day(1), **value}]}
        assert field in check(client.post("/api/v1/availability", json=body), 422)["errors"]["details"]
    assert check(client.post("/api/v1/availability", json={"values": []}), 422)["errors"]["details"] == {
        "values": ["must be a non-empty list"]}
    assert shop.availability(day(1), day(1)) == {day(1): 2}


def test_ari_reads_need_a_property_and_a_range(shop):
    client = shop.user.client
    details = check(client.get("/api/v1/availability"), 422)["errors"]["details"]
    assert set(details) == {"filter[property_id]", "filter[date][gte]", "filter[date][lte]"}
    backwards = client.get("/api/v1/restrictions", params={"filter[property_id]": shop.property_id,
                                                           "filter[date][gte]": day(5), "filter[date][lte]": day(1)})
    assert "filter[date][lte]" in check(backwards, 422)["errors"]["details"]
    unknown = client.get("/api/v1/restrictions", params={"filter[property_id]": shop.property_id,
                                                         "filter[date][gte]": day(1), "filter[date][lte]": day(1),
                                                         "filter[restrictions]": "rate,colour"})
    assert "filter[restrictions]" in check(unknown, 422)["errors"]["details"]
    assert client.get("/api/v1/availability", params={"filter[property_id]": "nope", "filter[date][gte]": day(1),
                                                      "filter[date][lte]": day(1)}).status_code == 404


def test_rates_follow_the_currencys_minor_unit(user):
    client = user.client
    from tests.conftest import CONTACT
    pid = check(client.post("/api/v1/properties", json={"property": {"title": "Yen", "currency": "JPY", **CONTACT}}),
                201)["data"]["id"]
    room = check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": pid, "title": "Washitsu", "count_of_rooms": 1, "occ_adults": 2}}), 201)["data"]["id"]
    plan = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": pid, "room_type_id": room, "title": "Kaiseki", "options": [{"occupancy": 2, "rate": "38000"}]}}),
        201)["data"]["attributes"]
    assert plan["options"][0]["rate"] == "38000"
    value = {"property_id": pid, "rate_plan_id": plan["id"], "date": day(1)}
    assert "values.0.rate" in check(client.post("/api/v1/restrictions", json={"values": [{**value, "rate": "10.5"}]}),
                                    422)["errors"]["details"]
    check(client.post("/api/v1/restrictions", json={"values": [{**value, "rate": 41000}]}))
    grid = check(client.get("/api/v1/restrictions", params={"filter[property_id]": pid, "filter[date][gte]": day(1),
                                                            "filter[date][lte]": day(1)}))
    assert grid["data"][plan["id"]][day(1)]["rate"] == "41000"
