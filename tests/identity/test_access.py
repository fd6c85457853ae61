"""Tokens and access: someone else's property is a 401 on every route and never shows in a list."""

from __future__ import annotations

import pytest

from tests.conftest import property_body


@pytest.fixture
def owned(make_user):
    owner, stranger = make_user(), make_user()
    created = owner.client.post("/api/v1/properties", json=property_body(title="Owner's Inn")).json()["data"]
    return owner, stranger, created["id"]


def test_a_second_user_gets_401_on_every_property_route(owned):
    owner, stranger, property_id = owned
    calls = [
        stranger.client.get(f"/api/v1/properties/{property_id}"),
        stranger.client.put(f"/api/v1/properties/{property_id}", json=property_body(title="Mine now")),
        stranger.client.delete(f"/api/v1/properties/{property_id}"),
    ]
    for response in calls:
        assert response.status_code == 401, response.request.method
        assert response.json()["errors"]["code"] == "unauthorized"
        assert "Owner's Inn" not in response.text
    assert owner.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]["title"] == "Owner's Inn"


def test_a_second_user_never_sees_it_in_lists(owned):
    _, stranger, property_id = owned

    listed = stranger.client.get("/api/v1/properties", params={"filter[id]": property_id}).json()
    options = stranger.client.get("/api/v1/properties/options").json()

    assert listed["data"] == [] and listed["meta"]["total"] == 0
    assert property_id not in {o["id"] for o in options["data"]}


def test_a_second_user_cannot_connect_it_or_install_apps_on_it(owned):
    _, stranger, property_id = owned

    channel = stranger.client.post("/api/v1/channels", json={"channel": {
        "title": "Sneaky", "channel_code": "BookingCom", "property_ids": [property_id]}})
    app = stranger.client.post("/api/v1/applications/install", json={"application_installation": {
        "property_id": property_id, "application_code": "chat"}})

    assert channel.status_code == 422 and "property_ids.0" in channel.json()["errors"]["details"]
    assert app.status_code == 422 and "property_id" in app.json()["errors"]["details"]


@pytest.mark.parametrize("headers", [
    {},
    {"Authorization": "Bearer fd_not-a-real-token"},
    {"Authorization": "Bearer"},
    {"Authorization": "Basic dXNlcjpwYXNz"},
    {"user-api-key": "wrong"},
])
@pytest.mark.parametrize("path", ["/api/v1/properties", "/api/v1/properties/options", "/api/v1/channels",
                                  "/api/v1/property_facilities", "/api/v1/applications/installed"])
def test_missing_or_wrong_token_is_401(anonymous, headers, path):
    response = anonymous.get(path, headers=headers)

    assert response.status_code == 401
    assert response.json()["errors"]["code"] == "unauthorized"


def test_user_api_key_header_is_accepted(user, anonymous):
    response = anonymous.get("/api/v1/properties", headers={"user-api-key": user.token})

    assert response.status_code == 200


def test_a_revoked_token_is_refused(user, live_engine):
    assert user.client.get("/api/v1/properties").status_code == 200

    live_engine.identity.revoke_token(user.token)

    assert user.client.get("/api/v1/properties").status_code == 401


def test_tokens_are_stored_only_as_hashes(user, live_engine):
    stored = [r[0] for r in live_engine.store.query("SELECT token_hash FROM api_tokens")]

    assert user.token not in stored
    assert all(len(h) == 64 for h in stored)
