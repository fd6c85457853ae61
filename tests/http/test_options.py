"""The service's `/options` endpoints (reference §3): every item, short, without pagination —
`/room_types/options`, `/rate_plans/options` (`filter[property_id]`), and the facility catalogue's
(https://docs.channex.io/api-v.1-documentation/facilities-collection)."""

from __future__ import annotations

import pytest

from backend.properties.facilities import CATALOGUE, facility_id
from tests.conftest import property_body


@pytest.fixture
def two_hotels(user):
    ids = []
    for title in ("Hotel B", "Hotel A"):
        property_id = user.client.post("/api/v1/properties", json=property_body(title=title)).json()["data"]["id"]
        rooms = []
        for number in range(12):  # more than a page of the list
            room = user.client.post("/api/v1/room_types", json={"room_type": {
                "property_id": property_id, "title": f"Room {number:02d}", "count_of_rooms": 1, "occ_adults": 2,
                "occ_children": 1}}).json()["data"]["id"]
            rooms.append(room)
        plan = user.client.post("/api/v1/rate_plans", json={"rate_plan": {
            "property_id": property_id, "room_type_id": rooms[0], "title": "Flexible",
            "options": [{"occupancy": 2, "is_primary": True, "rate": "100.00"}]}}).json()["data"]["id"]
        ids.append((property_id, rooms, plan))
    return ids


def test_room_type_options_list_every_room_type_short_and_unpaginated(user, two_hotels):
    (b_id, b_rooms, _), (a_id, _, _) = two_hotels

    body = user.client.get("/api/v1/room_types/options").json()
    only_b = user.client.get("/api/v1/room_types/options", params={"filter[property_id]": b_id}).json()

    assert "meta" not in body and len(body["data"]) == 24
    assert [r["id"] for r in only_b["data"]] == b_rooms
    assert only_b["data"][0] == {"id": b_rooms[0], "type": "room_type", "attributes": {
        "id": b_rooms[0], "title": "Room 00", "property_id": b_id, "occ_adults": 2, "occ_children": 1,
        "occ_infants": 0, "default_occupancy": 2}}


def test_rate_plan_options_list_every_rate_plan_short_and_unpaginated(user, two_hotels):
    (b_id, b_rooms, b_plan), (a_id, a_rooms, a_plan) = two_hotels

    body = user.client.get("/api/v1/rate_plans/options").json()
    only_a = user.client.get("/api/v1/rate_plans/options", params={"filter[property_id]": a_id}).json()

    assert "meta" not in body and {p["id"] for p in body["data"]} == {a_plan, b_plan}
    # §15: "`rate_plans/options` items are `{id, title, property_id, room_type_id, occupancy, parent_rate_plan_id,
    # rate_category_id, sell_mode}`" (and §3's currency)
    assert only_a == {"data": [{"id": a_plan, "type": "rate_plan", "attributes": {
        "id": a_plan, "title": "Flexible", "property_id": a_id, "room_type_id": a_rooms[0], "occupancy": 2,
        "parent_rate_plan_id": None, "rate_category_id": None, "currency": "GBP", "sell_mode": "per_room"}}]}


def test_options_are_the_callers_only(make_user, anonymous):
    owner, stranger = make_user(), make_user()
    property_id = owner.client.post("/api/v1/properties", json=property_body()).json()["data"]["id"]
    owner.client.post("/api/v1/room_types", json={"room_type": {
        "property_id": property_id, "title": "Mine", "count_of_rooms": 1, "occ_adults": 1}})

    assert stranger.client.get("/api/v1/room_types/options").json() == {"data": []}
    assert stranger.client.get("/api/v1/room_types/options", params={"filter[property_id]": property_id}).json() \
        == {"data": []}
    for path in ("/api/v1/room_types/options", "/api/v1/rate_plans/options", "/api/v1/facilities/options"):
        assert anonymous.get(path).status_code == 401


def test_a_bad_options_filter_is_422(user):
    response = user.client.get("/api/v1/rate_plans/options", params={"filter[colour]": "red"})

    assert response.status_code == 422 and "filter[colour]" in response.json()["errors"]["details"]


@pytest.mark.parametrize("path", ["/api/v1/facilities/options", "/api/v1/property_facilities/options"])
def test_facility_options_are_the_whole_catalogue(user, path):
    body = user.client.get(path).json()

    assert "meta" not in body
    assert len(body["data"]) == sum(len(titles) for titles in CATALOGUE.values())
    wifi = facility_id("Free WiFi")
    assert {"id": wifi, "type": "facility", "attributes": {"id": wifi, "category": "Internet", "title": "Free WiFi"}} \
        in body["data"]
