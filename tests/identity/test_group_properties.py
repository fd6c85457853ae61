"""A property in several groups (reference §11.1): `POST/DELETE /groups/:group_id/properties/:property_id`. A
property is in a group at least and cannot leave its last; its groups show as `relationships.groups`, its own first
(`relationships.group`); every group's users reach it."""

from __future__ import annotations

import pytest

from tests.identity.users import invite, new_property

UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def two_groups(make_user):
    """An owner with a property in their default group, a second group of theirs, and a user of that group alone."""
    owner, colleague = make_user(), make_user()
    property_id = new_property(owner.client)
    second = owner.client.post("/api/v1/groups", json={"group": {"title": "Second"}}).json()["data"]["id"]
    invite(owner.client, "group", second, colleague.actor.email)
    return owner, colleague, property_id, second


def _groups(client, property_id: str) -> list[str]:
    return [g["id"] for g in client.get(f"/api/v1/properties/{property_id}").json()["data"]["relationships"][
        "groups"]["data"]]


def test_a_property_joins_a_group_and_its_users_reach_it(two_groups):
    owner, colleague, property_id, second = two_groups
    url = f"/api/v1/groups/{second}/properties/{property_id}"
    assert colleague.client.get(f"/api/v1/properties/{property_id}").status_code == 401

    added = owner.client.post(url)
    again = owner.client.post(url)

    assert added.status_code == 200 and added.json() == {"meta": {"message": "Success"}}
    assert again.status_code == 422 and again.json()["errors"] == {
        "code": "validation_error", "title": "Validation Error",
        "details": {"hotel_id": ["Only one GroupHotel entity per Group and Hotel pair allowed!"]}}
    assert _groups(owner.client, property_id) == [owner.actor.default_group_id, second]
    shown = colleague.client.get(f"/api/v1/properties/{property_id}").json()["data"]
    assert shown["relationships"]["group"]["data"]["id"] == owner.actor.default_group_id
    group = colleague.client.get(f"/api/v1/groups/{second}").json()["data"]
    assert [p["id"] for p in group["relationships"]["properties"]["data"]] == [property_id]
    options = colleague.client.get("/api/v1/properties/options").json()["data"]
    assert [o["attributes"]["group_ids"] for o in options] == [[owner.actor.default_group_id, second]]


def test_a_property_leaves_a_group_but_never_its_last(two_groups):
    owner, colleague, property_id, second = two_groups
    owner.client.post(f"/api/v1/groups/{second}/properties/{property_id}")

    left = owner.client.delete(f"/api/v1/groups/{owner.actor.default_group_id}/properties/{property_id}")
    last = owner.client.delete(f"/api/v1/groups/{second}/properties/{property_id}")

    assert left.status_code == 200 and left.json() == {"meta": {"message": "Success"}}
    assert last.status_code == 400 and last.json()["errors"]["code"] == "bad_request"
    assert isinstance(last.json()["errors"]["details"], list)
    shown = owner.client.get(f"/api/v1/properties/{property_id}").json()["data"]
    assert shown["relationships"]["group"]["data"]["id"] == second  # its own group moved to the one it is in
    assert _groups(owner.client, property_id) == [second]
    assert colleague.client.get(f"/api/v1/properties/{property_id}").status_code == 200
    deleted = owner.client.delete(f"/api/v1/groups/{second}")
    assert deleted.status_code == 400 and deleted.json()["errors"]["code"] == "bad_request"


def test_leaving_the_group_a_user_reached_it_by_takes_it_away_at_once(two_groups):
    owner, colleague, property_id, second = two_groups
    owner.client.post(f"/api/v1/groups/{second}/properties/{property_id}")
    assert colleague.client.get(f"/api/v1/properties/{property_id}").status_code == 200

    assert owner.client.delete(f"/api/v1/groups/{second}/properties/{property_id}").status_code == 200

    assert colleague.client.get(f"/api/v1/properties/{property_id}").status_code == 401
    assert colleague.client.get("/api/v1/properties").json()["data"] == []


def test_unknown_and_unreached_groups_and_properties(two_groups, make_user):
    owner, colleague, property_id, second = two_groups
    stranger = make_user()
    theirs = new_property(stranger.client, "Elsewhere")

    assert owner.client.post(f"/api/v1/groups/{UNKNOWN}/properties/{property_id}").status_code == 404
    assert owner.client.post(f"/api/v1/groups/{second}/properties/{UNKNOWN}").status_code == 404
    assert owner.client.delete(f"/api/v1/groups/{second}/properties/{property_id}").status_code == 404  # not in it
    for response in (stranger.client.post(f"/api/v1/groups/{second}/properties/{theirs}"),
                     owner.client.post(f"/api/v1/groups/{second}/properties/{theirs}"),
                     colleague.client.post(f"/api/v1/groups/{stranger.actor.default_group_id}/properties/"
                                           f"{property_id}")):
        assert response.status_code == 401 and response.json()["errors"]["code"] == "unauthorized"
    assert _groups(stranger.client, theirs) == [stranger.actor.default_group_id]
