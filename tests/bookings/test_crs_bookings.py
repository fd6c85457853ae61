"""Bookings the property takes itself: `POST /api/v1/bookings` (reference §4.5 "CRS", the service's Booking CRS
API page) with `{"booking": {...}}` and status new, modified or cancelled, answering `{"data": {"type":
"booking", "id", "attributes": {"id", "status", "booking_id", "unique_id", "revision_id"}}}`; on the property's
direct channel (`OFL-` numbers), checked against availability and restrictions exactly as push_booking."""

from __future__ import annotations

import httpx
import pytest

from tests.shopping.shop import CARD, check, day, make_shop


@pytest.fixture
def shop(user):
    return make_shop(user, rooms=2)


def crs(shop, arrival: str, departure: str, *, status: str = "new", **fields) -> dict:
    """The body as the service's CRS page shows it: its names for the codes."""
    return {"booking": {"status": status, "property_id": shop.property_id, "ota_reservation_code": "113",
                        "arrival_date": arrival, "departure_date": departure, "arrival_hour": "18:00", "currency": "EUR",
                        "notes": "guest notes", "ota_commission": "2.00",
                        "customer": {"name": "John", "surname": "Doe", "mail": "john@doe.com", "country": "GB"},
                        "rooms": [{"room_type_id": shop.room_id, "rate_plan_id": shop.plan_id,
                                   "guests": [{"name": "John", "surname": "Doe"}],
                                   "occupancy": {"adults": 1, "children": 0, "infants": 0, "ages": []}}], **fields}}


def test_the_property_takes_changes_and_cancels_a_booking_of_its_own(shop):
    client = shop.user.client
    created = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(4))), 201)["data"]
    booking_id = created["id"]
    assert created["type"] == "booking"
    assert created["attributes"] == {"id": booking_id, "status": "new", "booking_id": booking_id, "unique_id": "OFL-113",
                                     "revision_id": created["attributes"]["revision_id"]}
    booking = check(client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]
    assert booking["ota_name"] == "Offline" and booking["ota_reservation_code"] == "113"
    assert booking["rooms"][0]["days"] == {day(2): "100.00", day(3): "100.00"}  # priced by the rate plan
    assert booking["notes"] == "guest notes" and booking["ota_commission"] == "2.00"
    assert shop.availability(day(2), day(4)) == {day(2): 1, day(3): 1, day(4): 2}
    feed = check(client.get("/api/v1/booking_revisions/feed", params={"filter[property_id]": shop.property_id}))
    assert [r["attributes"]["unique_id"] for r in feed["data"]] == ["OFL-113"]

    again = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(4))), 201)["data"]
    assert again == created  # the same new twice is one booking
    moved = check(client.post("/api/v1/bookings", json=crs(shop, day(3), day(5), status="modified")))["data"]
    assert (moved["id"], moved["attributes"]["status"]) == (booking_id, "modified")
    assert moved["attributes"]["revision_id"] != created["attributes"]["revision_id"]
    assert shop.availability(day(2), day(5)) == {day(2): 2, day(3): 1, day(4): 1, day(5): 2}
    cancelled = {"booking": {"status": "cancelled", "property_id": shop.property_id, "ota_reservation_code": "113"}}
    assert check(client.post("/api/v1/bookings", json=cancelled))["data"]["attributes"]["status"] == "cancelled"
    assert set(shop.availability(day(2), day(5)).values()) == {2}


def test_a_booking_of_its_own_follows_the_rules_of_a_push(shop):
    client = shop.user.client
    shop.restrict(day(3), stop_sell=True)
    closed = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(4))), 422)["errors"]["details"]
    assert closed == {"rooms.0": ["can't be booked: stop sell on " + day(3)]}
    past = check(client.post("/api/v1/bookings", json=crs(shop, day(-2), day(1))), 422)["errors"]["details"]
    assert list(past) == ["arrival_date"]
    assert check(client.post("/api/v1/bookings", json=crs(shop, day(5), day(6), currency="GBP")), 422)[
        "errors"]["details"] == {"currency": ["must be EUR, the currency of the rate plan"]}
    named = crs(shop, day(5), day(7))
    named["booking"]["rooms"][0]["days"] = {day(5): "80.00", day(6): 8500}  # the property's own price
    priced = check(client.post("/api/v1/bookings", json=named), 201)["data"]
    assert check(client.get(f"/api/v1/bookings/{priced['id']}"))["data"]["attributes"]["amount"] == "165.00"
    check(client.post("/api/v1/bookings", json=crs(shop, day(5), day(7), ota_reservation_code="114")), 201)
    full = check(client.post("/api/v1/bookings", json=crs(shop, day(5), day(7), ota_reservation_code="115")), 422)
    assert "no availability" in full["errors"]["details"]["rooms.0"][0]


def test_one_direct_channel_per_property_sells_every_rate_plan_and_stays_out_of_the_channels_list(shop):
    client = shop.user.client
    other_plan = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Unmapped",
        "options": [{"occupancy": 2, "is_primary": True, "rate": "120.00"}]}}), 201)["data"]["id"]
    shop.restrict(day(0), day(9), plan_id=other_plan, rate="120.00")
    first = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3))), 201)["data"]["id"]
    body = crs(shop, day(2), day(3), ota_reservation_code="200")
    body["booking"]["rooms"][0]["rate_plan_id"] = other_plan  # mapped to no channel: the property sells it itself
    second = check(client.post("/api/v1/bookings", json=body), 201)["data"]["id"]
    channels = {check(client.get(f"/api/v1/bookings/{b}"))["data"]["attributes"]["channel_id"] for b in (first, second)}
    assert len(channels) == 1
    listed = check(client.get("/api/v1/channels"))["data"]
    assert [c["id"] for c in listed] == [shop.channel_id]
    [direct] = channels  # read by the ID its bookings name, but nobody's to change
    assert check(client.get(f"/api/v1/channels/{direct}"))["data"]["attributes"]["title"] == "Offline"
    assert check(client.delete(f"/api/v1/channels/{direct}"), 422)["errors"]["code"] == "not_supported"
    renamed = client.put(f"/api/v1/channels/{direct}", json={"channel": {"title": "Mine"}})
    assert check(renamed, 422)["errors"]["code"] == "not_supported"


def test_the_direct_channel_goes_with_its_property(shop, live_engine):
    client = shop.user.client
    booking_id = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3))), 201)["data"]["id"]
    direct = check(client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]["channel_id"]
    check(client.delete(f"/api/v1/properties/{shop.property_id}", params={"force": "true"}))
    assert live_engine.store.scalar("SELECT count(*) FROM channels WHERE id = ?", (direct,)) == 0


def test_a_card_is_masked_on_the_main_listener_and_sealed_on_the_secure_one(shop, secure, live_engine):
    client = shop.user.client
    main = crs(shop, day(2), day(3), guarantee=CARD, notes="card 4111 1111 1111 1111 at the desk")
    created = check(client.post("/api/v1/bookings", json=main), 201)["data"]["id"]
    shown = check(client.get(f"/api/v1/bookings/{created}"))["data"]["attributes"]
    assert shown["guarantee"]["card_number"] == "411111******1111" and shown["notes"] == "card 411111******1111 at the desk"
    token = "SELECT r.card_token FROM bookings b JOIN booking_revisions r ON r.id = b.revision_id WHERE b.id = ?"
    assert live_engine.store.scalar(token, (created,)) is None
    with httpx.Client(base_url=secure.url, timeout=10, headers={"Authorization": f"Bearer {shop.user.token}"}) as safe:
        sealed = check(safe.post("/api/v1/bookings", json=crs(shop, day(4), day(5), guarantee=CARD,
                                                              ota_reservation_code="300")), 201)["data"]["id"]
    assert live_engine.store.scalar(token, (sealed,))  # the vault's token, the card in the vault


def test_the_create_refuses_what_it_must(shop, make_user, anonymous):
    client = shop.user.client
    assert anonymous.post("/api/v1/bookings", json=crs(shop, day(2), day(3))).status_code == 401
    stranger = make_user()
    theirs = check(stranger.client.post("/api/v1/bookings", json=crs(shop, day(2), day(3))), 422)["errors"]["details"]
    assert theirs == {"property_id": ["is not a property of yours"]}
    unknown = crs(shop, day(2), day(3))
    for other in ("no-such-property", {}, None):
        unknown["booking"]["property_id"] = other
        assert "property_id" in check(client.post("/api/v1/bookings", json=unknown), 422)["errors"]["details"]
    wrong = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3), status="commit", notes=7)), 422)
    assert set(wrong["errors"]["details"]) == {"status", "notes"}
    changed = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3), status="modified")), 422)
    assert changed["errors"]["details"] == {"reservation_id": ["is not a booking of this channel"]}
    assert check(client.post("/api/v1/bookings", json={"rooms": []}), 400)["errors"]["code"] == "bad_request"
    huge = client.post("/api/v1/bookings", content=b'{"booking": "' + b"x" * (600 * 1024) + b'"}',
                       headers={"Content-Type": "application/json"})
    assert check(huge, 413)["errors"]["code"] == "payload_too_large"
    assert check(client.get("/api/v1/bookings", params={"filter[property_id]": shop.property_id}))["meta"]["total"] == 0
