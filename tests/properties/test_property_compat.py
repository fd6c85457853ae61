"""A property in the service's shapes (reference §4.1): its groups and facilities as relationships that carry
their attributes, `/properties/options` items with `group_ids`, and coordinates with up to 7 decimals."""

from __future__ import annotations

import pytest

from backend.properties.facilities import facility_id
from tests.conftest import CONTACT, property_body


def _group_title(live_engine, group_id: str) -> str:
    return live_engine.store.scalar("SELECT title FROM groups WHERE id = ?", (group_id,))


def test_relationships_list_the_group_and_the_facilities_with_their_attributes(user, live_engine):
    wifi, spa = facility_id("Free WiFi"), facility_id("Spa")
    group = user.actor.default_group_id
    created = user.client.post("/api/v1/properties", json=property_body(facilities=[wifi, spa])).json()["data"]

    for data in (created, user.client.get(f"/api/v1/properties/{created['id']}").json()["data"],
                 user.client.get("/api/v1/properties").json()["data"][0]):
        assert data["relationships"]["groups"] == {"data": [
            {"id": group, "type": "group", "attributes": {"id": group, "title": _group_title(live_engine, group)}}]}
        assert data["relationships"]["facilities"] == {"data": [
            {"id": wifi, "type": "facility", "attributes": {"id": wifi, "category": "Internet", "title": "Free WiFi"}},
            {"id": spa, "type": "facility", "attributes": {"id": spa, "category": "Wellness", "title": "Spa"}}]}


def test_options_carry_the_group_ids(make_user, live_engine):
    user = make_user()
    shared = live_engine.identity.add_group("Shared stays", [user.actor.email])
    mine = user.client.post("/api/v1/properties", json=property_body(title="A Mine")).json()["data"]["id"]
    theirs = user.client.post("/api/v1/properties", json=property_body(title="B Shared", group_id=shared))
    shared_id = theirs.json()["data"]["id"]

    body = user.client.get("/api/v1/properties/options").json()

    assert body == {"data": [
        {"id": mine, "type": "properties", "attributes": {
            "id": mine, "title": "A Mine", "currency": "GBP", "is_active": True,
            "group_ids": [user.actor.default_group_id]}},
        {"id": shared_id, "type": "properties", "attributes": {
            "id": shared_id, "title": "B Shared", "currency": "GBP", "is_active": True, "group_ids": [shared]}}]}


@pytest.mark.parametrize("latitude,longitude", [
    ("51.5285582", "-0.2416815"),  # the service's own documentation example
    ("-89.1234567", "-179.1234567"),  # 11 and 12 characters: over the spec's limits, within 7 decimals and range
    ("90", "180"), ("-90.0000000", "-180.0000000"), ("0", "0.1"),
])
def test_coordinates_take_seven_decimals_whatever_their_length(user, latitude, longitude):
    response = user.client.post("/api/v1/properties", json=property_body(**{**CONTACT, "latitude": latitude,
                                                                            "longitude": longitude}))

    assert response.status_code == 201, response.text
    attrs = response.json()["data"]["attributes"]
    assert (attrs["latitude"], attrs["longitude"]) == (latitude, longitude)


@pytest.mark.parametrize("field,value", [
    ("latitude", "51.52855821"), ("longitude", "-0.24168151"),  # 8 decimals
    ("latitude", "90.0000001"), ("longitude", "-180.0000001"), ("latitude", "-91"), ("longitude", "181"),
])
def test_coordinates_keep_refusing_eight_decimals_and_the_out_of_range(user, live_engine, field, value):
    before = live_engine.store.scalar("SELECT count(*) FROM properties")

    response = user.client.post("/api/v1/properties", json=property_body(**{field: value}))

    assert response.status_code == 422 and field in response.json()["errors"]["details"]
    assert live_engine.store.scalar("SELECT count(*) FROM properties") == before
