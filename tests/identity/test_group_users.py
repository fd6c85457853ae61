"""Group users (reference §11.2): a user given a group reaches every property in it, those added later too. The
members of before are the group's owners; an owner manages users and deletes the group, a `user` may not (403)."""

from __future__ import annotations

import pytest

from tests.identity.users import invite, new_property

UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def chain(make_user):
    """An owner with a group of two properties, and a colleague."""
    owner, colleague = make_user(), make_user()
    group_id = owner.client.post("/api/v1/groups", json={"group": {"title": "Coast"}}).json()["data"]["id"]
    properties = [new_property(owner.client, title, group_id=group_id) for title in ("A Bay", "B Cliff")]
    return owner, colleague, group_id, properties


def _shape(member_id: str, group_id: str, user, role: str, overrides=None) -> dict:
    return {"type": "group_user", "id": member_id,
            "attributes": {"id": member_id, "overrides": overrides, "group_id": group_id, "role": role,
                           "user_id": user.actor.user_id},
            "relationships": {"group": {"data": {"id": group_id, "type": "group"}},
                              "user": {"data": {"id": user.actor.user_id, "type": "user", "email": user.actor.email,
                                                "name": None}}}}


def test_the_creator_is_the_groups_owner_and_an_invitation_has_the_services_shape(chain):
    owner, colleague, group_id, _ = chain

    invited = invite(owner.client, "group", group_id, colleague.actor.email)

    assert invited.status_code == 201, invited.text
    member_id = invited.json()["data"]["id"]
    assert invited.json() == {"data": _shape(member_id, group_id, colleague, "user")}
    listed = owner.client.get("/api/v1/group_users", params={"filter[group_id]": group_id}).json()
    assert [(m["attributes"]["user_id"], m["attributes"]["role"]) for m in listed["data"]] == sorted(
        [(owner.actor.user_id, "owner"), (colleague.actor.user_id, "user")],
        key=lambda m: (owner.actor.email if m[0] == owner.actor.user_id else colleague.actor.email))
    assert listed["meta"]["total"] == 2
    assert owner.client.get(f"/api/v1/group_users/{member_id}").json() == {"data": _shape(member_id, group_id,
                                                                                          colleague, "user")}


def test_a_group_user_reaches_every_property_of_the_group_until_withdrawn(chain):
    owner, colleague, group_id, properties = chain
    assert colleague.client.get("/api/v1/properties").json()["data"] == []

    member_id = invite(owner.client, "group", group_id, colleague.actor.email).json()["data"]["id"]
    later = new_property(owner.client, "C Dune", group_id=group_id)

    seen = [p["id"] for p in colleague.client.get("/api/v1/properties").json()["data"]]
    assert seen == [*properties, later]
    assert colleague.client.get(f"/api/v1/groups/{group_id}").status_code == 200
    assert owner.client.delete(f"/api/v1/group_users/{member_id}").status_code == 200
    assert colleague.client.get("/api/v1/properties").json()["data"] == []
    assert colleague.client.get(f"/api/v1/properties/{later}").status_code == 401
    assert colleague.client.get(f"/api/v1/groups/{group_id}").status_code == 401


def test_a_user_may_not_manage_users_nor_delete_the_group_an_owner_may(chain, make_user):
    owner, colleague, _, _ = chain
    empty = owner.client.post("/api/v1/groups", json={"group": {"title": "Empty"}}).json()["data"]["id"]
    member_id = invite(owner.client, "group", empty, colleague.actor.email).json()["data"]["id"]
    owner_id = owner.client.get("/api/v1/group_users", params={"filter[group_id]": empty,
                                                               "filter[role]": "owner"}).json()["data"][0]["id"]

    for response in (invite(colleague.client, "group", empty, make_user().actor.email),
                     colleague.client.put(f"/api/v1/group_users/{owner_id}", json={"group_user": {"role": "user"}}),
                     colleague.client.delete(f"/api/v1/group_users/{owner_id}"),
                     colleague.client.delete(f"/api/v1/groups/{empty}")):
        assert response.status_code == 403 and response.json()["errors"]["code"] == "forbidden", response.text
    assert colleague.client.put(f"/api/v1/groups/{empty}", json={"group": {"title": "Renamed"}}).status_code == 200

    promoted = owner.client.put(f"/api/v1/group_users/{member_id}", json={"group_user": {"role": "owner"}})
    assert promoted.status_code == 200 and promoted.json()["data"]["attributes"]["role"] == "owner"
    assert colleague.client.delete(f"/api/v1/groups/{empty}").status_code == 200


def test_the_last_owner_of_a_group_stays_its_owner(chain):
    owner, colleague, group_id, _ = chain
    invite(owner.client, "group", group_id, colleague.actor.email)
    owner_id = owner.client.get("/api/v1/group_users", params={"filter[group_id]": group_id,
                                                               "filter[role]": "owner"}).json()["data"][0]["id"]

    demoted = owner.client.put(f"/api/v1/group_users/{owner_id}", json={"group_user": {"role": "user"}})
    themself = owner.client.delete(f"/api/v1/group_users/{owner_id}")

    assert demoted.status_code == 400 and demoted.json()["errors"]["code"] == "bad_request"
    assert list(demoted.json()["errors"]["details"]) == ["role"]
    assert themself.status_code == 400 and themself.json()["errors"]["details"] == {
        "user_id": ["User can not withdraw themself"]}
    assert owner.client.get(f"/api/v1/group_users/{owner_id}").json()["data"]["attributes"]["role"] == "owner"


def test_errors_in_the_envelope(chain, make_user):
    owner, colleague, group_id, _ = chain
    stranger = make_user()
    member_id = invite(owner.client, "group", group_id, colleague.actor.email).json()["data"]["id"]

    twice = invite(owner.client, "group", group_id, colleague.actor.email)
    property_named = owner.client.post("/api/v1/group_users", json={"invite": {
        "group_id": group_id, "property_id": UNKNOWN, "user_email": "x@example.com"}})
    unknown = invite(owner.client, "group", UNKNOWN, "x@example.com")

    assert twice.status_code == 400 and twice.json()["errors"]["details"] == {"user_email": ["User already invited"]}
    assert property_named.status_code == 422 and list(property_named.json()["errors"]["details"]) == ["property_id"]
    assert unknown.status_code == 404 and unknown.json()["errors"]["code"] == "resource_not_found"
    for response in (stranger.client.get(f"/api/v1/group_users/{member_id}"),
                     invite(stranger.client, "group", group_id, "x@example.com"),
                     stranger.client.delete(f"/api/v1/group_users/{member_id}")):
        assert response.status_code == 401
    assert stranger.client.get("/api/v1/group_users", params={"filter[group_id]": group_id}).json()["data"] == []
    assert owner.client.get(f"/api/v1/group_users/{UNKNOWN}").json()["errors"]["code"] == "resource_not_found"
