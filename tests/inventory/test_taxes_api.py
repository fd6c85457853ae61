"""Taxes and tax sets over HTTP, from the shapes of reference §10 (the service's taxes-and-tax-sets page): CRUD with
its statuses and error codes, the levels' documented example priced by shopping `rooms`, the property's default set,
a rate plan's `tax_set_id` and `relationships.tax_set`, its embedded `taxes[]` as its own set (priced alike), and
bad input refused with nothing changed."""

from __future__ import annotations

import pytest

from tests.shopping.shop import booking, check, day, make_shop

VAT = {"title": "VAT", "logic": "percent", "type": "tax", "rate": "20.00", "is_inclusive": False}
FEE = {"title": "Cleaning", "logic": "per_booking", "type": "fee", "rate": "10.00", "currency": "EUR",
       "is_inclusive": False}


@pytest.fixture
def shop(user):
    return make_shop(user, rooms=3)


def add_tax(shop, **fields) -> dict:
    return check(shop.user.client.post("/api/v1/taxes", json={"tax": {"property_id": shop.property_id, **fields}}),
                 201)["data"]


def add_set(shop, taxes: list[dict], **fields) -> dict:
    body = {"title": "Standard", "property_id": shop.property_id, "currency": "EUR", "taxes": taxes, **fields}
    return check(shop.user.client.post("/api/v1/tax_sets", json={"tax_set": body}), 201)["data"]


def offer(shop, anonymous, checkin: str, checkout: str, adults: int = 2) -> dict:
    data = check(shop.rooms(anonymous, checkin, checkout, adults=adults))["data"]
    (plan,) = [p for room in data for p in room["attributes"]["rate_plans"] if p["id"] == shop.plan_id]
    return plan


def listed(shop, collection: str) -> list[dict]:
    return check(shop.user.client.get(f"/api/v1/{collection}",
                                      params={"filter[property_id]": shop.property_id}))["data"]


def test_a_tax_is_made_read_changed_in_part_and_deleted_as_documented(shop):
    client = shop.user.client
    made = add_tax(shop, title="VAT", logic="percent", type="tax", rate="20.00", is_inclusive=True, skip_nights=1,
                   max_nights=10, applicable_date_ranges=[{"after": "2024-01-01", "before": "2024-12-31"}])
    assert made["type"] == "tax"
    assert made["relationships"]["property"]["data"] == {"id": shop.property_id, "type": "property"}
    attributes = made["attributes"]
    assert {k: attributes[k] for k in ("title", "logic", "rate", "currency", "is_inclusive", "skip_nights",
                                       "max_nights", "applicable_date_ranges")} == {
        "title": "VAT", "logic": "percent", "rate": "20.00", "currency": None, "is_inclusive": True,
        "skip_nights": 1, "max_nights": 10, "applicable_date_ranges": [{"after": "2024-01-01", "before": "2024-12-31"}]}
    assert (attributes["applicable_after"], attributes["applicable_before"]) == ("2024-01-01", "2024-12-31")
    url = f"/api/v1/taxes/{made['id']}"
    assert check(client.get(url))["data"]["attributes"] == attributes
    assert [t["id"] for t in listed(shop, "taxes")] == [made["id"]]

    changed = check(client.put(url, json={"tax": {"title": "Value added tax"}}))["data"]["attributes"]
    assert changed["title"] == "Value added tax" and changed["rate"] == "20.00" and changed["skip_nights"] == 1

    assert check(client.delete(url)) == {"meta": {"message": "Success"}}
    assert check(client.get(url), 404)["errors"]["code"] == "not_found"
    for response in (client.put(url, json={"tax": {"title": "Gone"}}), client.delete(url)):
        assert check(response, 404)["errors"] == {"code": "resource_not_found", "title": "Resource Not Found",
                                                  "details": f"tax {made['id']} does not exist"}


def test_the_documented_levels_a_fee_at_level_1_and_vat_at_level_0_on_100_give_vat_of_22(shop, anonymous):
    client = shop.user.client
    fee, vat = add_tax(shop, **FEE), add_tax(shop, **VAT)
    made = add_set(shop, [{"id": fee["id"], "level": 1}, {"id": vat["id"], "level": 0}],
                   associated_rate_plan_ids=[shop.plan_id])
    assert made["type"] == "tax_set"
    attributes = made["attributes"]
    assert attributes["associated_rate_plan_ids"] == [shop.plan_id] and attributes["currency"] == "EUR"
    assert [(t["id"], t["level"], t["title"], t["taxes"]) for t in attributes["taxes"]] == [
        (fee["id"], 1, "Cleaning", []), (vat["id"], 0, "VAT", [])]

    plan = offer(shop, anonymous, day(2), day(3))
    assert plan["price"] == "100.00" and plan["net_price"] == "100.00" and plan["total_price"] == "132.00"
    assert [(t["title"], t["amount"], t["level"]) for t in plan["taxes"]] == [("Cleaning", "10.00", 1),
                                                                              ("VAT", "22.00", 0)]
    rate_plan = check(client.get(f"/api/v1/rate_plans/{shop.plan_id}"))["data"]
    assert rate_plan["attributes"]["tax_set_id"] == made["id"]
    assert rate_plan["relationships"]["tax_set"] == {"data": {"id": made["id"], "type": "tax_set"}}
    assert [t["title"] for t in rate_plan["attributes"]["taxes"]] == ["Cleaning", "VAT"]

    # a tax changed prices at once with the set that holds it
    check(client.put(f"/api/v1/taxes/{vat['id']}", json={"tax": {"rate": "10"}}))
    assert offer(shop, anonymous, day(2), day(3))["total_price"] == "121.00"


def test_the_first_set_of_a_property_is_its_default_and_new_rate_plans_take_it(shop):
    client = shop.user.client
    vat = add_tax(shop, **VAT)
    first = add_set(shop, [{"id": vat["id"]}])
    second = add_set(shop, [], title="No taxes")
    assert first["attributes"]["is_default"] and not second["attributes"]["is_default"]
    assert check(client.get(f"/api/v1/rate_plans/{shop.plan_id}"))["data"]["attributes"]["tax_set_id"] is None

    def new_plan(title: str, **fields) -> dict:
        return check(client.post("/api/v1/rate_plans", json={"rate_plan": {
            "property_id": shop.property_id, "room_type_id": shop.room_id, "title": title,
            "options": [{"occupancy": 2, "rate": "90.00"}], **fields}}), 201)["data"]

    assert new_plan("Saver")["attributes"]["tax_set_id"] == first["id"]
    assert new_plan("Named", tax_set_id=second["id"])["attributes"]["tax_set_id"] == second["id"]
    assert new_plan("In USD", currency="USD")["attributes"]["tax_set_id"] is None  # the default is in EUR

    check(client.put(f"/api/v1/tax_sets/{second['id']}", json={"tax_set": {"is_default": True}}))
    defaults = {s["id"]: s["attributes"]["is_default"] for s in listed(shop, "tax_sets")}
    assert defaults == {first["id"]: False, second["id"]: True}
    assert new_plan("Later")["attributes"]["tax_set_id"] == second["id"]


def test_embedded_taxes_are_the_plans_own_set_and_price_as_the_same_taxes_in_a_set(shop, anonymous):
    client = shop.user.client
    embedded = [{"title": "City tax", "mode": "per_person_per_night", "rate": "3", "inclusive": False},
                {"title": "VAT", "mode": "percent", "rate": "10", "inclusive": True}]
    shown = check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {"taxes": embedded}}))["data"]
    own_id = shown["attributes"]["tax_set_id"]
    assert [(t["title"], t["rate"]) for t in shown["attributes"]["taxes"]] == [("City tax", "3.00"), ("VAT", "10")]
    own = check(client.get(f"/api/v1/tax_sets/{own_id}"))["data"]["attributes"]
    assert own["associated_rate_plan_ids"] == [shop.plan_id] and not own["is_default"]
    with_embedded = offer(shop, anonymous, day(2), day(4))
    first = check(client.post(f"{shop.meta}/push_booking", json=booking(shop, day(2), day(4))), 201)["data"]
    first_room = check(client.get(f"/api/v1/bookings/{first['id']}"))["data"]["attributes"]["rooms"][0]

    # the same taxes as the property's own, in a set the plan names
    city = add_tax(shop, title="City tax", logic="per_person_per_night", rate="3.00", currency="EUR",
                   is_inclusive=False)
    vat = add_tax(shop, title="VAT", logic="percent", rate="10", is_inclusive=True)
    made = add_set(shop, [{"id": city["id"]}, {"id": vat["id"]}])
    named = check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {"tax_set_id": made["id"]}}))
    assert named["data"]["attributes"]["tax_set_id"] == made["id"]
    assert check(client.get(f"/api/v1/tax_sets/{own_id}"), 404)  # its own set went when it named another
    with_set = offer(shop, anonymous, day(2), day(4))
    second = check(client.post(f"{shop.meta}/push_booking", json=booking(shop, day(2), day(4))), 201)["data"]
    second_room = check(client.get(f"/api/v1/bookings/{second['id']}"))["data"]["attributes"]["rooms"][0]

    assert {k: with_set[k] for k in ("price", "net_price", "total_price")} == {
        k: with_embedded[k] for k in ("price", "net_price", "total_price")} == {
        "price": "200.00", "net_price": "181.82", "total_price": "212.00"}
    assert [t["amount"] for t in with_set["taxes"]] == [t["amount"] for t in with_embedded["taxes"]] == ["12.00",
                                                                                                         "18.18"]
    assert second_room["taxes"] == first_room["taxes"]
    assert [t["total_price"] for t in second_room["taxes"]] == ["12.00", "18.18"]

    # taxes: [] leaves the plan no set; sending back what it read changes nothing
    read = check(client.get(f"/api/v1/rate_plans/{shop.plan_id}"))["data"]["attributes"]
    again = check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {
        "taxes": read["taxes"], "tax_set_id": read["tax_set_id"], "title": read["title"]}}))["data"]["attributes"]
    assert again["tax_set_id"] == made["id"]
    cleared = check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {"taxes": []}}))
    assert cleared["data"]["attributes"]["tax_set_id"] is None and cleared["data"]["attributes"]["taxes"] == []
    assert cleared["data"]["relationships"]["tax_set"] == {"data": None}


def test_what_is_in_use_is_not_deleted(shop):
    client = shop.user.client
    vat = add_tax(shop, **VAT)
    made = add_set(shop, [{"id": vat["id"]}], title="Standard", associated_rate_plan_ids=[shop.plan_id])
    refused = check(client.delete(f"/api/v1/taxes/{vat['id']}"), 422)["errors"]
    assert refused["details"] == {"tax": ["is in tax sets “Standard”: take it out of them first"]}
    refused = check(client.delete(f"/api/v1/tax_sets/{made['id']}"), 422)["errors"]
    assert refused["details"] == {"tax_set": ["prices rate plans “Flexible”: give them another tax set (tax_set_id) "
                                              "first"]}
    check(client.put(f"/api/v1/tax_sets/{made['id']}", json={"tax_set": {"associated_rate_plan_ids": []}}))
    check(client.delete(f"/api/v1/tax_sets/{made['id']}"))
    check(client.delete(f"/api/v1/taxes/{vat['id']}"))
    assert listed(shop, "taxes") == [] and listed(shop, "tax_sets") == []


def test_the_update_path_the_page_prints_is_an_alias(shop):
    made = add_set(shop, [])
    renamed = check(shop.user.client.put(f"/api/v1/tax_set/{made['id']}", json={"tax": {"title": "Renamed"}}))
    assert renamed["data"]["attributes"]["title"] == "Renamed"


@pytest.mark.parametrize(("fields", "field"), [
    ({**VAT, "rate": "101"}, "rate"),
    ({**VAT, "applicable_date_ranges": [{"after": "2027-01-01", "before": "2027-01-02"}] * 21},
     "applicable_date_ranges"),
    ({**VAT, "logic": "per_galaxy"}, "logic"),
    ({**FEE, "currency": None}, "currency"),
    ({**FEE, "rate": 10.5}, "rate"),
    ({**FEE, "rate": "10.005"}, "rate"),
    ({**VAT, "title": "T" * 256}, "title"),
    ({**VAT, "type": "surcharge"}, "type"),
    ({**VAT, "skip_nights": 0}, "skip_nights"),
    ({**VAT, "applicable_date_ranges": [{"after": "2027-02-01", "before": "2027-01-01"}]},
     "applicable_date_ranges.0"),
])
def test_bad_taxes_are_refused_and_nothing_changes(shop, fields, field):
    client = shop.user.client
    kept = add_tax(shop, **VAT)
    made = check(client.post("/api/v1/taxes", json={"tax": {"property_id": shop.property_id, **fields}}), 422)
    assert made["errors"]["code"] == "validation_error" and field in made["errors"]["details"], made
    changed = check(client.put(f"/api/v1/taxes/{kept['id']}", json={"tax": fields}), 422)
    assert field in changed["errors"]["details"]
    assert [t["attributes"] for t in listed(shop, "taxes")] == [kept["attributes"]]


def test_bad_tax_sets_and_rate_plan_links_are_refused_and_nothing_changes(shop, make_user):
    client = shop.user.client
    fee = add_tax(shop, **FEE)
    other = make_shop(make_user())
    foreign = add_tax(other, **VAT)
    body = {"title": "Standard", "property_id": shop.property_id, "currency": "EUR"}
    for taxes, field in (([{"id": foreign["id"]}], "taxes.0.id"), ([{"id": "nope"}], "taxes.0.id"),
                         ([{"id": fee["id"], "level": 100}], "taxes.0.level"),
                         ([{"id": fee["id"]}, {"id": fee["id"]}], "taxes")):
        refused = check(client.post("/api/v1/tax_sets", json={"tax_set": {**body, "taxes": taxes}}), 422)
        assert field in refused["errors"]["details"], refused
    refused = check(client.post("/api/v1/tax_sets", json={"tax_set": {**body, "currency": "USD",
                                                                       "taxes": [{"id": fee["id"]}]}}), 422)
    assert "taxes.0.id" in refused["errors"]["details"]  # an amount in EUR in a set in USD
    assert listed(shop, "tax_sets") == []

    in_usd = add_set(shop, [], currency="USD")
    for link, field in (({"tax_set_id": in_usd["id"]}, "tax_set_id"), ({"tax_set_id": "nope"}, "tax_set_id"),
                        ({"taxes": [{"title": "VAT", "mode": "percent", "rate": "101"}]}, "taxes.0.rate"),
                        ({"taxes": [{"title": "Fee", "mode": "per_night", "rate": 1.5}]}, "taxes.0.rate"),
                        ({"taxes": [{"title": "VAT", "mode": "percent", "rate": "5"}], "tax_set_id": in_usd["id"]},
                         "taxes")):
        refused = check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": link}), 422)
        assert field in refused["errors"]["details"], refused
    plan = check(client.get(f"/api/v1/rate_plans/{shop.plan_id}"))["data"]["attributes"]
    assert plan["tax_set_id"] is None and plan["taxes"] == []


def test_someone_elses_taxes_and_sets_are_401(shop, make_user):
    vat = add_tax(shop, **VAT)
    made = add_set(shop, [{"id": vat["id"]}])
    stranger = make_user().client
    for url in (f"/api/v1/taxes/{vat['id']}", f"/api/v1/tax_sets/{made['id']}"):
        assert check(stranger.get(url), 401)["errors"]["code"] == "unauthorized"
        assert check(stranger.delete(url), 401)["errors"]["code"] == "unauthorized"
    assert check(stranger.put(f"/api/v1/taxes/{vat['id']}", json={"tax": {"title": "Mine"}}), 401)
    assert check(stranger.post("/api/v1/taxes", json={"tax": {**VAT, "property_id": shop.property_id}}), 422)
    assert check(stranger.get("/api/v1/taxes", params={"filter[property_id]": shop.property_id}))["data"] == []


def test_a_rate_plans_own_set_and_taxes_go_with_it(shop):
    client = shop.user.client
    plan = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Own taxes",
        "options": [{"occupancy": 2, "rate": "90.00"}],
        "taxes": [{"title": "VAT", "mode": "percent", "rate": "10", "inclusive": True}]}}), 201)["data"]
    own_id = plan["attributes"]["tax_set_id"]
    (own_tax,) = check(client.get(f"/api/v1/tax_sets/{own_id}"))["data"]["attributes"]["taxes"]
    refused = check(client.post("/api/v1/tax_sets", json={"tax_set": {
        "title": "Borrowed", "property_id": shop.property_id, "currency": "EUR", "taxes": [{"id": own_tax["id"]}]}}),
        422)
    assert "taxes.0.id" in refused["errors"]["details"]
    check(client.delete(f"/api/v1/rate_plans/{plan['id']}"))
    assert check(client.get(f"/api/v1/tax_sets/{own_id}"), 404)["errors"]["code"] == "not_found"
    assert check(client.get(f"/api/v1/taxes/{own_tax['id']}"), 404)["errors"]["code"] == "not_found"
