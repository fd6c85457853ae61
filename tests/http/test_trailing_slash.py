"""A trailing slash answers like the route without it, as the service does (its own docs write
`GET /api/v1/properties/`): never a redirect, least of all to an address built from the Host header."""

from __future__ import annotations

import pytest

from tests.conftest import property_body


@pytest.mark.parametrize("path", ["/api/v1/properties", "/api/v1/properties/options", "/api/v1/channels",
                                  "/api/v1/groups", "/api/v1/room_types", "/api/v1/health"])
def test_a_trailing_slash_answers_like_the_route(user, path):
    plain = user.client.get(path)
    slashed = user.client.get(f"{path}/", headers={"Host": "evil.example"})

    assert slashed.status_code == plain.status_code == 200
    assert "location" not in slashed.headers
    assert slashed.json() == plain.json()


def test_writes_and_ids_take_a_trailing_slash_too(user):
    created = user.client.post("/api/v1/properties/", json=property_body(title="Slash Inn"))
    property_id = created.json()["data"]["id"]

    read = user.client.get(f"/api/v1/properties/{property_id}/")
    deleted = user.client.delete(f"/api/v1/properties/{property_id}//")

    assert created.status_code == 201
    assert read.status_code == 200 and read.json()["data"]["attributes"]["title"] == "Slash Inn"
    assert deleted.status_code == 200 and user.client.get(f"/api/v1/properties/{property_id}").status_code == 404


def test_an_unknown_path_with_a_slash_is_still_404(user):
    response = user.client.get("/api/v1/nothing-here/")

    assert response.status_code == 404 and response.json()["errors"]["code"] == "not_found"
    assert "location" not in response.headers
