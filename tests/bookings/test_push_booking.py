"""push_booking and OTA bookings over real HTTP: rules, availability, concurrency, revisions, cards."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.shopping.shop import CARD, booking, check, day, make_shop
from tests.stores import on_disk


@pytest.fixture
def shop(user):
    return make_shop(user, rooms=3)


def push(client: httpx.Client, shop, body: dict) -> httpx.Response:
    return client.post(f"{shop.meta}/push_booking", json=body)


def test_new_booking_takes_rooms_and_answers_with_ids(shop, anonymous):
    body = check(push(anonymous, shop, booking(shop, day(2), day(5), reservation_id="R-1")), 201)["data"]
    attributes = body["attributes"]
    assert body["type"] == "booking"
    assert attributes["unique_id"] == "OSH-R-1" and attributes["reservation_id"] == "R-1"
    assert attributes["status"] == "new" and attributes["revision_id"]
    assert attributes["amount"] == "300.00"
    assert attributes["rooms"][0]["days"] == {day(2): "100.00", day(3): "100.00", day(4): "100.00"}
    assert shop.availability(day(1), day(5)) == {day(1): 3, day(2): 2, day(3): 2, day(4): 2, day(5): 3}


def test_empty_reservation_id_gets_a_generated_one(shop, anonymous):
    attributes = check(push(anonymous, shop, booking(shop, day(2), day(3))), 201)["data"]["attributes"]
    assert len(attributes["reservation_id"]) == 36 and attributes["unique_id"] == f"OSH-{attributes['reservation_id']}"


def test_repeating_the_same_new_is_idempotent(shop, anonymous):
    first = check(push(anonymous, shop, booking(shop, day(2), day(4), reservation_id="R-2")), 201)["data"]
    again = check(push(anonymous, shop, booking(shop, day(2), day(4), reservation_id="R-2")), 201)["data"]
    assert again == first
    assert shop.availability(day(2), day(2)) == {day(2): 2}
    other = push(anonymous, shop, booking(shop, day(2), day(5), reservation_id="R-2"))
    assert "reservation_id" in check(other, 422)["errors"]["details"]


def test_modification_moves_the_nights_and_cancellation_gives_them_back(shop, anonymous):
    check(push(anonymous, shop, booking(shop, day(2), day(4), reservation_id="R-3")), 201)
    modified = check(push(anonymous, shop, booking(shop, day(3), day(6), status="modified", reservation_id="R-3")))
    assert modified["data"]["attributes"]["status"] == "modified"
    assert shop.availability(day(2), day(6)) == {day(2): 3, day(3): 2, day(4): 2, day(5): 2, day(6): 3}
    cancelled = check(push(anonymous, shop, {"booking": {"status": "cancelled", "reservation_id": "R-3"}}))
    assert cancelled["data"]["attributes"]["status"] == "cancelled"
    assert set(shop.availability(day(2), day(6)).values()) == {3}
    assert check(push(anonymous, shop, {"booking": {"status": "cancelled", "reservation_id": "R-3"}}))  # harmless again


def test_a_modification_may_keep_its_own_last_room(user, anonymous):
    shop = make_shop(user, rooms=1)
    check(push(anonymous, shop, booking(shop, day(2), day(4), reservation_id="R-4")), 201)
    check(push(anonymous, shop, booking(shop, day(2), day(5), status="modified", reservation_id="R-4")))
    assert shop.availability(day(2), day(5)) == {day(2): 0, day(3): 0, day(4): 0, day(5): 1}


@pytest.mark.parametrize("setting", ["confirmation", "modification", "cancellation"])
@pytest.mark.parametrize("on", [True, False])
def test_autoupdate_settings(user, anonymous, setting, on):
    shop = make_shop(user, rooms=3, settings={f"allow_availability_autoupdate_on_{setting}": on})
    check(push(anonymous, shop, booking(shop, day(2), day(4), reservation_id="A")), 201)
    after_new = shop.availability(day(2), day(5))
    check(push(anonymous, shop, booking(shop, day(3), day(5), status="modified", reservation_id="A")))
    after_modified = shop.availability(day(2), day(5))
    check(push(anonymous, shop, {"booking": {"status": "cancelled", "reservation_id": "A"}}))
    after_cancel = shop.availability(day(2), day(5))
    taken_on_new = setting != "confirmation" or on
    assert after_new == {day(2): 3 - taken_on_new, day(3): 3 - taken_on_new, day(4): 3, day(5): 3}
    if setting == "modification":
        assert after_modified == ({day(2): 3, day(3): 2, day(4): 2, day(5): 3} if on else after_new)
    if setting == "cancellation":
        assert after_cancel == ({day(2): 3, day(3): 3, day(4): 3, day(5): 3} if on else after_modified)


def test_twenty_parallel_pushes_for_the_last_two_rooms_take_exactly_two(user, live):
    shop = make_shop(user, rooms=2)
    with httpx.Client(base_url=live[1].url, timeout=30) as client, ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda n: push(client, shop, booking(shop, day(3), day(5), reservation_id=f"P{n}")),
                                range(20)))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201, 201] + [422] * 18
    assert shop.availability(day(3), day(4)) == {day(3): 0, day(4): 0}
    refused = next(a for a in answers if a.status_code == 422).json()["errors"]["details"]
    assert "no availability" in refused["rooms.0"][0]


def test_feed_and_ack(shop, anonymous):
    client = shop.user.client
    check(push(anonymous, shop, booking(shop, day(2), day(4), reservation_id="F-1")), 201)
    check(push(anonymous, shop, {"booking": {"status": "cancelled", "reservation_id": "F-1"}}))
    feed = check(client.get("/api/v1/booking_revisions/feed"))
    assert [r["attributes"]["status"] for r in feed["data"]] == ["new", "cancelled"]  # oldest first
    first = feed["data"][0]
    assert first["type"] == "booking_revision" and first["attributes"]["acked_at"] is None
    check(client.post(f"/api/v1/booking_revisions/{first['id']}/ack"))
    check(client.post(f"/api/v1/booking_revisions/{first['id']}/ack"))  # twice is harmless
    assert [r["attributes"]["status"] for r in check(client.get("/api/v1/booking_revisions/feed"))["data"]] == ["cancelled"]
    assert check(client.get("/api/v1/booking_revisions"))["meta"]["total"] == 2
    booking_id = first["attributes"]["booking_id"]
    assert check(client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]["status"] == "cancelled"


def test_bookings_are_private_to_their_propertys_users(shop, anonymous, make_user):
    created = check(push(anonymous, shop, booking(shop, day(2), day(4))), 201)["data"]
    other = make_user().client
    assert other.get(f"/api/v1/bookings/{created['id']}").status_code == 401
    assert other.get(f"/api/v1/booking_revisions/{created['attributes']['revision_id']}").status_code == 401
    assert other.post(f"/api/v1/booking_revisions/{created['attributes']['revision_id']}/ack").status_code == 401
    assert check(other.get("/api/v1/bookings"))["meta"]["total"] == 0
    assert other.get("/api/v1/bookings/nope").status_code == 404
    listed = check(shop.user.client.get("/api/v1/bookings", params={"filter[arrival_date][gte]": day(2)}))
    assert [b["id"] for b in listed["data"]] == [created["id"]]


@pytest.mark.parametrize("value", ["next week", "2026-02-30", "2026-12-01,x"])
def test_a_date_filter_that_is_no_date_is_a_422_naming_it(shop, value):
    response = shop.user.client.get("/api/v1/bookings", params={"filter[arrival_date][gte]": value})
    assert response.status_code == 422
    assert list(response.json()["errors"]["details"]) == ["filter[arrival_date][gte]"]


def test_cards_are_masked_on_main_and_sealed_on_secure(shop, anonymous, secure, live_engine):
    main = check(push(anonymous, shop, booking(shop, day(2), day(3), guarantee=CARD, reservation_id="C-1")), 201)
    assert main["data"]["attributes"]["guarantee"]["card_number"] == "411111******1111"
    assert main["data"]["attributes"]["guarantee"]["cvv"] == "***"
    with httpx.Client(base_url=secure.url, timeout=10) as client:
        sealed = check(push(client, shop, booking(shop, day(3), day(4), guarantee=CARD, reservation_id="C-2")), 201)
        assert sealed["data"]["attributes"]["guarantee"]["card_number"] == "411111******1111"
        path = f"/api/v1/bookings/{sealed['data']['id']}"
        auth = {"Authorization": f"Bearer {shop.user.token}"}
        assert check(client.get(path, headers=auth))["data"]["attributes"]["guarantee"]["cvv"] == "***"
        internal = {**auth, "X-Frontdesk-Internal": live_engine.keys.internal_secret, "X-Frontdesk-Reveal": "entity"}
        clear = check(client.get(path, headers=internal))["data"]["attributes"]["guarantee"]
        assert clear["card_number"] == CARD["card_number"] and clear["cvv"] == "123"
        # Revealed only in the answers the capture profile reads: a list profile gets no card from one booking.
        listed_only = {**internal, "X-Frontdesk-Reveal": "list"}
        assert check(client.get(path, headers=listed_only))["data"]["attributes"]["guarantee"]["cvv"] == "***"
        # The card sent to main can't be restored, not even for the tokenisation service.
        restored = check(client.get(f"/api/v1/bookings/{main['data']['id']}", headers=internal))
        assert restored["data"]["attributes"]["guarantee"]["card_number"] == "411111******1111"
        assert client.get(path, headers={**auth, "X-Frontdesk-Internal": "guess"}).json()["data"]["attributes"][
            "guarantee"]["cvv"] == "***"
    internal = {"Authorization": f"Bearer {shop.user.token}", "X-Frontdesk-Internal": live_engine.keys.internal_secret,
                "X-Frontdesk-Reveal": "any"}
    on_main = check(shop.user.client.get(f"/api/v1/bookings/{sealed['data']['id']}", headers=internal))
    assert on_main["data"]["attributes"]["guarantee"]["card_number"] == "411111******1111"
    raw = on_disk(live_engine)
    assert b"4111111111111111" not in raw



def test_camel_and_snake_agent_fields(shop, anonymous):
    camel = {"name": "Agency", "codeContext": "IATA", "address": {"addressLine": "1 Road", "countryCode": "GB",
                                                                    "postCode": "N1", "stateCode": "LDN"}}
    made = check(push(anonymous, shop, booking(shop, day(2), day(3), agent=camel)), 201)["data"]["attributes"]["agent"]
    assert made["code_context"] == "IATA" and made["address"]["country_code"] == "GB"
    both = {"name": "Agency", "code_context": "A", "codeContext": "B"}
    assert check(push(anonymous, shop, booking(shop, day(2), day(3), agent=both)), 422)["errors"]["details"]


@pytest.mark.parametrize(("change", "field"), [
    ({"arrival_date": "2020-01-01", "departure_date": "2020-01-03"}, "arrival_date"),
    ({"arrival_date": "DAY5", "departure_date": "DAY3"}, "departure_date"),
    ({"arrival_date": "DAY5", "departure_date": "DAY900"}, "departure_date"),
    ({"status": "confirmed"}, "status"),
    ({"currency": "EURO"}, "currency"),
    ({"currency": "USD"}, "currency"),
    ({"customer": {"surname": "", "mail": "nope", "country": "England"}}, "customer.mail"),
    ({"customer": {"surname": "Doe", "country": "England"}}, "customer.country"),
    ({"guarantee": {**CARD, "cvv": "12"}}, "guarantee.cvv"),
    ({"guarantee": {**CARD, "expiration_date": "13/2030"}}, "guarantee.expiration_date"),
    ({"guarantee": {**CARD, "expiration_date": "01/2020"}}, "guarantee.expiration_date"),
    ({"guarantee": {**CARD, "card_number": "4111111111111112"}}, "guarantee.card_number"),
    ({"rooms": [{"room_type_code": "nope", "rate_plan_code": "nope", "occupancy": {"adults": 1}}]}, "rooms.0.rate_plan_code"),
    ({"rooms": "ROOM", "occupancy": {"adults": 9}}, "rooms.0"),
    ({"services": [{"type": "Spa", "name": "x", "total_price": "1", "price_per_unit": "1", "price_mode": "Per stay",
                    "persons": 1, "nights": 1, "room_index": 4}]}, "services.0.type"),
    ({"services": [{"type": "Meal", "name": "x", "total_price": "1", "price_per_unit": "1", "price_mode": "Per stay",
                    "persons": 1, "nights": 1, "room_index": 4}]}, "services.0.room_index"),
    ({"status": "modified", "reservation_id": "unknown"}, "reservation_id"),
    ({"status": "cancelled", "reservation_id": "unknown"}, "reservation_id"),
    ({"arrival_hour": "25:00"}, "arrival_hour"),
])
def test_bad_bookings_are_refused_naming_the_field_and_change_nothing(shop, anonymous, change, field):
    body = booking(shop, day(2), day(4))
    days = {k: day(int(v[3:])) for k, v in change.items() if isinstance(v, str) and v.startswith("DAY")}
    if change.get("rooms") == "ROOM":
        change = {"rooms": [{**body["booking"]["rooms"][0], "occupancy": change["occupancy"]}]}
    body["booking"].update({**change, **days})
    response = push(anonymous, shop, body)
    details = check(response, 422)["errors"]["details"]
    assert field in details, details
    assert "4111111111111112" not in response.text and "4111111111111111" not in response.text
    assert set(shop.availability(day(1), day(5)).values()) == {3}
    assert check(shop.user.client.get("/api/v1/bookings"))["meta"]["total"] == 0


def test_an_ota_booking_of_more_rooms_than_are_left_holds_those_left_and_gives_back_only_them(user, live):
    shop = make_shop(user, rooms=1, channel_code="BookingCom")
    url = f"/api/v1/inbound/{shop.channel_id}/bookings"
    with httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": shop.inbound_key}) as adapter:
        two = booking(shop, day(2), day(4), reservation_id="B-TWO", property_id=shop.property_id)
        two["booking"]["rooms"].append(dict(two["booking"]["rooms"][0]))
        assert check(adapter.post(url, json=two), 201)["data"]["attributes"]["is_overbooked"] is True
        assert shop.availability(day(2), day(3)) == {day(2): 0, day(3): 0}
        check(adapter.post(url, json={"booking": {"status": "cancelled", "reservation_id": "B-TWO",
                                                  "property_id": shop.property_id}}))
    assert shop.availability(day(2), day(3)) == {day(2): 1, day(3): 1}


def test_shopping_channel_sells_only_mapped_rate_plans(shop, anonymous):
    client = shop.user.client
    unmapped = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Hidden",
        "options": [{"occupancy": 2, "rate": "10"}]}}), 201)["data"]["id"]
    shop.restrict(day(0), day(9), plan_id=unmapped, rate="10")
    body = booking(shop, day(2), day(3))
    body["booking"]["rooms"][0]["rate_plan_code"] = unmapped
    assert "rooms.0.rate_plan_code" in check(push(anonymous, shop, body), 422)["errors"]["details"]
    rooms = check(shop.rooms(anonymous, day(2), day(3)))["data"]
    assert {p["id"] for p in rooms[0]["attributes"]["rate_plans"]} == {shop.plan_id}


def test_ota_bookings_are_always_accepted_and_flagged(user, live):
    shop = make_shop(user, rooms=1, channel_code="BookingCom")
    url = f"/api/v1/inbound/{shop.channel_id}/bookings"
    with httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": shop.inbound_key}) as adapter:
        first = booking(shop, day(2), day(4), reservation_id="B-1", property_id=shop.property_id)
        assert check(adapter.post(url, json=first), 201)["data"]["attributes"]["is_overbooked"] is False
        second = booking(shop, day(2), day(4), reservation_id="B-2", property_id=shop.property_id)
        over = check(adapter.post(url, json=second), 201)["data"]["attributes"]
        assert over["is_overbooked"] is True and over["unique_id"] == "BDC-B-2"
        odd = booking(shop, day(2), day(4), reservation_id="B-3", property_id=shop.property_id)
        odd["booking"]["rooms"][0].update(room_type_code="R-STD", rate_plan_code="BAR",
                                          days={day(2): "99.00", day(3): "99.00"})
        unmapped = check(adapter.post(url, json=odd), 201)["data"]["attributes"]
        assert unmapped["is_unmapped"] is True and unmapped["amount"] == "198.00"
        assert unmapped["rooms"][0]["room_type_code"] == "R-STD" and unmapped["rooms"][0]["is_mapped"] is False
        assert shop.availability(day(2), day(3)) == {day(2): 0, day(3): 0}
        # Cancelling the overbooking gives back nothing it never took.
        check(adapter.post(url, json={"booking": {"status": "cancelled", "reservation_id": "B-2",
                                                  "property_id": shop.property_id}}))
        assert shop.availability(day(2), day(3)) == {day(2): 0, day(3): 0}
        wrong_key = adapter.post(url, json=first, headers={"api-key": "nope"})
        assert check(wrong_key, 401)["errors"]["code"] == "unauthorized"
        elsewhere = booking(shop, day(2), day(4), property_id="someone-elses")
        assert "property_id" in check(adapter.post(url, json=elsewhere), 422)["errors"]["details"]


def test_shopping_channels_cannot_use_the_ota_path(shop, live):
    with httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": shop.inbound_key}) as adapter:
        body = booking(shop, day(2), day(4), property_id=shop.property_id)
        response = adapter.post(f"/api/v1/inbound/{shop.channel_id}/bookings", json=body)
    assert check(response, 422)["errors"]["code"] == "not_supported"


def test_database_holds_no_clear_card_after_a_secure_push(shop, secure, live_engine):
    with httpx.Client(base_url=secure.url, timeout=10) as client:
        check(push(client, shop, booking(shop, day(2), day(3), guarantee=CARD)), 201)
    dump = on_disk(live_engine).decode("utf-8", "replace")
    assert "4111111111111111" not in dump and '"cvv": "123"' not in dump


def test_bookings_tell_whether_they_are_acknowledged(shop, anonymous):
    client = shop.user.client
    made = check(push(anonymous, shop, booking(shop, day(2), day(3))), 201)["data"]
    assert check(client.get(f"/api/v1/bookings/{made['id']}"))["data"]["attributes"]["is_acked"] is False
    assert check(client.get("/api/v1/bookings", params={"filter[is_acked]": "false"}))["meta"]["total"] == 1
    check(client.post(f"/api/v1/booking_revisions/{made['attributes']['revision_id']}/ack"))
    assert check(client.get("/api/v1/bookings", params={"filter[is_acked]": "false"}))["meta"]["total"] == 0
    assert check(client.get("/api/v1/bookings", params={"filter[is_acked]": "true"}))["data"][0]["attributes"]["is_acked"]


def test_a_change_stays_with_its_property(user, live):
    shop = make_shop(user, channel_code="BookingCom")
    other = make_shop(user, channel_code="BookingCom")
    check(user.client.put(f"/api/v1/channels/{shop.channel_id}", json={"channel": {
        "property_ids": [shop.property_id, other.property_id]}}))
    url = f"/api/v1/inbound/{shop.channel_id}/bookings"
    with httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": shop.inbound_key}) as adapter:
        check(adapter.post(url, json=booking(shop, day(2), day(4), reservation_id="M-1", property_id=shop.property_id)),
              201)
        moved = booking(shop, day(2), day(4), status="modified", reservation_id="M-1", property_id=other.property_id)
        assert "property_id" in check(adapter.post(url, json=moved), 422)["errors"]["details"]
