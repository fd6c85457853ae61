"""Property users (reference §11.2): invite by address, list, read, change the role or overrides, withdraw; in the
service's shapes and envelope. An owner manages users, a `user` may not (403); access follows at once."""

from __future__ import annotations

import uuid

import pytest

from backend.core.errors import BadRequest
from tests.identity.users import invite, new_property

UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def hotel(make_user):
    """An owner (their default group holds the property), a colleague, and the property."""
    owner, colleague = make_user(), make_user()
    return owner, colleague, new_property(owner.client)


def test_invite_get_list_in_the_services_shape(hotel):
    owner, colleague, property_id = hotel

    invited = invite(owner.client, "property", property_id, colleague.actor.email.upper(), overrides={})

    assert invited.status_code == 201, invited.text
    member_id = invited.json()["data"]["id"]
    assert uuid.UUID(member_id).version == 4
    expected = {"type": "property_user", "id": member_id,
                "attributes": {"id": member_id, "overrides": {}, "property_id": property_id, "role": "user",
                               "user_id": colleague.actor.user_id},
                "relationships": {"property": {"data": {"id": property_id, "type": "property"}},
                                  "user": {"data": {"id": colleague.actor.user_id, "type": "user",
                                                    "email": colleague.actor.email, "name": None}}}}
    assert invited.json() == {"data": expected}
    assert owner.client.get(f"/api/v1/property_users/{member_id}").json() == {"data": expected}
    listed = owner.client.get("/api/v1/property_users", params={"filter[property_id]": property_id}).json()
    assert listed == {"data": [expected], "meta": {"page": 1, "limit": 10, "total": 1}}
    assert colleague.client.get(f"/api/v1/property_users/{member_id}").json() == {"data": expected}


def test_access_follows_an_invitation_and_a_withdrawal_at_once(hotel):
    owner, colleague, property_id = hotel
    url = f"/api/v1/properties/{property_id}"
    assert colleague.client.get(url).status_code == 401

    member_id = invite(owner.client, "property", property_id, colleague.actor.email).json()["data"]["id"]

    assert colleague.client.get(url).status_code == 200
    assert [p["id"] for p in colleague.client.get("/api/v1/properties").json()["data"]] == [property_id]
    assert colleague.client.put(url, json={"property": {"city": "Bristol"}}).status_code == 200
    withdrawn = owner.client.delete(f"/api/v1/property_users/{member_id}")
    assert withdrawn.status_code == 200 and withdrawn.json() == {"meta": {"message": "Success"}}
    assert colleague.client.get(url).status_code == 401
    assert colleague.client.get("/api/v1/properties").json()["data"] == []
    assert owner.client.get(f"/api/v1/property_users/{member_id}").json()["errors"]["code"] == "resource_not_found"


def test_the_role_and_overrides_change_and_nothing_else(hotel):
    owner, colleague, property_id = hotel
    member_id = invite(owner.client, "property", property_id, colleague.actor.email).json()["data"]["id"]
    url = f"/api/v1/property_users/{member_id}"

    changed = owner.client.put(url, json={"property_user": {"role": "owner", "overrides": {"channels": "read"}}})
    kept = owner.client.put(url, json={"property_user": {}})
    other_field = owner.client.put(url, json={"property_user": {"user_id": owner.actor.user_id}})
    bad_role = owner.client.put(url, json={"property_user": {"role": "admin"}})
    bad_overrides = owner.client.put(url, json={"property_user": {"overrides": ["x"]}})
    huge_overrides = owner.client.put(url, json={"property_user": {"overrides": {"x": "y" * 5000}}})

    assert changed.status_code == 200, changed.text
    attributes = changed.json()["data"]["attributes"]
    assert (attributes["role"], attributes["overrides"]) == ("owner", {"channels": "read"})
    assert kept.json()["data"]["attributes"] == attributes
    for response, field in ((other_field, "user_id"), (bad_role, "role"), (bad_overrides, "overrides"),
                            (huge_overrides, "overrides")):
        assert response.status_code == 422 and list(response.json()["errors"]["details"]) == [field], response.text
    assert owner.client.get(url).json()["data"]["attributes"] == attributes


def test_a_user_may_work_on_the_property_but_not_manage_its_users_nor_delete_it(hotel, make_user):
    owner, colleague, property_id = hotel
    third = make_user()
    mine = invite(owner.client, "property", property_id, colleague.actor.email).json()["data"]["id"]
    theirs = invite(owner.client, "property", property_id, third.actor.email).json()["data"]["id"]

    calls = [invite(colleague.client, "property", property_id, "someone@example.com"),
             colleague.client.put(f"/api/v1/property_users/{theirs}", json={"property_user": {"role": "owner"}}),
             colleague.client.put(f"/api/v1/property_users/{mine}", json={"property_user": {"role": "owner"}}),
             colleague.client.delete(f"/api/v1/property_users/{theirs}"),
             colleague.client.delete(f"/api/v1/properties/{property_id}")]

    for response in calls:
        assert response.status_code == 403 and response.json()["errors"]["code"] == "forbidden", response.text
    assert colleague.client.get("/api/v1/property_users", params={"filter[property_id]": property_id}).status_code == 200
    assert colleague.client.get(f"/api/v1/properties/{property_id}").status_code == 200
    assert owner.client.get(f"/api/v1/property_users/{mine}").json()["data"]["attributes"]["role"] == "user"


def test_an_owner_alone_manages_users_and_deletes_the_property(hotel, make_user):
    owner, colleague, property_id = hotel
    invite(owner.client, "property", property_id, colleague.actor.email, role="owner")
    third = make_user()

    invited = invite(colleague.client, "property", property_id, third.actor.email)
    assert invited.status_code == 201
    assert third.client.get(f"/api/v1/properties/{property_id}").status_code == 200
    assert colleague.client.delete(f"/api/v1/properties/{property_id}").status_code == 200
    assert third.client.get(f"/api/v1/properties/{property_id}").status_code == 404


def test_errors_in_the_envelope(hotel, make_user, live_engine):
    owner, colleague, property_id = hotel
    stranger = make_user()
    member_id = invite(owner.client, "property", property_id, colleague.actor.email).json()["data"]["id"]
    own_id = invite(owner.client, "property", property_id, owner.actor.email, role="owner").json()["data"]["id"]
    before = live_engine.store.scalar("SELECT count(*) FROM property_users")

    twice = invite(owner.client, "property", property_id, colleague.actor.email)
    themself = owner.client.delete(f"/api/v1/property_users/{own_id}")
    blank = invite(owner.client, "property", property_id, "  ")
    not_an_address = invite(owner.client, "property", property_id, "not an address")
    bad_role = invite(owner.client, "property", property_id, "x@example.com", role="admin")
    no_property = owner.client.post("/api/v1/property_users", json={"invite": {"user_email": "x@example.com"}})
    unknown_property = invite(owner.client, "property", UNKNOWN, "x@example.com")
    no_envelope = owner.client.post("/api/v1/property_users", json={"user_email": "x@example.com"})

    assert twice.status_code == 400 and twice.json() == {"errors": {
        "code": "bad_request", "title": "Bad Request", "details": {"user_email": ["User already invited"]}}}
    assert themself.status_code == 400 and themself.json()["errors"]["details"] == {
        "user_id": ["User can not withdraw themself"]}
    assert blank.status_code == 422 and blank.json()["errors"]["details"] == {"user_email": ["can't be blank"]}
    for response, field in ((not_an_address, "user_email"), (bad_role, "role"), (no_property, "property_id")):
        assert response.status_code == 422 and list(response.json()["errors"]["details"]) == [field], response.text
    assert unknown_property.status_code == 404
    assert unknown_property.json()["errors"]["code"] == "resource_not_found"
    assert no_envelope.status_code == 400
    for response in (stranger.client.get(f"/api/v1/property_users/{member_id}"),
                     invite(stranger.client, "property", property_id, "x@example.com"),
                     stranger.client.put(f"/api/v1/property_users/{member_id}", json={"property_user": {"role": "owner"}}),
                     stranger.client.delete(f"/api/v1/property_users/{member_id}")):
        assert response.status_code == 401 and response.json()["errors"]["code"] == "unauthorized"
    assert stranger.client.get("/api/v1/property_users", params={"filter[property_id]": property_id}).json()[
        "data"] == []
    for method in ("GET", "PUT", "DELETE"):
        response = owner.client.request(method, f"/api/v1/property_users/{UNKNOWN}",
                                        json={"property_user": {"role": "user"}} if method == "PUT" else None)
        assert response.status_code == 404 and response.json()["errors"] == {
            "code": "resource_not_found", "title": "Resource Not Found",
            "details": f"property user {UNKNOWN} does not exist"}
    assert live_engine.store.scalar("SELECT count(*) FROM property_users") == before


def test_an_unknown_address_gets_an_account_without_a_token_shown(hotel, live_engine, anonymous):
    owner, _, property_id = hotel
    email = f"new-{uuid.uuid4().hex[:8]}@example.com"

    invited = invite(owner.client, "property", property_id, email)

    assert invited.status_code == 201
    assert "fd_" not in invited.text and "token" not in invited.text
    user_id = invited.json()["data"]["attributes"]["user_id"]
    assert live_engine.store.scalar("SELECT email FROM users WHERE id = ?", (user_id,)) == email
    assert live_engine.identity.tokens(email) == []
    token = live_engine.identity.add_token(email).token  # `frontdesk tokens add EMAIL`
    seen = anonymous.get(f"/api/v1/properties/{property_id}", headers={"Authorization": f"Bearer {token}"})
    assert seen.status_code == 200


def test_the_last_owner_is_neither_withdrawn_nor_demoted(live_engine):
    """A property whose group has no users: its one owner property user is its last owner."""
    operator = live_engine.identity.operator()
    group = live_engine.identity.add_group("Unstaffed", [])
    operator = live_engine.identity.operator()
    property_id = live_engine.properties.create(operator, {"title": "Lonely Lodge", "currency": "EUR",
                                                           "group_id": group})["id"]
    email = f"last-{uuid.uuid4().hex[:8]}@example.com"
    owner = live_engine.property_users.invite(operator, {"property_id": property_id, "user_email": email,
                                                         "role": "owner"})
    second = live_engine.property_users.invite(operator, {"property_id": property_id, "user_email": f"2{email}",
                                                          "role": "owner"})

    live_engine.property_users.update(operator, second["id"], {"role": "user"})  # another owner stays
    for attempt in (lambda: live_engine.property_users.update(operator, owner["id"], {"role": "user"}),
                    lambda: live_engine.property_users.withdraw(operator, owner["id"])):
        with pytest.raises(BadRequest) as refused:
            attempt()
        assert list(refused.value.details) == ["role"]
    assert live_engine.property_users.get(operator, owner["id"])["role"] == "owner"
    live_engine.property_users.withdraw(operator, second["id"])  # a `user` goes whatever
