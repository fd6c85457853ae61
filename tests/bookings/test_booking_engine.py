"""The shopping API as Channex's own booking engine calls it and reads it (ChannexIO/instant_booking_page:
src/api_actions/actions.js, what it sends; the components that read each answer, named in backend/shopping/service.py),
beside the spec's snake_case: the camelCase parameters and children's ages, the rate plans' `total_price`,
`net_price`, `length_of_stay`, `availability` and `after_reservation_cancellation_logic`, best_offer, the
property's email, phone, card and facility settings, and the body its payment form pushes."""

from __future__ import annotations

import pytest

from backend.properties.facilities import facility_id
from tests.shopping.shop import check, day, make_shop


def stay() -> dict[str, str]:
    """Two nights from the day after tomorrow, of the day the test runs (not of the day the module was collected)."""
    return {"checkinDate": day(2), "checkoutDate": day(4)}


@pytest.fixture
def shop(user):
    """Two rooms at 100.00 a night for two guests; a child adds 10.00 a night, an infant 2.00."""
    made = make_shop(user)
    check(user.client.put(f"/api/v1/rate_plans/{made.plan_id}", json={"rate_plan": {
        "children_fee": "10.00", "infant_fee": "2.00"}}))
    return made


def offers(client, shop, **params) -> list[dict]:
    data = check(client.get(f"{shop.meta}/rooms", params=params))["data"]
    return [plan for room in data for plan in room["attributes"]["rate_plans"]]


def party_and_price(client, shop, **params) -> tuple[dict, str]:
    (plan,) = offers(client, shop, **params)
    return plan["occupancy"], plan["price"]


def test_rooms_take_the_engines_camel_case_and_price_children_by_their_ages(shop, anonymous):
    assert party_and_price(anonymous, shop, **stay(), adults=1, **{"childrenAge[]": "5"}) == (
        {"adults": 1, "children": 1, "infants": 0}, "220.00")
    # Without a hotel policy, the spec's bands: under 2 is an infant, 2 to 16 a child, over 16 an adult.
    assert party_and_price(anonymous, shop, **stay(), adults=1, childrenAge="1") == (
        {"adults": 1, "children": 0, "infants": 1}, "204.00")
    assert party_and_price(anonymous, shop, **stay(), adults=1, children_age="17") == (
        {"adults": 2, "children": 0, "infants": 0}, "200.00")
    assert party_and_price(anonymous, shop, **stay(), adults=1, children=2, children_age="6,0") == (
        {"adults": 1, "children": 1, "infants": 1}, "224.00")
    repeated = anonymous.get(f"{shop.meta}/rooms", params=[*stay().items(), ("adults", "1"), ("childrenAge[]", "6"),
                                                           ("childrenAge[]", "0")])
    assert check(repeated)["data"][0]["attributes"]["rate_plans"][0]["price"] == "224.00"

    check(shop.user.client.put(f"/api/v1/properties/{shop.property_id}/hotel_policy", json={"hotel_policy": {
        "children_max_age": 12, "infant_max_age": 2}}))
    assert party_and_price(anonymous, shop, **stay(), adults=1, childrenAge="2")[0]["infants"] == 1
    assert party_and_price(anonymous, shop, **stay(), adults=1, childrenAge="13") == (
        {"adults": 2, "children": 0, "infants": 0}, "200.00")
    assert offers(anonymous, shop, **stay(), adults=1, childrenAge="5,7") == []  # the room holds one child


@pytest.mark.parametrize(("dated", "field"), [
    (lambda: {"checkin_date": day(2), "checkinDate": day(3), "checkout_date": day(4)}, "checkinDate"),
    (lambda: {**stay(), "checkout_date": day(5)}, "checkout_date"),  # named as the second of the two sent
    (lambda: {**stay(), "adults": "1", "children": "2", "childrenAge": "5"}, "children"),
    (lambda: {**stay(), "adults": "1", "childrenAge": "18"}, "childrenAge.0"),
    (lambda: {**stay(), "adults": "1", "children_age": "5,,7"}, "children_age.1"),
    (lambda: {**stay(), "adults": "1", "childrenAge[]": "null"}, "childrenAge[].0"),
    (lambda: {**stay(), "adults": "1", "childrenAge": "5", "children_age": "6"}, "children_age"),
    (lambda: {**stay(), "childrenAge": "5"}, "adults"),
    (lambda: {**stay(), "currency": "euro"}, "currency"),
    (lambda: {"checkinDate": "2020-01-01", "checkoutDate": "2020-01-03"}, "checkinDate"),
    (lambda: {"checkinDate": day(2), "lengthOfStay": "0"}, "lengthOfStay"),
    (lambda: {"checkinDate": day(2)}, "checkoutDate"),  # one left out is named in the spelling of those sent
    (lambda: {"checkoutDate": day(4), "adults": "1"}, "checkinDate"),
    (lambda: {"checkinDate": day(4), "checkoutDate": day(2)}, "checkoutDate"),
])
def test_bad_or_disagreeing_parameters_are_a_422_under_the_name_sent(shop, anonymous, dated, field):
    params = dated()  # dated when the test runs
    for call in ("rooms", "best_offer"):
        if call == "best_offer" and "lengthOfStay" in params:
            continue
        errors = check(anonymous.get(f"{shop.meta}/{call}", params=params), 422)["errors"]
        assert errors["code"] == "validation_error" and field in errors["details"], (call, errors)


def test_both_spellings_with_the_same_values_are_one_stay(shop, anonymous):
    both = offers(anonymous, shop, **stay(), checkin_date=day(2), checkout_date=day(4), adults=2)
    assert [plan["price"] for plan in both] == ["200.00"]
    assert [p["price"] for p in offers(anonymous, shop, checkinDate=day(2), lengthOfStay="2", adults=2)] == ["200.00"]


def test_property_list_takes_the_engines_spelling_and_prices_the_children_by_age(shop, anonymous):
    url = f"/api/v1/meta/{shop.channel_name}/property_list"

    def listed(**params) -> dict[str, str | None]:
        return {p["id"]: p["attributes"]["best_offer"] for p in check(anonymous.get(url, params=params))["data"]}

    assert listed(**stay(), adults="1", **{"childrenAge[]": "5"})[shop.property_id] == "220.00"
    assert listed(**stay(), adults="1", childrenAge="1")[shop.property_id] == "204.00"  # an infant, by the spec's bands
    assert listed(**stay(), adults="1", childrenAge="5") == {
        shop.property_id: check(anonymous.get(f"{shop.meta}/best_offer", params={
            **stay(), "adults": "1", "childrenAge": "5"}))["data"]["attributes"]["offer"]}
    assert listed(**stay(), adults="1", childrenAge="5,7", **{"filter[is_available]": "true"}) == {}  # one child's room
    refused = check(anonymous.get(url, params={"checkinDate": day(2), "checkout_date": day(3), "checkoutDate": day(4)}),
                    422)
    assert "checkoutDate" in refused["errors"]["details"]


def test_every_rate_plan_carries_what_the_engine_reads(shop, anonymous):
    client = shop.user.client
    check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {
        "meal_type": "breakfast",
        "taxes": [{"title": "VAT", "mode": "percent", "rate": "10", "inclusive": True},
                  {"title": "City tax", "mode": "per_room_per_night", "rate": "2", "inclusive": False}]}}))
    shop.available(day(3), day(3), 1)
    (room,) = check(anonymous.get(f"{shop.meta}/rooms", params={**stay(), "adults": "2"}))["data"]
    attributes = room["attributes"]
    (plan,) = attributes["rate_plans"]
    assert attributes["availability"] == 1 and plan["availability"] == 1  # the fewest rooms left on a night
    assert plan["price"] == "200.00" and plan["net_price"] == "181.82" and plan["total_price"] == "204.00"
    assert plan["length_of_stay"] == 2 and plan["meal_type"] == "breakfast"
    assert plan["cancellation_policy"]["after_reservation_cancellation_logic"] == "free"
    assert [t["amount"] for t in plan["taxes"]] == ["18.18", "4.00"]

    check(client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {"taxes": [], "cancellation_policy": {
        "cancellation_policy_logic": "non_refundable"}}}))
    (plan,) = offers(anonymous, shop, **stay(), adults=2)
    assert plan["price"] == plan["net_price"] == plan["total_price"] == "200.00"
    assert plan["cancellation_policy"]["after_reservation_cancellation_logic"] == "non_refundable"
    bare = check(anonymous.get(f"{shop.meta}/rooms"))["data"][0]["attributes"]
    assert bare["rate_plans"] == [] and bare["availability"] is None


def test_currency_selects_the_rate_plans_sold_in_it(shop, anonymous):
    assert len(offers(anonymous, shop, **stay(), adults=2, currency="EUR")) == 1
    assert check(anonymous.get(f"{shop.meta}/rooms", params={**stay(), "adults": "2", "currency": "USD"}))["data"] == []


def test_best_offer_in_the_shape_the_engine_reads(shop, anonymous):
    client = shop.user.client
    saver = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Saver", "children_fee": "30.00",
        "options": [{"occupancy": 2, "is_primary": True, "rate": "90.00"}]}}), 201)["data"]["id"]
    shop.sell(saver)
    shop.restrict(day(0), day(20), plan_id=saver, rate="90.00")
    url = f"{shop.meta}/best_offer"

    found = check(anonymous.get(url, params={**stay(), "adults": "2", "currency": "EUR"}))["data"]
    assert found["type"] == "best_offer" and found["id"] == shop.property_id
    assert found["attributes"] == {"offer": "180.00", "best_offer": "180.00", "currency": "EUR"}
    snake = check(anonymous.get(url, params={"checkin_date": day(2), "checkout_date": day(4), "adults": "1",
                                             "children_age": "8"}))["data"]["attributes"]
    assert snake["offer"] == "220.00"  # the child costs the saver 30.00 a night, the flexible rate 10.00
    assert check(anonymous.get(url, params={"currency": "EUR"}))["data"]["attributes"] == {
        "offer": None, "best_offer": None, "currency": "EUR"}  # no dates: no stay to price
    assert check(anonymous.get(url, params={**stay(), "currency": "USD"}))["data"]["attributes"]["offer"] is None
    shop.restrict(day(2), day(3), stop_sell=True)
    shop.restrict(day(2), day(3), plan_id=saver, stop_sell=True)
    assert check(anonymous.get(url, params=stay()))["data"]["attributes"]["offer"] is None
    assert anonymous.get(f"/api/v1/meta/{shop.channel_name}/nope/best_offer", params=stay()).status_code == 404


def test_property_info_carries_contacts_card_and_facility_settings(shop, anonymous):
    client = shop.user.client
    check(client.put(f"/api/v1/properties/{shop.property_id}", json={"property": {
        "facilities": [facility_id("Free WiFi"), facility_id("Spa"), facility_id("Free parking"),
                       facility_id("Sauna")]}}))
    check(client.put(f"/api/v1/properties/{shop.property_id}/hotel_policy", json={"hotel_policy": {
        "checkin_from_time": "15:00", "parking_type": "nearby", "pets_policy": "by_arrangements",
        "internet_access_coverage": "public_areas", "smoking_policy": "permitted_areas_only"}}))
    info = check(anonymous.get(f"{shop.meta}/property_info"))["data"]["attributes"]
    assert (info["email"], info["phone"]) == ("desk@example.com", "+44 20 7946 0000")
    assert info["request_credit_card"] is True and info["currency"] == "EUR"
    assert info["facilities"] == ["Free WiFi", "Spa", "Free parking", "Sauna"]  # the spec's list of strings
    policy = info["hotel_policy"]
    assert policy["parking_type"] == "location_nearby"  # our older value, read as the service's
    assert (policy["pets_policy"], policy["internet_access_coverage"], policy["smoking_policy"]) == (
        "by_arrangements", "public_areas", "permitted_areas_only")
    assert policy["checkin_time"] == "15:00"  # the engine reads it for a cancellation deadline's hour

    channel = f"/api/v1/channels/{shop.channel_id}"
    check(client.put(channel, json={"channel": {"settings": {"facilities_format": "grouped",
                                                             "request_credit_card": False, "theme": "dark"}}}))
    info = check(anonymous.get(f"{shop.meta}/property_info"))["data"]["attributes"]
    assert info["request_credit_card"] is False
    assert info["facilities"] == [{"category_code": "internet", "facilities": ["Free WiFi"]},
                                  {"category_code": "wellness", "facilities": ["Spa", "Sauna"]},
                                  {"category_code": "parking", "facilities": ["Free parking"]}]
    assert check(client.get(channel))["data"]["attributes"]["settings"]["theme"] == "dark"  # the channel's own
    # The rooms' facilities follow the setting too: Channex's booking engine reads both alike.
    check(client.put(f"/api/v1/room_types/{shop.room_id}", json={"room_type": {
        "facilities": ["Air conditioning", "Free WiFi", "Balcony", "Heating"]}}))
    [room] = check(anonymous.get(f"{shop.meta}/rooms"))["data"]
    assert room["attributes"]["facilities"] == [
        {"category_code": "general", "facilities": ["Air conditioning", "Balcony", "Heating"]},
        {"category_code": "internet", "facilities": ["Free WiFi"]}]
    [dated] = check(anonymous.get(f"{shop.meta}/rooms", params={"checkin_date": day(2), "checkout_date": day(3),
                                                                 "adults": 1}))["data"]
    assert dated["attributes"]["facilities"] == room["attributes"]["facilities"]
    refused = check(client.put(channel, json={"channel": {"settings": {"facilities_format": "nested",
                                                                       "request_credit_card": "yes"}}}), 422)
    assert set(refused["errors"]["details"]) == {"settings.facilities_format", "settings.request_credit_card"}


def test_a_hotel_policy_takes_the_services_parking_type(user):
    shop = make_shop(user, days=0)
    url = f"/api/v1/properties/{shop.property_id}/hotel_policy"
    assert check(user.client.put(url, json={"hotel_policy": {"parking_type": "location_nearby"}}))[
        "data"]["attributes"]["parking_type"] == "location_nearby"
    refused = check(user.client.put(url, json={"hotel_policy": {"parking_type": "street"}}), 422)
    assert "parking_type" in refused["errors"]["details"]


def engine_booking(shop, **room) -> dict:
    """What the engine's payment form pushes (src/components/payment_form/utils/builld_booking.js), snake-cased
    by its transport: the billing address in the customer, the special request as notes, per room its guests as
    `guest` and its children's ages; no card when the channel asks for none."""
    return {"booking": {
        "status": "new", "currency": "EUR", "arrival_date": day(2), "departure_date": day(4),
        "customer": {"address": "1 Rue de la Paix, Apt 4", "country": "FR", "city": "Paris", "state": "Île-de-France",
                     "zip": "75002", "name": "Léa", "surname": "Dubois", "mail": "lea@example.com",
                     "phone": "33612345678"},
        "notes": "We arrive late with a baby cot, please", "guarantee": None,
        "rooms": [{"room_type_code": shop.room_id, "rate_plan_code": shop.plan_id,
                   "occupancy": {"adults": 1, "children": 1, "infants": 0}, **room}]}}


def test_push_booking_keeps_what_the_engines_payment_form_sends(shop, anonymous):
    body = engine_booking(shop, guests_ages=[7], guest=[{"name": "Léa", "surname": "Dubois"},
                                                        {"name": "Tom", "surname": "Dubois"}])
    pushed = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]
    got = check(shop.user.client.get(f"/api/v1/bookings/{pushed['id']}"))["data"]["attributes"]
    room = got["rooms"][0]
    assert room["guests_ages"] == [7] and room["amount"] == "220.00"
    assert room["guests"] == [{"name": "Léa", "surname": "Dubois"}, {"name": "Tom", "surname": "Dubois"}]
    assert got["notes"] == "We arrive late with a baby cot, please"
    assert got["customer"]["state"] == "Île-de-France"
    unknown = engine_booking(shop, guests_ages=[None], guests=[{"name": "Léa", "surname": "Dubois"}])
    assert check(anonymous.post(f"{shop.meta}/push_booking", json=unknown), 201)["data"]["attributes"][
        "rooms"][0]["guests_ages"] == [None]  # an age the guest left blank


def booked_amount(shop, client, body: dict) -> tuple[str, dict]:
    """The booking's amount and its room's occupancy, as the property reads them after the push."""
    pushed = check(client.post(f"{shop.meta}/push_booking", json=body), 201)["data"]
    got = check(shop.user.client.get(f"/api/v1/bookings/{pushed['id']}"))["data"]["attributes"]
    occupancy = got["rooms"][0]["occupancy"]
    return got["amount"], {kind: occupancy[kind] for kind in ("adults", "children", "infants")}


@pytest.mark.parametrize(("age", "policy"), [
    (15, {"children_max_age": 12, "infant_max_age": 1}),  # a teenager the hotel counts as an adult
    (1, None),  # an infant, by the spec's bands
])
def test_a_guest_is_booked_at_the_price_rooms_showed_for_their_ages(shop, anonymous, age, policy):
    """The engine pushes every guest under 18 as a child (`infants: 0`) with their ages: the ages price the room,
    as they priced it in `rooms`."""
    if policy:
        check(shop.user.client.put(f"/api/v1/properties/{shop.property_id}/hotel_policy",
                                   json={"hotel_policy": policy}))
    shown_party, shown_price = party_and_price(anonymous, shop, **stay(), adults=1, childrenAge=str(age))
    assert shown_price == ("200.00" if age == 15 else "204.00")
    booked = booked_amount(shop, anonymous, engine_booking(shop, guests_ages=[age]))
    assert booked == (shown_price, shown_party)


def test_a_teenager_counted_as_an_adult_books_a_room_without_child_places(shop, anonymous):
    client = shop.user.client
    check(client.put(f"/api/v1/properties/{shop.property_id}/hotel_policy", json={"hotel_policy": {
        "children_max_age": 12}}))
    check(client.put(f"/api/v1/room_types/{shop.room_id}", json={"room_type": {"occ_children": 0}}))
    assert party_and_price(anonymous, shop, **stay(), adults=1, childrenAge="15")[1] == "200.00"
    assert booked_amount(shop, anonymous, engine_booking(shop, guests_ages=[15])) == (
        "200.00", {"adults": 2, "children": 0, "infants": 0})
    # Without the age, the counts price the room: a child, and the room has no place for one.
    refused = check(anonymous.post(f"{shop.meta}/push_booking", json=engine_booking(shop)), 422)
    assert list(refused["errors"]["details"]) == ["rooms.0"]


@pytest.mark.parametrize(("occupancy", "ages", "amount"), [
    ({"adults": 1, "children": 1, "infants": 0}, [], "220.00"),
    ({"adults": 1, "children": 1, "infants": 0}, [None], "220.00"),  # left blank: the count prices the child
    ({"adults": 1, "children": 1, "infants": 1}, [17], "224.00"),  # fewer ages than children and infants
    ({"adults": 1, "children": 1, "infants": 1}, [17, 0], "204.00"),  # one each: a 17-year-old is an adult
])
def test_ages_price_a_room_only_when_they_give_every_child_and_infant(shop, anonymous, occupancy, ages, amount):
    body = engine_booking(shop, guests_ages=ages)
    body["booking"]["rooms"][0]["occupancy"] = occupancy
    assert booked_amount(shop, anonymous, body)[0] == amount


def test_more_ages_than_children_and_infants_is_a_422_and_books_nothing(shop, anonymous):
    before = shop.availability(day(2), day(3))
    refused = check(anonymous.post(f"{shop.meta}/push_booking", json=engine_booking(shop, guests_ages=[5, 7])), 422)
    assert refused["errors"]["details"] == {
        "rooms.0.guests_ages": ["gives 2 ages, more than the children and infants of occupancy (1): give one age "
                                "for each"]}
    assert shop.availability(day(2), day(3)) == before


@pytest.mark.parametrize(("room", "field", "message"), [
    ({"guests_ages": [18]}, "rooms.0.guests_ages.0", "must be at most 17"),
    ({"guests_ages": ["7"]}, "rooms.0.guests_ages.0", "must be a whole number"),
    ({"guests_ages": 7}, "rooms.0.guests_ages", "must be a list"),
    ({"guest": [{"name": "A"}], "guests": [{"name": "A"}]}, "rooms.0", "give guests or guest, not both"),
])
def test_push_booking_refuses_bad_ages_and_two_guest_lists(shop, anonymous, room, field, message):
    refused = check(anonymous.post(f"{shop.meta}/push_booking", json=engine_booking(shop, **room)), 422)
    assert refused["errors"]["details"] == {field: [message]}
