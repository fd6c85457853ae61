"""The service's Booking CRS update (reference §18): `PUT /api/v1/bookings/:booking_id` with
`{"booking":{status:"modified"|"cancelled", property_id, ota_reservation_code, ota_name, arrival_date, departure_date,
arrival_hour, services[], deposits:[{amount,currency,charget_at (sic),type,notes,meta}], payment_collect,
payment_type, currency, ota_commission, notes, meta, customer{...,meta}, rooms[{...,meta}]}}`, "also works on OTA
bookings", "each edit yields a normal `modified` revision"; a body built from the booking's own answer (§4.5's
attributes) is taken, on the create too. `filter[ota_reservation_code]` on the list, and the booking's plural
relationships of §15 ("non-null arrays `properties[]`, `rate_plans[]`, `room_types[]` of `{id,type}`")."""

from __future__ import annotations

import pytest

from tests.bookings.test_crs_bookings import crs
from tests.shopping.shop import CARD, booking, check, day, make_shop

# §18's deposit, as the page spells it.
DEPOSIT = {"amount": "50.00", "currency": "EUR", "charget_at": "2024-01-10 10:00:00", "type": "card",
           "notes": "paid at booking", "meta": {}}


@pytest.fixture
def shop(user):
    return make_shop(user, rooms=2)


def _events(engine, booking_id: str) -> list[str]:
    rows = engine.store.query("SELECT event, payload FROM events WHERE event LIKE 'booking%' ORDER BY inserted_at")
    return [event for event, payload in rows if booking_id in payload]


def _read(client, booking_id: str) -> dict:
    return check(client.get(f"/api/v1/bookings/{booking_id}"))["data"]


def test_the_booking_as_read_is_sent_back_changed(shop, live_engine):
    client = shop.user.client
    created = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(4), guarantee=CARD)), 201)["data"]
    read = _read(client, created["id"])
    rooms = read["attributes"]["rooms"]
    assert (rooms[0]["room_type_id"], rooms[0]["room_type_code"]) == (shop.room_id, shop.room_id)
    assert read["relationships"]["properties"] == {"data": [{"id": shop.property_id, "type": "property"}]}
    assert read["relationships"]["rate_plans"] == {"data": [{"id": shop.plan_id, "type": "rate_plan"}]}
    assert read["relationships"]["room_types"] == {"data": [{"id": shop.room_id, "type": "room_type"}]}

    # The whole answer back, as an integrator edits it: §18's fields, an hour left empty, a deposit.
    body = {**read["attributes"], "status": "modified", "arrival_hour": "", "ota_name": "Offline",
            "deposits": [DEPOSIT], "notes": "late check-in"}
    same = check(client.put(f"/api/v1/bookings/{created['id']}", json={"booking": body}))["data"]
    assert (same["id"], same["attributes"]["status"], same["attributes"]["unique_id"]) == (created["id"], "modified",
                                                                                           "OFL-113")
    kept = _read(client, created["id"])["attributes"]
    assert kept["arrival_hour"] is None and kept["notes"] == "late check-in"
    assert kept["deposits"] == [{"amount": "50.00", "currency": "EUR", "charged_at": "2024-01-10 10:00:00",
                                 "type": "card", "notes": "paid at booking", "meta": {}}]
    assert kept["guarantee"]["card_number"] == "411111******1111"  # the masked card sent back is the card kept
    assert shop.availability(day(2), day(4)) == {day(2): 1, day(3): 1, day(4): 2}

    # A new stay: its nights' prices are the rate plan's again, unless the body names them.
    moved = {**kept, "status": "modified", "arrival_date": day(5), "departure_date": day(7),
             "rooms": [{k: v for k, v in room.items() if k != "days"} for room in kept["rooms"]]}
    check(client.put(f"/api/v1/bookings/{created['id']}", json={"booking": moved}))
    assert shop.availability(day(2), day(7)) == {day(2): 2, day(3): 2, day(4): 2, day(5): 1, day(6): 1, day(7): 2}
    assert _read(client, created["id"])["attributes"]["rooms"][0]["days"] == {day(5): "100.00", day(6): "100.00"}

    check(client.put(f"/api/v1/bookings/{created['id']}", json={"booking": {"status": "cancelled"}}))
    assert set(shop.availability(day(2), day(7)).values()) == {2}
    assert _events(live_engine, created["id"]) == ["booking_new", "booking_modification", "booking_modification",
                                                   "booking_cancellation"]
    revisions = check(client.get("/api/v1/booking_revisions", params={"filter[booking_id]": created["id"]}))["data"]
    assert [r["attributes"]["status"] for r in revisions] == ["cancelled", "modified", "modified", "new"]


def test_the_create_takes_a_body_built_from_a_booking_read(shop):
    client = shop.user.client
    first = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3))), 201)["data"]["id"]
    read = _read(client, first)["attributes"]
    again = {**read, "reservation_id": "copy-1", "ota_reservation_code": "copy-1", "arrival_hour": "",
             "deposits": [DEPOSIT]}
    copy = check(client.post("/api/v1/bookings", json={"booking": again}), 201)["data"]
    assert copy["attributes"]["unique_id"] == "OFL-copy-1"


def test_an_ota_booking_is_changed_by_the_property_too(shop, live_engine):
    """"also works on OTA bookings": a shopping channel's booking moved by the PMS keeps its channel and number."""
    pushed = check(shop.user.client.post(f"{shop.meta}/push_booking", json=booking(
        shop, day(2), day(3), reservation_id="R-9")), 201)["data"]["id"]
    body = booking(shop, day(3), day(5), status="modified")["booking"]
    check(shop.user.client.put(f"/api/v1/bookings/{pushed}", json={"booking": body}))
    changed = _read(shop.user.client, pushed)["attributes"]
    assert (changed["unique_id"], changed["status"], changed["channel_id"]) == ("OSH-R-9", "modified", shop.channel_id)
    assert shop.availability(day(2), day(5)) == {day(2): 2, day(3): 1, day(4): 1, day(5): 2}


def test_a_modification_is_checked_as_a_create_is(shop):
    client = shop.user.client
    mine = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3))), 201)["data"]["id"]
    check(client.post("/api/v1/bookings", json=crs(shop, day(6), day(7), ota_reservation_code="other-1")), 201)
    check(client.post("/api/v1/bookings", json=crs(shop, day(6), day(7), ota_reservation_code="other-2")), 201)
    shop.restrict(day(4), stop_sell=True)
    full = crs(shop, day(6), day(7), status="modified")
    assert "no availability" in check(client.put(f"/api/v1/bookings/{mine}", json=full), 422)[
        "errors"]["details"]["rooms.0"][0]
    closed = check(client.put(f"/api/v1/bookings/{mine}", json=crs(shop, day(4), day(5), status="modified")), 422)
    assert closed["errors"]["details"] == {"rooms.0": ["can't be booked: stop sell on " + day(4)]}
    assert shop.availability(day(2), day(2)) == {day(2): 1}  # still where it was


def test_bad_updates_are_refused_and_change_nothing(shop, make_user, anonymous):
    client = shop.user.client
    booking_id = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3))), 201)["data"]["id"]
    before = _read(client, booking_id)["attributes"]["revision_id"]
    url = f"/api/v1/bookings/{booking_id}"
    modified = crs(shop, day(2), day(3), status="modified")
    for change, field in ((dict(status="new"), "status"), (dict(ota_reservation_code="999"), "ota_reservation_code"),
                          (dict(property_id=make_shop(shop.user).property_id), "property_id"),
                          (dict(notes=7), "notes")):
        body = {"booking": {**modified["booking"], **change}}
        assert field in check(client.put(url, json=body), 422)["errors"]["details"]
    twice = crs(shop, day(2), day(3), status="modified")
    twice["booking"]["rooms"][0]["room_type_code"] = "another-room"
    assert check(client.put(url, json=twice), 422)["errors"]["details"] == {
        "rooms.0.room_type_id": ["names another than room_type_code: give one, or the same in both"]}
    assert check(client.put(url, json={"rooms": []}), 400)["errors"]["code"] == "bad_request"
    assert check(client.put("/api/v1/bookings/no-such-booking", json=modified), 404)["errors"]["code"] == "not_found"
    assert check(make_user().client.put(url, json=modified), 401)["errors"]["code"] == "unauthorized"
    assert anonymous.put(url, json=modified).status_code == 401
    assert _read(client, booking_id)["attributes"]["revision_id"] == before
    assert shop.availability(day(2), day(2)) == {day(2): 1}


def test_bookings_are_found_by_their_reservation_code(shop):
    client = shop.user.client
    wanted = check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3), ota_reservation_code="FIND-1")),
                   201)["data"]["id"]
    check(client.post("/api/v1/bookings", json=crs(shop, day(2), day(3), ota_reservation_code="FIND-2")), 201)
    found = check(client.get("/api/v1/bookings", params={"filter[ota_reservation_code]": "FIND-1"}))
    assert [b["id"] for b in found["data"]] == [wanted] and found["meta"]["total"] == 1
    both = check(client.get("/api/v1/bookings", params={"filter[ota_reservation_code]": "FIND-1,FIND-2"}))
    assert both["meta"]["total"] == 2
