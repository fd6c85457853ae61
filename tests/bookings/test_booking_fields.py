"""What a PMS feed reader needs of a booking and its revisions, as the reference shows them (§4.5, and the
service's bookings-collection page): system_id, ota_reservation_code, occupancy, notes, ota_commission, each
room's checkin_date, checkout_date, amount, booking_room_id, guests, taxes, occupancy and days, and the
relationships; the service's names for a booking's codes are taken as input too."""

from __future__ import annotations

import uuid

import pytest

from tests.shopping.shop import booking, check, day, make_shop

CITY_TAX = {"title": "City tax", "mode": "per_person_per_night", "rate": "3", "inclusive": False}
VAT = {"title": "VAT", "mode": "percent", "rate": "10", "inclusive": True}


@pytest.fixture
def shop(user):
    made = make_shop(user, rooms=3)
    check(user.client.put(f"/api/v1/rate_plans/{made.plan_id}", json={"rate_plan": {"taxes": [CITY_TAX, VAT]}}))
    return made


def feed_reader_fields(attributes: dict, shop) -> None:
    assert attributes["ota_reservation_code"] == "F-1" and attributes["unique_id"] == "OSH-F-1"
    assert attributes["occupancy"] == {"adults": 2, "children": 1, "infants": 0}
    assert attributes["notes"] == "Arriving late, quiet room please"
    assert attributes["ota_commission"] == "15.00"  # 1500 minor units, in the booking's currency
    first, second = attributes["rooms"]
    assert (first["checkin_date"], first["checkout_date"]) == (day(2), day(4))
    assert first["days"] == {day(2): "100.00", day(3): "100.00"} and first["amount"] == "200.00"
    assert first["occupancy"] == {"adults": 1, "children": 1, "infants": 0, "ages": [7]}
    assert first["guests"] == [{"name": "Jane", "surname": "Doe"}, {"name": "Tom", "surname": "Doe"}]
    assert first["taxes"] == [
        {"name": "City tax", "type": "tax", "is_inclusive": False, "total_price": "12.00", "price_mode":
         "Per person per night", "nights": 2, "persons": 2, "price_per_unit": "3.00"},
        {"name": "VAT", "type": "tax", "is_inclusive": True, "total_price": "18.18", "price_mode": "Per booking",
         "nights": 2, "persons": 2, "price_per_unit": "18.18"}]
    assert second["occupancy"]["adults"] == 1 and second["amount"] == "200.00"
    assert uuid.UUID(first["booking_room_id"]) != uuid.UUID(second["booking_room_id"])
    assert attributes["amount"] == "400.00"


def test_bookings_and_revisions_carry_what_a_pms_feed_reader_needs(shop, anonymous):
    body = booking(shop, day(2), day(4), ota_reservation_code="F-1", notes="Arriving late, quiet room please",
                   ota_commission=1500)
    rooms = body["booking"]["rooms"]
    rooms[0].update(occupancy={"adults": 1, "children": 1, "ages": [7]},
                    guests=[{"name": "Jane", "surname": "Doe"}, {"name": "Tom", "surname": "Doe"}])
    rooms.append({"room_type_id": shop.room_id, "rate_plan_id": shop.plan_id, "occupancy": {"adults": 1}})
    pushed = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]
    feed_reader_fields(pushed["attributes"], shop)

    client = shop.user.client
    got = check(client.get(f"/api/v1/bookings/{pushed['id']}"))["data"]
    feed_reader_fields(got["attributes"], shop)
    assert got["attributes"]["system_id"] == got["attributes"]["revision_id"]
    assert got["relationships"]["message_thread"] == {"data": None}  # no conversation yet
    revision = check(client.get("/api/v1/booking_revisions/feed", params={"filter[property_id]": shop.property_id}))
    revision = revision["data"][0]
    assert revision["type"] == "booking_revision"
    feed_reader_fields(revision["attributes"], shop)
    assert revision["attributes"]["system_id"] == revision["id"] and revision["attributes"]["booking_id"] == got["id"]
    assert revision["relationships"]["booking"]["data"] == {"id": got["id"], "type": "booking"}
    listed = check(client.get("/api/v1/bookings", params={"filter[property_id]": shop.property_id}))["data"][0]
    feed_reader_fields(listed["attributes"], shop)

    # A change is a new revision of the same rooms: each keeps its booking_room_id.
    body["booking"]["status"] = "modified"
    body["booking"]["departure_date"] = day(5)
    changed = check(anonymous.post(f"{shop.meta}/push_booking", json=body))["data"]["attributes"]
    assert [r["booking_room_id"] for r in changed["rooms"]] == [r["booking_room_id"] for r in got["attributes"]["rooms"]]
    assert changed["rooms"][0]["checkout_date"] == day(5) and changed["rooms"][0]["amount"] == "300.00"
    assert changed["system_id"] == changed["revision_id"] != got["attributes"]["revision_id"]


def test_prices_a_booking_names_must_cover_its_nights(shop, anonymous):
    body = booking(shop, day(2), day(4), reservation_id="D-1")
    body["booking"]["rooms"][0]["days"] = {day(2): "90.00"}
    refused = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 422)["errors"]["details"]
    assert refused == {"rooms.0.days": ["must give the price of each night of the stay, and no other"]}
    body["booking"]["rooms"][0]["days"] = {day(2): "90.00", day(3): 9500}
    named = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 201)["data"]["attributes"]
    assert named["rooms"][0]["days"] == {day(2): "90.00", day(3): "95.00"} and named["amount"] == "185.00"
    assert named["rooms"][0]["taxes"][0]["total_price"] == "12.00"  # 2 guests, 2 nights, 3.00


def test_the_service_names_and_ours_together_are_refused(shop, anonymous):
    body = booking(shop, day(2), day(3), reservation_id="X-1", ota_reservation_code="X-2")
    body["booking"]["rooms"][0]["room_type_id"] = shop.room_id
    details = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 422)["errors"]["details"]
    assert details == {"ota_reservation_code": ["give reservation_id or ota_reservation_code, not both"],
                       "rooms.0": ["give room_type_code or room_type_id, not both"]}
    body = booking(shop, day(2), day(3), ota_commission="12.345")
    details = check(anonymous.post(f"{shop.meta}/push_booking", json=body), 422)["errors"]["details"]
    assert details == {"ota_commission": ["must have at most 2 decimals in EUR"]}
