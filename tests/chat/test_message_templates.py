"""Saved replies over real HTTP (`/api/v1/message_templates`): per property or for every property of a group, the
service's envelopes, listing filters and error shape, access by the property's group, size limits, placeholders
refused when unknown and filled from a thread's booking."""

from __future__ import annotations

from datetime import date

import pytest

from tests.chat.test_chat_api import Desk
from tests.shopping.shop import check, day

URL = "/api/v1/message_templates"


def body(**fields) -> dict:
    return {"message_template": {"title": "Welcome", "message": "Hello {guest_name}!", **fields}}


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    made.guest_says("When can we check in?")
    yield made
    made.adapter.close()


def long_day(offset: int) -> str:
    value = date.fromisoformat(day(offset))
    return f"{value.day} {value:%b %Y}"


def test_a_saved_reply_is_filled_from_the_threads_booking(desk):
    client = desk.client
    text = ("Dear {guest_first_name}, we look forward to {nights} nights at {property} from {arrival_date} to "
            "{departure_date} (booking {booking_id}, {guests} guests). Check-in from {checkin_time}.")
    made = check(client.post(URL, json=body(title="Arrival", message=text, property_id=desk.shop.property_id)), 201)
    template = made["data"]
    assert template["type"] == "message_template"
    assert template["attributes"]["placeholders"] == ["guest_first_name", "nights", "property", "arrival_date",
                                                      "departure_date", "booking_id", "guests", "checkin_time"]
    assert template["relationships"]["property"]["data"]["id"] == desk.shop.property_id
    unique_id = check(client.get(f"/api/v1/bookings/{desk.booking_id}"))["data"]["attributes"]["unique_id"]
    title = check(client.get(f"/api/v1/properties/{desk.shop.property_id}"))["data"]["attributes"]["title"]

    filled = check(client.get(f"/api/v1/message_threads/{desk.thread_id()}/message_templates"))["data"]
    assert [t["id"] for t in filled] == [template["id"]]
    # No hotel policy: the check-in time has nothing to fill it, and stays for staff to see and fill in.
    assert filled[0]["attributes"]["filled_message"] == (
        f"Dear Jane, we look forward to 2 nights at {title} from {long_day(3)} to {long_day(5)} (booking {unique_id}, "
        "2 guests). Check-in from {checkin_time}.")
    assert filled[0]["attributes"]["unfilled"] == ["checkin_time"]
    check(client.put(f"/api/v1/properties/{desk.shop.property_id}/hotel_policy", json={"hotel_policy": {
        "checkin_from_time": "15:00"}}))
    again = check(client.get(f"/api/v1/message_threads/{desk.thread_id()}/message_templates"))["data"][0]
    assert again["attributes"]["filled_message"].endswith("Check-in from 15:00.") and again["attributes"]["unfilled"] == []


def test_group_wide_and_property_templates_apply_to_the_threads_of_their_scope(desk, live):
    client = desk.client
    everywhere = check(client.post(URL, json=body(title="Thanks", message="Thank you, {guest_name}.")), 201)["data"]
    # Without property_id or group_id: every property of the caller's default group, as a new property's group.
    assert everywhere["attributes"]["group_id"] == desk.shop.user.actor.default_group_id
    assert everywhere["attributes"]["property_id"] is None
    other = Desk(desk.shop.user, live)  # another property of the same user
    only_there = check(client.post(URL, json=body(title="Parking", message="Parking is free.",
                                                  property_id=other.shop.property_id)), 201)["data"]
    here = check(client.get(f"/api/v1/message_threads/{desk.thread_id()}/message_templates"))["data"]
    assert [t["attributes"]["title"] for t in here] == ["Thanks"]
    assert here[0]["attributes"]["filled_message"] == "Thank you, Jane Doe."
    listed = check(client.get(URL))
    assert [t["attributes"]["title"] for t in listed["data"]] == ["Parking", "Thanks"]  # by title
    assert listed["meta"] == {"page": 1, "limit": 10, "total": 2}
    by_property = check(client.get(URL, params={"filter[property_id]": other.shop.property_id}))["data"]
    assert [t["id"] for t in by_property] == [only_there["id"]]
    found = check(client.get(URL, params={"filter[title][has]": "than", "pagination[limit]": 1}))
    assert [t["id"] for t in found["data"]] == [everywhere["id"]] and found["meta"]["total"] == 1
    other.adapter.close()


def test_update_changes_what_is_sent_and_delete_removes_it(desk):
    client = desk.client
    made = check(client.post(URL, json=body(property_id=desk.shop.property_id)), 201)["data"]
    url = f"{URL}/{made['id']}"
    changed = check(client.put(url, json={"message_template": {"message": "Hi {guest_first_name}",
                                                               "inserted_at": "sent back, ignored"}}))["data"]
    assert changed["attributes"]["title"] == "Welcome" and changed["attributes"]["message"] == "Hi {guest_first_name}"
    assert changed["attributes"]["property_id"] == desk.shop.property_id
    widened = check(client.put(url, json={"message_template": {"group_id": desk.shop.user.actor.default_group_id}}))
    assert widened["data"]["attributes"]["property_id"] is None
    assert check(client.get(url))["data"]["attributes"]["group_id"] == desk.shop.user.actor.default_group_id
    assert check(client.delete(url)) == {"meta": {"message": "Success"}}
    assert check(client.get(url), 404)["errors"]["code"] == "not_found"


@pytest.mark.parametrize(("fields", "field", "says"), [
    ({"message": "Hi {guest_nam}, see you {arival_date}"}, "message", "unknown placeholders {guest_nam}, {arival_date}"),
    ({"message": "   "}, "message", "can't be blank"),
    ({"title": ""}, "title", "can't be blank"),
    ({"title": "x" * 256}, "title", "at most 255"),
    ({"message": "x" * 10_001}, "message", "10000"),
    ({"message": 5}, "message", "must be a string"),
    ({"colour": "red"}, "colour", "not a known field"),
    ({"property_id": "00000000-0000-4000-8000-000000000000"}, "property_id", "not a property of yours"),
    ({"group_id": "00000000-0000-4000-8000-000000000000"}, "group_id", "not a group of yours"),
])
def test_bad_input_is_a_422_naming_the_field_and_stores_nothing(desk, live_engine, fields, field, says):
    response = desk.client.post(URL, json=body(**fields))
    details = check(response, 422)["errors"]["details"]
    assert says in " ".join(details[field])
    assert live_engine.store.scalar("SELECT count(*) FROM message_templates WHERE user_id = ?",
                                    (desk.shop.user.actor.user_id,)) == 0


def test_malformed_and_oversized_bodies(desk):
    assert check(desk.client.post(URL, json={"template": {}}), 400)["errors"]["code"] == "bad_request"
    assert check(desk.client.post(URL, content=b"{nope", headers={"Content-Type": "application/json"}), 400)
    huge = body(message="x" * 70_000)
    assert check(desk.client.post(URL, json=huge), 413)["errors"]["code"] == "payload_too_large"


def test_someone_elses_templates_are_401_and_unknown_ones_404(desk, make_user, live):
    made = check(desk.client.post(URL, json=body(property_id=desk.shop.property_id)), 201)["data"]
    stranger = make_user()
    url = f"{URL}/{made['id']}"
    for response in (stranger.client.get(url), stranger.client.put(url, json=body()), stranger.client.delete(url)):
        assert check(response, 401)["errors"]["code"] == "unauthorized"
    assert check(stranger.client.get(URL))["data"] == []
    refused = stranger.client.post(URL, json=body(property_id=desk.shop.property_id))
    assert "property_id" in check(refused, 422)["errors"]["details"]
    assert stranger.client.get(f"/api/v1/message_threads/{desk.thread_id()}/message_templates").status_code == 401
    assert check(desk.client.get(f"{URL}/nope"), 404)["errors"]["code"] == "not_found"
    assert desk.client.get("/api/v1/message_threads/nope/message_templates").status_code == 404
    assert check(desk.client.get(url))["data"]["attributes"]["message"] == "Hello {guest_name}!"  # untouched


def test_card_numbers_in_a_template_are_masked_before_storing(desk, live_engine):
    made = check(desk.client.post(URL, json=body(message="Pay with 4111 1111 1111 1111 at the desk")), 201)["data"]
    assert made["attributes"]["message"] == "Pay with 411111******1111 at the desk"
    stored = live_engine.store.scalar("SELECT message FROM message_templates WHERE id = ?", (made["id"],))
    assert "4111 1111 1111 1111" not in stored


def test_the_openapi_document_describes_the_routes(desk):
    paths = check(desk.client.get("/openapi.json"))["paths"]
    assert {"get", "post"} <= set(paths[URL]) and {"get", "put", "delete"} <= set(paths[URL + "/{template_id}"])
    assert "422" in paths[URL]["post"]["responses"] and "401" in paths[URL + "/{template_id}"]["put"]["responses"]
    assert "get" in paths["/api/v1/message_threads/{thread_id}/message_templates"]
