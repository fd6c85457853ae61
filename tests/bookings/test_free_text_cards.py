"""Card numbers typed into free-form fields are masked before anything stores them: notes, every meta
object, the customer's text, room guests, chat messages, identifiers. Phone numbers stay as sent."""

from __future__ import annotations

import httpx
import pytest

from tests.chat.test_chat_api import Desk
from tests.shopping.shop import CARD, booking, check, day, make_shop
from tests.stores import on_disk

VISA, MASTERCARD, AMEX = "4111 1111 1111 1111", "5555-5555-5555-4444", "378282246310005"
MASKED_VISA, MASKED_MASTERCARD, MASKED_AMEX = "411111******1111", "555555******4444", "378282*****0005"
PHONE = "+49 1512 3456001"  # 13 digits that pass the Luhn check: still a phone number


def card_everywhere(shop, reservation_id: str) -> dict:
    body = booking(shop, day(2), day(3), reservation_id=reservation_id, notes=f"pay with {VISA} exp 12/31",
                   meta={"source": f"card {MASTERCARD}", "nested": [{"pan": 4111111111111111}]})
    body["booking"]["customer"] = {"surname": f"Doe {AMEX}", "name": f"Jane {VISA}", "address": f"1 {VISA} St",
                                   "city": f"City {VISA}", "company": {"title": f"Co {VISA}"}, "phone": PHONE,
                                   "meta": {"cc": VISA}}
    room = body["booking"]["rooms"][0]
    room["meta"] = {"note": f"guest card {VISA}"}
    room["guests"] = [{"name": "Ann", "surname": f"Lee {MASTERCARD}"}]
    return body


def assert_masked(attributes: dict, reservation_id: str) -> None:
    assert attributes["notes"] == f"pay with {MASKED_VISA} exp 12/31"
    assert attributes["meta"] == {"source": f"card {MASKED_MASTERCARD}", "nested": [{"pan": MASKED_VISA}]}
    customer = attributes["customer"]
    assert (customer["surname"], customer["name"], customer["address"], customer["city"]) == (
        f"Doe {MASKED_AMEX}", f"Jane {MASKED_VISA}", f"1 {MASKED_VISA} St", f"City {MASKED_VISA}")
    assert customer["company"]["title"] == f"Co {MASKED_VISA}" and customer["meta"] == {"cc": MASKED_VISA}
    assert customer["phone"] == PHONE
    room = attributes["rooms"][0]
    assert room["meta"] == {"note": f"guest card {MASKED_VISA}"}
    assert room["guests"] == [{"name": "Ann", "surname": f"Lee {MASKED_MASTERCARD}"}]
    assert attributes["reservation_id"] == reservation_id


@pytest.fixture
def shop(user):
    return make_shop(user, rooms=3)


def test_cards_in_free_form_fields_are_masked_before_storing(shop, anonymous, live_engine):
    created = check(anonymous.post(f"{shop.meta}/push_booking", json=card_everywhere(shop, "GM-2")), 201)
    assert_masked(created["data"]["attributes"], "GM-2")
    stored = check(shop.user.client.get(f"/api/v1/bookings/{created['data']['id']}"))["data"]["attributes"]
    assert_masked(stored, "GM-2")
    raw = on_disk(live_engine)
    for clear in (VISA, MASTERCARD, AMEX, VISA.replace(" ", ""), MASTERCARD.replace("-", "")):
        assert clear.encode() not in raw


def test_a_reservation_id_that_holds_a_card_is_shown_masked_and_still_finds_its_booking(shop, anonymous, live_engine):
    """Two ids that mask alike are two bookings; each is repeated, modified and cancelled by the id as sent."""
    first, second = "4012888888881881", "4012881000031881"  # both Luhn-valid, both 401288******1881
    created = {}
    for reservation_id in (first, second):
        body = booking(shop, day(2), day(3), reservation_id=reservation_id)
        created[reservation_id] = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]
        assert created[reservation_id]["attributes"]["reservation_id"] == "401288******1881"
        assert created[reservation_id]["attributes"]["unique_id"] == "OSH-401288******1881"
        repeated = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]
        assert repeated["id"] == created[reservation_id]["id"]
    assert created[first]["id"] != created[second]["id"]
    modified = booking(shop, day(2), day(4), reservation_id=first, status="modified")
    assert check(anonymous.post(f"{shop.meta}/push_booking", json=modified))["data"]["id"] == created[first]["id"]
    cancelled = {"booking": {"status": "cancelled", "reservation_id": second}}
    assert check(anonymous.post(f"{shop.meta}/push_booking", json=cancelled))["data"]["id"] == created[second]["id"]
    statuses = {b["id"]: b["attributes"]["status"]
                for b in check(shop.user.client.get("/api/v1/bookings"))["data"]}
    assert (statuses[created[first]["id"]], statuses[created[second]["id"]]) == ("modified", "cancelled")
    raw = on_disk(live_engine)
    assert first.encode() not in raw and second.encode() not in raw


def test_a_card_in_the_guarantee_meta_is_sealed_with_the_guarantee_on_the_secure_listener(shop, secure, live_engine):
    guarantee = {**CARD, "meta": {"virtual_card_note": f"VCC {MASTERCARD}"}}
    with httpx.Client(base_url=secure.url, timeout=10) as client:
        body = booking(shop, day(4), day(5), reservation_id="GM-1", guarantee=guarantee)
        created = check(client.post(f"{shop.meta}/push_booking", json=body), 201)["data"]
        assert created["attributes"]["guarantee"]["meta"] == {"virtual_card_note": f"VCC {MASKED_MASTERCARD}"}
        capture = {"Authorization": f"Bearer {shop.user.token}", "X-Frontdesk-Internal": live_engine.keys.internal_secret,
                   "X-Frontdesk-Reveal": "any"}  # an operator's own profile, which may read the meta
        clear = check(client.get(f"/api/v1/bookings/{created['id']}", headers=capture))["data"]["attributes"]
    assert clear["guarantee"]["meta"] == {"virtual_card_note": f"VCC {MASTERCARD}"}
    raw = on_disk(live_engine)
    assert MASTERCARD.encode() not in raw


def test_guest_and_property_messages_are_masked(user, live):
    desk = Desk(user, live)
    guest = desk.guest_says(f"my card is {VISA}, cvv: 737")
    assert guest["attributes"]["message"] == f"my card is {MASKED_VISA}, cvv: ***"
    reply = check(desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages", json={
        "message": {"message": f"we charged {AMEX}"}}))["data"]
    assert reply["attributes"]["message"] == f"we charged {MASKED_AMEX}"
    listed = check(desk.client.get(f"/api/v1/bookings/{desk.booking_id}/messages"))["data"]
    assert [m["attributes"]["message"] for m in listed] == [f"we charged {MASKED_AMEX}",
                                                           f"my card is {MASKED_VISA}, cvv: ***"]
    raw = on_disk(live[0])
    assert VISA.encode() not in raw and AMEX.encode() not in raw



def test_a_phone_field_takes_a_phone_of_at_most_15_digits(shop, anonymous):
    body = booking(shop, day(2), day(3), agent={"name": "Agent", "phone": VISA})
    body["booking"]["customer"]["phone"] = "1" * 32
    refused = anonymous.post(f"{shop.meta}/push_booking", json=body)
    assert refused.status_code == 422
    assert refused.json()["errors"]["details"] == {"customer.phone": ["must have at most 15 digits (E.164)"],
                                                   "agent.phone": ["must have at most 15 digits (E.164)"]}
    body["booking"]["customer"]["phone"] = body["booking"]["agent"]["phone"] = "+44 (0) 20 7946 0000"
    check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)
