"""Groups in the service's shape (https://docs.channex.io/api-v.1-documentation/groups-collection): list, get,
create, update and delete, each group with its properties as relationships. Only members see or change a group;
a group that still holds properties (400, as the service answers: reference §11.1) or channels, or is someone's
default group (422), is not deleted."""

from __future__ import annotations

import pytest

from tests.conftest import property_body

UNKNOWN = "00000000-0000-4000-8000-000000000000"


def _group(user, title: str = "South London Group"):
    return user.client.post("/api/v1/groups", json={"group": {"title": title}})


def test_create_get_update_delete_in_the_services_shape(user):
    created = _group(user)

    assert created.status_code == 201, created.text
    group_id = created.json()["data"]["id"]
    assert created.json() == {"data": {"type": "group", "id": group_id,
                                       "attributes": {"id": group_id, "title": "South London Group",
                                                      "is_default": False},
                                       "relationships": {"properties": {"data": []}}}}
    renamed = user.client.put(f"/api/v1/groups/{group_id}", json={"group": {"title": "North London Group"}})
    assert renamed.status_code == 200 and renamed.json()["data"]["attributes"]["title"] == "North London Group"
    assert user.client.get(f"/api/v1/groups/{group_id}").json() == renamed.json()
    put_back = user.client.put(f"/api/v1/groups/{group_id}", json={"group": renamed.json()["data"]["attributes"]})
    assert put_back.status_code == 200 and put_back.json() == renamed.json()
    listed = user.client.get("/api/v1/groups").json()["data"]
    assert group_id in {g["id"] for g in listed}
    deleted = user.client.delete(f"/api/v1/groups/{group_id}")
    assert deleted.status_code == 200 and deleted.json() == {"meta": {"message": "Success"}}
    assert user.client.get(f"/api/v1/groups/{group_id}").status_code == 404


def test_a_group_lists_its_properties(user):
    group_id = _group(user).json()["data"]["id"]
    property_id = user.client.post("/api/v1/properties", json=property_body(title="Property A", group_id=group_id))
    property_id = property_id.json()["data"]["id"]

    body = user.client.get(f"/api/v1/groups/{group_id}").json()
    listed = next(g for g in user.client.get("/api/v1/groups").json()["data"] if g["id"] == group_id)

    properties = {"data": [{"id": property_id, "type": "property",
                            "attributes": {"id": property_id, "title": "Property A"}}]}
    assert body["data"]["relationships"]["properties"] == properties
    assert listed["relationships"]["properties"] == properties


def test_a_group_holding_properties_or_channels_or_someones_default_is_not_deleted(user, live_engine):
    holding = _group(user, "Holding").json()["data"]["id"]
    user.client.post("/api/v1/properties", json=property_body(title="Inn One", group_id=holding))
    user.client.post("/api/v1/properties", json=property_body(title="Inn Two", group_id=holding))
    selling = _group(user, "Selling").json()["data"]["id"]
    meta = f"Meta {selling}"  # shopping names are unique across groups, and the session's database is shared
    assert user.client.post("/api/v1/channels", json={"channel": {"title": meta, "channel": "OpenShopping",
                                                                  "group_id": selling}}).status_code == 201

    properties = user.client.delete(f"/api/v1/groups/{holding}")
    channels = user.client.delete(f"/api/v1/groups/{selling}")
    default = user.client.delete(f"/api/v1/groups/{user.actor.default_group_id}")

    assert properties.status_code == 400 and properties.json()["errors"]["code"] == "bad_request"
    assert properties.json()["errors"]["details"] == [
        "'Inn One', 'Inn Two' are in this group: move or delete them first"]
    assert channels.status_code == 422
    assert channels.json()["errors"]["details"] == {"channels": [f"'{meta}' is in this group: move or delete it first"]}
    assert default.status_code == 422 and list(default.json()["errors"]["details"]) == ["group"]
    assert live_engine.store.scalar("SELECT count(*) FROM groups WHERE id IN (?, ?, ?)",
                                    (holding, selling, user.actor.default_group_id)) == 3


def test_only_members_see_or_change_a_group(make_user, anonymous):
    owner, stranger = make_user(), make_user()
    group_id = _group(owner).json()["data"]["id"]
    url = f"/api/v1/groups/{group_id}"

    for response in (stranger.client.get(url), stranger.client.put(url, json={"group": {"title": "Mine"}}),
                     stranger.client.delete(url), anonymous.get(url), anonymous.post("/api/v1/groups", json={
                         "group": {"title": "Anyone"}})):
        assert response.status_code == 401 and response.json()["errors"]["code"] == "unauthorized"
    assert group_id not in {g["id"] for g in stranger.client.get("/api/v1/groups").json()["data"]}
    assert owner.client.get(url).json()["data"]["attributes"]["title"] == "South London Group"


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_an_unknown_group_is_404(user, method):
    response = user.client.request(method.upper(), f"/api/v1/groups/{UNKNOWN}",
                                   json={"group": {"title": "X"}} if method == "put" else None)

    assert response.status_code == 404 and response.json()["errors"]["details"] == f"group {UNKNOWN} does not exist"


@pytest.mark.parametrize("body,field", [
    ({"group": {"title": ""}}, "title"), ({"group": {"title": 7}}, "title"), ({"group": {"title": "t" * 256}}, "title"),
    ({"group": {}}, "title"), ({"group": {"title": "Ok", "colour": "red"}}, "colour"),
])
def test_bad_group_fields_are_422(user, live_engine, body, field):
    before = live_engine.store.scalar("SELECT count(*) FROM groups")

    response = user.client.post("/api/v1/groups", json=body)

    assert response.status_code == 422 and field in response.json()["errors"]["details"]
    assert live_engine.store.scalar("SELECT count(*) FROM groups") == before


def test_a_group_update_of_the_wrong_type_or_too_big_changes_nothing(user):
    group_id = _group(user).json()["data"]["id"]
    url = f"/api/v1/groups/{group_id}"

    wrong = user.client.put(url, json={"group": {"title": ["North"]}})
    huge = user.client.put(url, json={"group": {"title": "x" * (2 * 1024 * 1024)}})
    not_an_object = user.client.put(url, json={"group": "North"})

    assert wrong.status_code == 422 and list(wrong.json()["errors"]["details"]) == ["title"]
    assert huge.status_code == 413 and huge.json()["errors"]["code"] == "payload_too_large"
    assert not_an_object.status_code == 400
    assert user.client.get(url).json()["data"]["attributes"]["title"] == "South London Group"
