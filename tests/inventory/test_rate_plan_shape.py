"""Rate plans in the service's shape (reference §4.3), and ARI reads of every value it lists (§4.4), over real
HTTP: what is sent is what is read back, and each field does what the service's clients expect of it."""

from __future__ import annotations

import uuid
from datetime import date

import pytest

from tests.shopping.shop import Shop, booking, check, day, make_shop

# The reference's example of a rate plan, as a client of the service sends it.
SERVICE_PLAN = {
    "title": "Best Available Rate", "sell_mode": "per_room", "rate_mode": "manual", "currency": "EUR",
    "children_fee": "0.00", "infant_fee": "0.00", "max_stay": [0, 0, 0, 0, 0, 0, 0],
    "min_stay_arrival": [1, 1, 1, 1, 1, 1, 1], "min_stay_through": [1, 1, 1, 1, 1, 1, 1],
    "closed_to_arrival": [False] * 7, "closed_to_departure": [False] * 7, "stop_sell": [False] * 7,
    "options": [{"occupancy": 2, "is_primary": True, "derived_option": None, "rate": 0}],
    "inherit_rate": False, "inherit_closed_to_arrival": False, "inherit_closed_to_departure": False,
    "inherit_stop_sell": False, "inherit_min_stay_arrival": False, "inherit_min_stay_through": False,
    "inherit_max_stay": False, "inherit_availability_offset": False, "inherit_max_sell": False,
    "inherit_max_availability": False, "auto_rate_settings": None, "meal_type": "none", "parent_rate_plan_id": None,
}


@pytest.fixture
def shop(user) -> Shop:
    return make_shop(user, rooms=3)


def create(shop: Shop, **fields) -> dict:
    body = {**SERVICE_PLAN, "property_id": shop.property_id, "room_type_id": shop.room_id, **fields}
    return check(shop.user.client.post("/api/v1/rate_plans", json={"rate_plan": body}), 201)["data"]


def weekday(offset: int) -> int:
    return date.fromisoformat(day(offset)).weekday()


def test_the_services_rate_plan_is_taken_and_read_back_in_its_shape(shop):
    plan = create(shop, title="Bed and breakfast", meal_type="bed_and_breakfast", children_fee=1500, infant_fee="5",
                  min_stay_arrival=[1, 1, 1, 1, 2, 2, 1], max_stay=14, stop_sell=[False] * 6 + [True])
    attributes = plan["attributes"]
    assert {k: attributes[k] for k in SERVICE_PLAN if k not in ("options", "title")} == {
        **{k: v for k, v in SERVICE_PLAN.items() if k not in ("options", "title")},
        "meal_type": "bed_and_breakfast", "children_fee": "15.00", "infant_fee": "5.00",
        "min_stay_arrival": [1, 1, 1, 1, 2, 2, 1], "max_stay": [14] * 7, "stop_sell": [False] * 6 + [True]}
    [option] = attributes["options"]
    assert uuid.UUID(option["id"]) and option["derived_option"] is None and option["rate"] == "0.00"
    assert plan["relationships"] == {"room_type": {"data": {"id": shop.room_id, "type": "room_type"}},
                                     "property": {"data": {"id": shop.property_id, "type": "property"}},
                                     "tax_set": {"data": None}}  # the property has no tax set
    client = shop.user.client
    assert check(client.get(f"/api/v1/rate_plans/{plan['id']}"))["data"] == plan
    # What was read goes back as it is, and an option keeps its id while its occupancy stays.
    again = check(client.put(f"/api/v1/rate_plans/{plan['id']}", json={"rate_plan": {
        **attributes, "options": [{**option, "rate": "120.00"}]}}))["data"]["attributes"]
    assert again["options"][0]["id"] == option["id"] and again["options"][0]["rate"] == "120.00"
    listed = check(client.get("/api/v1/rate_plans", params={"filter[property_id]": shop.property_id,
                                                             "filter[meal_type]": "bed_and_breakfast"}))["data"]
    assert [p["id"] for p in listed] == [plan["id"]]


def test_meal_plan_is_the_earlier_name_of_meal_type(shop, anonymous):
    plan = create(shop, meal_type=None, meal_plan="half_board")
    assert (plan["attributes"]["meal_type"], plan["attributes"]["meal_plan"]) == ("half_board", "half_board")
    client = shop.user.client
    changed = check(client.put(f"/api/v1/rate_plans/{plan['id']}", json={"rate_plan": {
        "meal_type": "dinner_bed_and_breakfast_plan"}}))["data"]["attributes"]
    assert changed["meal_plan"] == "dinner_bed_and_breakfast_plan"
    both = client.put(f"/api/v1/rate_plans/{plan['id']}", json={"rate_plan": {"meal_type": "breakfast",
                                                                               "meal_plan": "lunch"}})
    assert "meal_plan" in check(both, 422)["errors"]["details"]
    unknown = client.put(f"/api/v1/rate_plans/{plan['id']}", json={"rate_plan": {"meal_type": "brunch"}})
    assert "meal_type" in check(unknown, 422)["errors"]["details"]
    shop.restrict(day(1), day(2), plan_id=plan["id"], rate="90.00")
    shop.sell(plan["id"])
    offers = check(shop.rooms(anonymous, day(1), day(2), adults=2))["data"][0]["attributes"]["rate_plans"]
    offer = next(o for o in offers if o["id"] == plan["id"])
    assert (offer["meal_type"], offer["meal_plan"]) == ("dinner_bed_and_breakfast_plan", "Dinner, bed & breakfast")


def test_bad_weekday_defaults_and_fees_are_refused_by_name(shop):
    body = {**SERVICE_PLAN, "property_id": shop.property_id, "room_type_id": shop.room_id,
            "min_stay_arrival": [1, 1, 1], "max_stay": -1, "stop_sell": "yes", "closed_to_arrival": [False] * 6 + [2],
            "children_fee": "1.005", "infant_fee": -100}
    details = check(shop.user.client.post("/api/v1/rate_plans", json={"rate_plan": body}), 422)["errors"]["details"]
    assert set(details) == {"min_stay_arrival", "max_stay", "stop_sell", "closed_to_arrival.6", "children_fee",
                            "infant_fee"}


def test_weekday_defaults_hold_on_nights_without_values_of_their_own(shop, anonymous):
    """The plan closes arrivals on the weekday of day 5 and asks 3 nights from arrivals on day 6's weekday."""
    closed, longer = [False] * 7, [1] * 7
    closed[weekday(5)], longer[weekday(6)] = True, 3
    client = shop.user.client
    check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {
        "closed_to_arrival": closed, "min_stay_arrival": longer}}))
    cells = check(client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(5), "filter[date][lte]": day(6),
        "filter[restrictions]": "closed_to_arrival,min_stay_arrival"}))["data"][shop.plan_id]
    assert cells == {day(5): {"closed_to_arrival": True, "min_stay_arrival": 1},
                     day(6): {"closed_to_arrival": False, "min_stay_arrival": 3}}
    assert shop.prices(anonymous, day(5), day(6)) == []
    assert shop.prices(anonymous, day(6), day(8)) == []
    assert shop.prices(anonymous, day(6), day(9)) == ["300.00"]
    assert day(5) in check(anonymous.get(f"{shop.meta}/closed_dates"))["data"]["attributes"]["closed_to_arrival"]
    refused = anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(5), day(7)))
    assert check(refused, 422)["errors"]["details"] == {"rooms.0": [f"can't be booked: {day(5)} is closed to arrival"]}
    shop.restrict(day(5), closed_to_arrival=False)  # a value of its own wins over the weekday's
    assert shop.prices(anonymous, day(5), day(6)) == ["100.00"]
    assert day(12) in check(anonymous.get(f"{shop.meta}/closed_dates"))["data"]["attributes"]["closed_to_arrival"]


def test_children_and_infants_add_their_fees_each_night(shop, anonymous):
    check(shop.user.client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {
        "children_fee": "15.00", "infant_fee": 500}}))
    assert shop.prices(anonymous, day(1), day(3), adults=1, children=1, infants=1) == ["240.00"]
    assert shop.prices(anonymous, day(1), day(3), adults=2) == ["200.00"]
    body = booking(shop, day(1), day(3), adults=1)
    body["booking"]["rooms"][0]["occupancy"].update(children=1, infants=1)
    made = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]["attributes"]
    assert made["amount"] == "240.00" and made["rooms"][0]["days"] == {day(1): "120.00", day(2): "120.00"}


# --- ARI reads -------------------------------------------------------------------------------------

READS = ("availability", "rate", "min_stay_arrival", "min_stay_through", "min_stay", "closed_to_arrival",
         "closed_to_departure", "stop_sell", "max_stay", "availability_offset", "max_sell", "max_availability")


def read(shop: Shop, names: str | None = None) -> dict:
    params = {"filter[property_id]": shop.property_id, "filter[date][gte]": day(2), "filter[date][lte]": day(2)}
    if names is not None:
        params["filter[restrictions]"] = names
    return check(shop.user.client.get("/api/v1/restrictions", params=params))["data"][shop.plan_id][day(2)]


def test_every_restriction_the_service_lists_can_be_read(shop):
    shop.available(day(2), day(2), 1)
    shop.restrict(day(2), min_stay_arrival=2, min_stay_through=4, max_stay=9, closed_to_departure=True)
    expected = {"availability": 1, "rate": "100.00", "min_stay_arrival": 2, "min_stay_through": 4, "min_stay": 4,
                "closed_to_arrival": False, "closed_to_departure": True, "stop_sell": False, "max_stay": 9,
                "availability_offset": 0, "max_sell": None, "max_availability": None}
    for name in READS:
        assert read(shop, name) == {name: expected[name]}
    assert read(shop) == expected  # without the filter: everything
    assert read(shop, "availability,min_stay") == {"availability": 1, "min_stay": 4}
    shop.settings(min_stay_type="arrival")
    assert read(shop, "min_stay") == {"min_stay": 2}
    unknown = shop.user.client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(2), "filter[date][lte]": day(2),
        "filter[restrictions]": "rate,colour"})
    assert "filter[restrictions]" in check(unknown, 422)["errors"]["details"]


# §15's live option: "`{id, occupancy, rate:"0.00", is_primary, derived_option, rate_category_id, inherit_* …}`",
# the ten flags as channex-gql's `OccupancyOptions` lists them.
OPTION_FLAGS = ("inherit_rate", "inherit_closed_to_arrival", "inherit_closed_to_departure", "inherit_stop_sell",
                "inherit_min_stay_arrival", "inherit_min_stay_through", "inherit_max_stay", "inherit_max_sell",
                "inherit_max_availability", "inherit_availability_offset")


def test_an_option_has_every_attribute_clients_of_the_service_read(shop):
    client = shop.user.client
    [made] = create(shop, title="Plain")["attributes"]["options"]
    assert set(made) == {"id", "occupancy", "rate", "is_primary", "derived_option", "rate_category_id", *OPTION_FLAGS}
    assert {flag: made[flag] for flag in OPTION_FLAGS} == dict.fromkeys(OPTION_FLAGS, False)  # a manual plan's

    child = {"property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Child", "rate_mode": "derived",
             "parent_rate_plan_id": shop.plan_id, "inherit_stop_sell": True,
             "options": [{"occupancy": 2, "is_primary": True, "rate": 0, "rate_category_id": "cat-1",
                          "inherit_max_stay": True,
                          "derived_option": {"rate": [["increase_by_percent", "5.00"]]}}]}
    plan = check(client.post("/api/v1/rate_plans", json={"rate_plan": child}), 201)["data"]
    [option] = plan["attributes"]["options"]
    # Unsent, each flag is the plan's; sent, it is kept as sent.
    assert (option["inherit_rate"], option["inherit_stop_sell"], option["inherit_max_stay"]) == (True, True, True)
    assert (option["inherit_min_stay_arrival"], option["rate_category_id"]) == (False, "cat-1")
    stored = check(client.get(f"/api/v1/rate_plans/{plan['id']}"))["data"]["attributes"]["options"]
    assert stored == [option]
    changed = check(client.put(f"/api/v1/rate_plans/{plan['id']}", json={"rate_plan": {
        "options": [{**option, "inherit_max_stay": False, "rate_category_id": None}]}}))["data"]["attributes"]
    assert (changed["options"][0]["inherit_max_stay"], changed["options"][0]["rate_category_id"]) == (False, None)
    listed = check(client.get("/api/v1/rate_plans/options", params={"filter[id]": plan["id"]}))["data"]
    assert listed[0]["attributes"]["parent_rate_plan_id"] == shop.plan_id


def test_bad_option_attributes_are_refused_and_change_nothing(shop):
    client = shop.user.client
    plan = create(shop, title="Plain")
    [option] = plan["attributes"]["options"]
    for bad, field in (({"inherit_stop_sell": "yes"}, "options.0.inherit_stop_sell"),
                       ({"inherit_rate": True}, "options.0.inherit_rate"),  # a manual plan inherits nothing
                       ({"rate_category_id": 7}, "options.0.rate_category_id")):
        answer = client.put(f"/api/v1/rate_plans/{plan['id']}", json={"rate_plan": {"options": [{**option, **bad}]}})
        assert field in check(answer, 422)["errors"]["details"]
    assert check(client.get(f"/api/v1/rate_plans/{plan['id']}"))["data"] == plan
