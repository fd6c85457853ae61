"""Creating, reading, updating and deleting properties over HTTP, with what the database then holds."""

from __future__ import annotations

from backend.properties.facilities import facility_id
from tests.conftest import CONTACT, property_body

FULL = {
    "title": "Grand Hotel Example", "currency": "EUR", **CONTACT, "timezone": "Europe/London",
    "facilities": [facility_id("Free WiFi"), facility_id("Spa")], "property_type": "hotel",
    "settings": {"allow_availability_autoupdate_on_confirmation": False, "min_stay_type": "arrival",
                 "min_price": 4950, "max_price": "900", "state_length": 730, "cut_off_time": "18:30:00",
                 "cut_off_days": 1},
    "content": {"description": "By the river.", "important_information": "Late check-in by the side door.",
                "photos": [{"url": "https://cdn.example/b.jpg", "position": 1, "kind": "menu"},
                           {"url": "https://cdn.example/a.jpg", "position": 0, "author": "Ann", "kind": "photo",
                            "description": "Cover"}]},
    "website": "https://grand.example", "is_active": True,
}


def test_create_returns_201_with_every_field(user, live_engine):
    response = user.client.post("/api/v1/properties", json={"property": FULL})

    assert response.status_code == 201
    data = response.json()["data"]
    assert data["type"] == "property" and data["id"] == data["attributes"]["id"]
    attrs = data["attributes"]
    for name in ("title", "currency", *CONTACT, "timezone", "facilities", "property_type", "website"):
        assert attrs[name] == FULL[name], name
    assert attrs["settings"] == {
        "allow_availability_autoupdate": True, "allow_availability_autoupdate_on_confirmation": False,
        "allow_availability_autoupdate_on_modification": True, "allow_availability_autoupdate_on_cancellation": True,
        "min_stay_type": "arrival", "min_price": "49.50", "max_price": "900.00", "state_length": 730,
        "cut_off_time": "18:30:00", "cut_off_days": 1}
    assert [p["url"] for p in attrs["content"]["photos"]] == ["https://cdn.example/a.jpg", "https://cdn.example/b.jpg"]
    assert attrs["acc_cannels_count"] == 0 and attrs["group_id"] == user.actor.default_group_id
    assert data["relationships"]["group"]["data"]["id"] == user.actor.default_group_id
    stored = live_engine.store.one("SELECT title, city FROM properties WHERE id = ?", (data["id"],))
    assert tuple(stored) == ("Grand Hotel Example", "London")


def test_create_fills_in_default_settings(user):
    attrs = user.client.post("/api/v1/properties", json=property_body()).json()["data"]["attributes"]

    assert attrs["settings"] == {
        "allow_availability_autoupdate": True, "allow_availability_autoupdate_on_confirmation": True,
        "allow_availability_autoupdate_on_modification": True, "allow_availability_autoupdate_on_cancellation": True,
        "min_stay_type": "both", "min_price": None, "max_price": None, "state_length": 500,
        "cut_off_time": "00:00:00", "cut_off_days": 0}
    assert attrs["content"] == {"description": None, "important_information": None, "photos": []}
    assert attrs["is_active"] is True and attrs["facilities"] == []


def test_update_changes_only_what_is_sent(user):
    created = user.client.post("/api/v1/properties", json={"property": FULL}).json()["data"]["attributes"]

    response = user.client.put(f"/api/v1/properties/{created['id']}",
                               json={"property": {"city": "Bath", "settings": {"cut_off_days": 2}}})

    assert response.status_code == 200
    attrs = response.json()["data"]["attributes"]
    assert attrs["city"] == "Bath" and attrs["title"] == FULL["title"]
    assert attrs["settings"] == {**created["settings"], "cut_off_days": 2}
    assert attrs["updated_at"] > created["updated_at"]


def test_update_accepts_what_was_read_back(user):
    """Integrators PUT what they GET: read-only fields in it are ignored."""
    created = user.client.post("/api/v1/properties", json={"property": FULL}).json()["data"]["attributes"]

    response = user.client.put(f"/api/v1/properties/{created['id']}", json={"property": {**created, "title": "Renamed"}})

    assert response.status_code == 200
    assert response.json()["data"]["attributes"]["title"] == "Renamed"


def test_update_clears_an_optional_field_with_null_or_empty(user):
    created = user.client.post("/api/v1/properties", json={"property": FULL}).json()["data"]["attributes"]

    attrs = user.client.put(f"/api/v1/properties/{created['id']}",
                            json={"property": {"website": None, "state": ""}}).json()["data"]["attributes"]

    assert attrs["website"] is None and attrs["state"] is None


def test_min_and_max_price_are_checked_against_the_stored_other(user):
    created = user.client.post("/api/v1/properties", json=property_body(settings={"min_price": 100})).json()["data"]

    response = user.client.put(f"/api/v1/properties/{created['id']}", json={"property": {"settings": {"max_price": 50}}})

    assert response.status_code == 422
    assert "settings.max_price" in response.json()["errors"]["details"]


def test_delete_removes_the_property(user, live_engine):
    created = user.client.post("/api/v1/properties", json=property_body()).json()["data"]

    response = user.client.delete(f"/api/v1/properties/{created['id']}")

    assert response.status_code == 200 and response.json() == {"meta": {"message": "Success"}}
    assert user.client.get(f"/api/v1/properties/{created['id']}").status_code == 404
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE id = ?", (created["id"],)) == 0


def test_unknown_property_is_404(user):
    for response in (user.client.get("/api/v1/properties/00000000-0000-4000-8000-000000000000"),
                     user.client.put("/api/v1/properties/nope", json=property_body()),
                     user.client.delete("/api/v1/properties/nope")):
        assert response.status_code == 404
        assert response.json()["errors"]["code"] == "not_found"


def test_facility_catalogue_is_listed(user):
    data = user.client.get("/api/v1/property_facilities").json()["data"]

    titles = {f["attributes"]["title"] for f in data}
    assert {"Free WiFi", "Spa", "Free parking"} <= titles
    assert all(f["type"] == "facility" and f["id"] == f["attributes"]["id"] for f in data)  # the service's type


def test_null_group_on_update_keeps_the_group(make_user, live_engine):
    user = make_user()
    shared = live_engine.identity.add_group("Shared", [user.actor.email])
    user.actor = live_engine.identity.actor_for(user.actor.email)
    created = user.client.post("/api/v1/properties", json=property_body(group_id=shared)).json()["data"]

    response = user.client.put(f"/api/v1/properties/{created['id']}", json={"property": {"group_id": None}})

    assert response.status_code == 200
    assert response.json()["data"]["attributes"]["group_id"] == shared
