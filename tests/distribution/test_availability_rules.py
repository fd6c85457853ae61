"""Availability rules (reference §9) over real HTTP: the collection in the service's shapes, bad input and access;
what a channel pulls and is pushed (a real receiver) under each kind of rule and when a rule changes; what the
shopping API shows and sells; an OTA's booking beyond a rule taken, flagged."""

from __future__ import annotations

from datetime import date

import httpx
import pytest

from tests.distribution.hotel import Hotel, adapter_of, assembled, make_hotel, settled
from tests.shopping.shop import Shop, booking, check, day, make_shop

PATH = "/api/v1/channel_availability_rules"
PULL = {"ari_distribution": "pull"}


def rule_body(property_id: str, channel_id: str, room_id: str, **fields) -> dict:
    return {"channel_availability_rule": {
        "title": "Christmas", "type": "close_out", "value": None, "affected_channels": [channel_id],
        "affected_room_types": [room_id], "days": [], "start_date": day(2), "end_date": day(3),
        "property_id": property_id, **fields}}


def add_rule(client: httpx.Client, property_id: str, channel_id: str, room_id: str, **fields) -> dict:
    return check(client.post(PATH, json=rule_body(property_id, channel_id, room_id, **fields)), 201)["data"]


def rule_count(live, property_id: str) -> int:
    return live[0].store.scalar("SELECT count(*) FROM channel_availability_rules WHERE property_id = ?",
                                (property_id,))


@pytest.fixture
def hotel(user) -> Hotel:
    return make_hotel(user.client, settings=PULL)


# --- the collection ---------------------------------------------------------------------------------------------


def test_a_rule_is_made_read_listed_changed_and_deleted_in_the_services_shapes(live, user, hotel):
    made = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id,
                    days=["su", "mo"], end_date=day(30))
    assert made == {"id": made["id"], "type": "channel_availability_rule", "attributes": {
        "id": made["id"], "type": "close_out", "value": None, "title": "Christmas", "days": ["mo", "su"],
        "start_date": day(2), "end_date": day(30), "affected_channels": [hotel.channel_id],
        "affected_room_types": [hotel.room_id]},
        "relationships": {"property": {"data": {"id": hotel.property_id, "type": "property"}}}}
    assert check(user.client.get(f"{PATH}/{made['id']}"))["data"] == made

    newer = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, title="Cap",
                     type="max_availability", value=2, end_date=None)
    listed = check(user.client.get(PATH, params={"filter[property_id]": hotel.property_id}))
    assert [r["id"] for r in listed["data"]] == [newer["id"], made["id"]]  # newest first
    assert listed["meta"] == {"page": 1, "limit": 10, "total": 2, "order_by": "inserted_at",
                              "order_direction": "desc"}
    assert newer["attributes"]["end_date"] is None and newer["attributes"]["value"] == 2

    changed = check(user.client.put(f"{PATH}/{made['id']}", json={"channel_availability_rule": {
        "type": "availability_offset", "value": 1, "days": []}}))["data"]["attributes"]
    assert (changed["type"], changed["value"], changed["days"], changed["title"]) == (
        "availability_offset", 1, [], "Christmas")  # what was not sent stays

    assert check(user.client.delete(f"{PATH}/{made['id']}")) == {"meta": {"message": "Success"}}
    assert check(user.client.get(f"{PATH}/{made['id']}"), 404) == {
        "errors": {"code": "not_found", "title": "Resouce Not Found",
                   "details": f"availability rule {made['id']} does not exist"}}
    for call in (user.client.put(f"{PATH}/{made['id']}", json={"channel_availability_rule": {"title": "x"}}),
                 user.client.delete(f"{PATH}/{made['id']}")):
        assert check(call, 404)["errors"]["code"] == "resource_not_found"
    assert rule_count(live, hotel.property_id) == 1


@pytest.mark.parametrize(("fields", "details"), [
    ({"title": None}, {"title": ["can't be blank"]}),
    ({"title": "  "}, {"title": ["can't be blank"]}),
    ({"title": "x" * 256}, {"title": ["String should have at most 255 characters"]}),
    ({"type": "closed"}, {"type": ["must be one of 'close_out', 'availability_offset' or 'max_availability'"]}),
    ({"type": "max_availability"}, {"value": ["can't be blank"]}),
    ({"type": "availability_offset", "value": -1}, {"value": ["must be at least 0"]}),
    ({"type": "availability_offset", "value": "2"}, {"value": ["must be a whole number"]}),
    ({"days": ["mo", "xx"]}, {"days.1": ["must be one of 'mo', 'tu', 'we', 'th', 'fr', 'sa' or 'su'"]}),
    ({"days": ["mo"] * 8}, {"days": ["must have at most 7 items"]}),
    ({"start_date": None}, {"start_date": ["can't be blank"]}),
    ({"start_date": "2026-02-30"}, {"start_date": ["is not a real date"]}),
    ({"end_date": lambda: day(1)}, {"end_date": ["must not be before start_date"]}),
    ({"end_date": lambda: day(2 + 3 * 366)}, {"end_date": ["may be at most 1098 days after start_date (or leave it "
                                                           "out: open-ended)"]}),
    ({"affected_channels": []}, {"affected_channels": ["can't be blank"]}),
    ({"affected_channels": ["x"] * 51}, {"affected_channels": ["must have at most 50 items"]}),
    ({"affected_room_types": None}, {"affected_room_types": ["can't be blank"]}),
    ({"unknown": 1}, {"unknown": ["is not a known field"]}),
])
def test_bad_input_is_a_422_naming_the_field_and_changes_nothing(live, user, hotel, fields, details):
    # A date is counted from the day the test runs, as the rule's start_date is (not from the day of collection).
    fields = {name: value() if callable(value) else value for name, value in fields.items()}
    answer = check(user.client.post(PATH, json=rule_body(hotel.property_id, hotel.channel_id, hotel.room_id,
                                                         **fields)), 422)
    assert answer == {"errors": {"code": "validation_error", "title": "Validation Error", "details": details}}
    assert rule_count(live, hotel.property_id) == 0


def test_channels_and_room_types_must_be_the_propertys(live, user, hotel):
    other = make_hotel(user.client, settings=PULL)  # the same user's other hotel: its channel and room
    answer = check(user.client.post(PATH, json=rule_body(
        hotel.property_id, hotel.channel_id, hotel.room_id, affected_channels=[hotel.channel_id, other.channel_id],
        affected_room_types=[other.room_id])), 422)
    assert answer["errors"]["details"] == {"affected_channels.1": ["is not a channel connected to the property"],
                                           "affected_room_types.0": ["is not a room type of the property"]}
    made = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id)
    assert check(user.client.put(f"{PATH}/{made['id']}", json={"channel_availability_rule": {
        "property_id": other.property_id}}), 422)["errors"]["details"] == {
        "property_id": ["can't be changed; create a rule for the other property"]}
    assert check(user.client.post(PATH, content=b"[]"), 400)["errors"]["code"] == "bad_request"
    assert rule_count(live, hotel.property_id) == 1


def test_another_groups_property_and_rules_are_a_401(live, user, make_user, hotel):
    made = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id)
    stranger = make_user().client
    unauthorized = {"code": "unauthorized", "title": "Unauthorized"}
    for answer in (stranger.post(PATH, json=rule_body(hotel.property_id, hotel.channel_id, hotel.room_id)),
                   stranger.get(f"{PATH}/{made['id']}"),
                   stranger.get(PATH, params={"filter[property_id]": hotel.property_id}),
                   stranger.put(f"{PATH}/{made['id']}", json={"channel_availability_rule": {"title": "Mine"}}),
                   stranger.delete(f"{PATH}/{made['id']}")):
        assert {k: v for k, v in check(answer, 401)["errors"].items() if k != "details"} == unauthorized
    assert check(stranger.get(PATH))["data"] == []
    assert check(user.client.get(f"{PATH}/{made['id']}"))["data"]["attributes"]["title"] == "Christmas"
    assert check(httpx.get(f"{live[1].url}{PATH}"), 401)["errors"]["code"] == "unauthorized"


# --- what a channel pulls and is pushed -------------------------------------------------------------------------


def _feed(live, hotel: Hotel) -> list[dict]:
    """What the channel's adapter reads now since its last ack, and acks it."""
    with adapter_of(live[1].url, hotel) as adapter:
        page = check(adapter.get("/ari"))
        check(adapter.post("/ari/ack", json={"cursor": page["meta"]["cursor"]}))
    return page["data"]


def _nights(values: list[dict], hotel: Hotel) -> dict[str, int]:
    return {d: v["availability"] for d, v in assembled(values)[hotel.room_id].items()}


def _rooms(values: list[dict]) -> list[tuple[str, str, int]]:
    return [(v["date_from"], v["date_to"], v["availability"]) for v in values if "room_type_id" in v]


@pytest.mark.parametrize(("fields", "seen", "then"), [
    ({"type": "close_out"}, 0, 0),
    ({"type": "availability_offset", "value": 2}, 3, 2),
    ({"type": "availability_offset", "value": 9}, 0, 0),  # never below none
    ({"type": "max_availability", "value": 1}, 1, 1),
    ({"type": "max_availability", "value": 9}, 5, 4),  # a ceiling above what there is changes nothing
])
def test_a_pull_channel_is_told_of_a_rule_and_of_its_end(live, user, hotel, fields, seen, then):
    hotel.available(day(1), day(5), 5)
    _feed(live, hotel)
    made = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, **fields)
    assert _rooms(_feed(live, hotel)) == [(day(2), day(3), seen)]  # the rule's nights, told at once

    hotel.available(day(1), day(5), 4)  # a later write is read under the rule too
    assert _nights(_feed(live, hotel), hotel) == {day(1): 4, day(2): then, day(3): then, day(4): 4, day(5): 4}
    check(user.client.delete(f"{PATH}/{made['id']}"))
    assert _rooms(_feed(live, hotel)) == [(day(2), day(3), 4)]  # the nights as they are again


def test_several_rules_on_a_night_the_strictest_wins_and_days_pick_weekdays(live, user, hotel):
    hotel.available(day(1), day(14), 6)
    _feed(live, hotel)
    add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, type="availability_offset", value=2,
             start_date=day(1), end_date=day(14))
    add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, type="max_availability", value=3,
             start_date=day(5), end_date=day(14))
    weekend = [day(n) for n in range(1, 15) if date.fromisoformat(day(n)).weekday() >= 5]
    add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, type="close_out", days=["sa", "su"],
             start_date=day(1), end_date=None)
    nights = _nights(_feed(live, hotel), hotel)
    expected = {day(n): 0 if day(n) in weekend else (4 if n < 5 else 3) for n in range(1, 15)}
    assert {d: nights[d] for d in expected} == expected


def test_a_rule_of_another_channel_or_room_changes_nothing_here(live, user, hotel):
    hotel.available(day(1), day(5), 5)
    _feed(live, hotel)
    second = check(user.client.post("/api/v1/channels", json={"channel": {
        "title": "Other OTA", "channel": "BookingCom", "properties": [hotel.property_id],
        "rate_plans": [{"rate_plan_id": hotel.plan_ids[0]}], "settings": PULL}}), 201)["data"]["attributes"]
    add_rule(user.client, hotel.property_id, second["id"], hotel.room_id)
    assert _rooms(_feed(live, hotel)) == []
    hotel.available(day(2), day(2), 3)
    assert _rooms(_feed(live, hotel)) == [(day(2), day(2), 3)]


def test_a_push_channel_is_sent_what_a_rule_leaves_it(site, owner, receiver):
    hotel = make_hotel(owner.client, settings={"ari_distribution": "push", "ari_url": f"{receiver.url}/ari"})
    hotel.available(day(1), day(10), 5)
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)
    made = add_rule(owner.client, hotel.property_id, hotel.channel_id, hotel.room_id, type="availability_offset",
                    value=2, start_date=day(3), end_date=day(6))
    settled(site.engine, hotel.channel_id)
    assert [v for r in receiver.received[before:] for v in r.json()["values"]] == [{
        "property_id": hotel.property_id, "room_type_id": hotel.room_id, "room_type_code": hotel.room_id,
        "date_from": day(3), "date_to": day(6), "availability": 3}]

    before = len(receiver.received)
    check(owner.client.put(f"{PATH}/{made['id']}", json={"channel_availability_rule": {
        "type": "close_out", "start_date": day(5), "end_date": day(8)}}))
    settled(site.engine, hotel.channel_id)
    assert _nights(receiver.received[before:], hotel) == {  # the nights it left open again, and its new ones
        day(3): 5, day(4): 5, day(5): 0, day(6): 0, day(7): 0, day(8): 0}


# --- the shopping API --------------------------------------------------------------------------------------------


@pytest.fixture
def shop(user) -> Shop:
    return make_shop(user, rooms=2, days=30)


def _shop_rule(shop: Shop, **fields) -> dict:
    return add_rule(shop.user.client, shop.property_id, shop.channel_id, shop.room_id, **fields)


def test_a_close_out_closes_the_nights_everywhere_the_shopping_api_shows_them(shop, anonymous):
    assert shop.prices(anonymous, day(1), day(4))
    made = _shop_rule(shop, start_date=day(2), end_date=day(2))

    assert shop.prices(anonymous, day(1), day(4)) == []
    assert shop.prices(anonymous, day(3), day(5))  # the nights after it sell
    closed = check(anonymous.get(f"{shop.meta}/closed_dates"))["data"]["attributes"]
    assert day(2) in closed["closed"] and day(3) not in closed["closed"]
    best = check(anonymous.get(f"{shop.meta}/best_offer", params={"checkin_date": day(1), "checkout_date": day(4)}))
    assert best["data"]["attributes"]["best_offer"] is None
    for available in ("true", "false"):
        listed = check(anonymous.get(f"/api/v1/meta/{shop.channel_name}/property_list", params={
            "checkin_date": day(1), "checkout_date": day(4), "filter[is_available]": available}))["data"]
        assert [p["id"] for p in listed] == ([] if available == "true" else [shop.property_id])
    plain = check(anonymous.get(f"/api/v1/meta/{shop.channel_name}/property_list", params={
        "checkin_date": day(1), "checkout_date": day(4)}))["data"]
    assert [p["attributes"]["best_offer"] for p in plain] == [None]

    refused = check(anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(1), day(4),
                                                                            reservation_id="CLOSED")), 422)
    assert refused["errors"]["details"] == {"rooms.0": [f"can't be booked: no availability on {day(2)}"]}
    assert shop.availability(day(1), day(3)) == {day(1): 2, day(2): 2, day(3): 2}  # nothing taken

    check(shop.user.client.delete(f"{PATH}/{made['id']}"))
    listed = check(anonymous.get(f"/api/v1/meta/{shop.channel_name}/property_list", params={
        "checkin_date": day(1), "checkout_date": day(4), "filter[is_available]": "true"}))["data"]
    assert [p["id"] for p in listed] == [shop.property_id]
    check(anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(1), day(4), reservation_id="OPEN")), 201)


def test_an_offset_leaves_the_channel_fewer_rooms_to_show_and_sell(shop, anonymous):
    _shop_rule(shop, type="availability_offset", value=1, start_date=day(1), end_date=day(10))
    [room] = check(shop.rooms(anonymous, day(1), day(3)))["data"]
    assert room["attributes"]["availability"] == 1
    check(anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(1), day(3), reservation_id="A")), 201)
    assert shop.prices(anonymous, day(1), day(3)) == []  # one room left, kept back from this channel
    check(anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(1), day(3), reservation_id="B")), 422)
    assert shop.availability(day(1), day(2)) == {day(1): 1, day(2): 1}


def test_a_ceiling_caps_what_the_channel_shows(shop, anonymous):
    shop.available(day(0), day(29), 2)
    _shop_rule(shop, type="max_availability", value=1, start_date=day(1), end_date=None)
    [room] = check(shop.rooms(anonymous, day(1), day(3)))["data"]
    assert room["attributes"]["availability"] == 1
    assert room["attributes"]["rate_plans"][0]["availability"] == 1
    _shop_rule(shop, type="max_availability", value=0, start_date=day(2), end_date=day(2))
    assert shop.prices(anonymous, day(1), day(3)) == []


# --- OTA bookings ------------------------------------------------------------------------------------------------


def test_an_ota_booking_beyond_a_rule_is_taken_and_flagged_overbooked(live, user):
    hotel = make_hotel(user.client)
    hotel.available(day(1), day(5), 3)
    add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, start_date=day(2), end_date=day(2))

    def stay(reservation: str, arrival: str, departure: str) -> dict:
        return {"booking": {"status": "new", "reservation_id": reservation, "property_id": hotel.property_id,
                            "arrival_date": arrival, "departure_date": departure, "currency": "EUR",
                            "customer": {"surname": "Doe", "name": "Jane"},
                            "rooms": [{"room_type_code": hotel.room_id, "rate_plan_code": hotel.plan_ids[0],
                                       "occupancy": {"adults": 2, "children": 0, "infants": 0}}]}}

    with adapter_of(live[1].url, hotel) as adapter:
        closed = check(adapter.post("/bookings", json=stay("OTA-1", day(1), day(3))), 201)["data"]["attributes"]
        open_ = check(adapter.post("/bookings", json=stay("OTA-2", day(3), day(5))), 201)["data"]["attributes"]
    assert (closed["is_overbooked"], open_["is_overbooked"]) == (True, False)
    assert hotel.ari(day(1), day(4), hotel.room_id)[hotel.room_id] == {  # its rooms taken all the same
        day(1): {"availability": 2}, day(2): {"availability": 2}, day(3): {"availability": 2},
        day(4): {"availability": 2}}
    flagged = check(user.client.get("/api/v1/bookings", params={"filter[property_id]": hotel.property_id,
                                                                "filter[is_overbooked]": "true"}))["data"]
    assert [b["attributes"]["reservation_id"] for b in flagged] == ["OTA-1"]


def test_a_deleted_channel_leaves_the_rules_that_named_it(live, user, hotel):
    other = check(user.client.post("/api/v1/channels", json={"channel": {
        "title": "Short-lived", "channel": "BookingCom", "properties": [hotel.property_id],
        "rate_plans": [{"rate_plan_id": hotel.plan_ids[0]}]}}), 201)["data"]["attributes"]
    made = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id,
                    affected_channels=[other["id"], hotel.channel_id])
    assert made["attributes"]["affected_channels"] == [other["id"], hotel.channel_id]  # in the order given
    check(user.client.delete(f"/api/v1/channels/{other['id']}"))
    assert check(user.client.get(f"{PATH}/{made['id']}"))["data"]["attributes"]["affected_channels"] == [
        hotel.channel_id]


def test_an_empty_end_date_is_open_ended_and_ids_are_bounded(live, user, hotel):
    made = add_rule(user.client, hotel.property_id, hotel.channel_id, hotel.room_id, end_date="")
    assert made["attributes"]["end_date"] is None
    answer = check(user.client.post(PATH, json=rule_body(hotel.property_id, hotel.channel_id, "x" * 65)), 422)
    assert answer["errors"]["details"] == {"affected_room_types.0": ["String should have at most 64 characters"]}


def test_the_restrictions_read_is_the_propertys_own_ari_not_a_channels_view(user, hotel):
    """GET /restrictions and GET /availability (reference §4.4) read per property and rate plan or room type, with no
    channel: they answer what the PMS wrote. A rule (§9) is per channel and changes only what its channels are sent,
    pull and sell (tested above); the read-only `availability_offset` and `max_availability` stay the service's
    rate-plan settings, which Frontdesk does not keep (0 and null), whatever rules there are."""
    client, first, last = user.client, day(2), day(3)
    check(client.post("/api/v1/availability", json={"values": [{
        "property_id": hotel.property_id, "room_type_id": hotel.room_id, "date_from": first, "date_to": last,
        "availability": 5}]}))
    add_rule(client, hotel.property_id, hotel.channel_id, hotel.room_id, type="max_availability", value=2)
    add_rule(client, hotel.property_id, hotel.channel_id, hotel.room_id, title="Offset", type="availability_offset",
             value=1)
    read = check(client.get("/api/v1/restrictions", params={
        "filter[property_id]": hotel.property_id, "filter[date][gte]": first, "filter[date][lte]": last,
        "filter[restrictions]": "availability,availability_offset,max_availability"}))["data"]
    assert read == {plan_id: {night: {"availability": 5, "availability_offset": 0, "max_availability": None}
                              for night in (first, last)} for plan_id in hotel.plan_ids}
    rooms = check(client.get("/api/v1/availability", params={
        "filter[property_id]": hotel.property_id, "filter[date][gte]": first, "filter[date][lte]": last}))["data"]
    assert rooms == {hotel.room_id: {first: 5, last: 5}}
