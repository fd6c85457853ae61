"""Hotel policies by their own ID, in the service's shape
(https://docs.channex.io/api-v.1-documentation/hotel-policy-collection): list, get, create (201), update,
delete; the documented `checkin_time`/`checkout_time` and `by_arrangements`. One policy per property. A policy made
without `property_id` and named by a property's `hotel_policy_id`, as channex-gql does (reference §13: "The page
does not show the link to a property. channex-gql types property attributes `hotel_policy_id`")."""

from __future__ import annotations

import pytest

from tests.conftest import property_body
from tests.identity.users import invite

UNKNOWN = "00000000-0000-4000-8000-000000000000"
# The documentation's create body, word for word.
DOCUMENTED = {"title": "Hotel Policy", "currency": "GBP", "is_adults_only": False, "max_count_of_guests": 20,
              "checkin_time": "14:00", "checkout_time": "13:00", "internet_access_type": "wifi",
              "internet_access_cost": None, "internet_access_coverage": "entire_property", "parking_type": "on_site",
              "parking_reservation": "needed", "parking_is_private": True, "pets_policy": "allowed",
              "pets_non_refundable_fee": "0.00", "pets_refundable_deposit": "0.00", "smoking_policy": "no_smoking"}


def _property(user) -> str:
    return user.client.post("/api/v1/properties", json=property_body()).json()["data"]["id"]


def _policy(user, property_id: str, **fields):
    return user.client.post("/api/v1/hotel_policies", json={"hotel_policy": {**DOCUMENTED, "property_id": property_id,
                                                                             **fields}})


def test_the_documented_body_creates_a_policy_read_back_by_its_id(user):
    property_id = _property(user)

    created = _policy(user, property_id)

    assert created.status_code == 201, created.text
    data = created.json()["data"]
    assert data["type"] == "hotel_policy" and data["id"] == data["attributes"]["id"]
    assert {k: data["attributes"][k] for k in DOCUMENTED} == DOCUMENTED
    assert data["attributes"]["property_id"] == property_id
    assert data["relationships"] == {"property": {"data": {"id": property_id, "type": "property"}}}
    assert user.client.get(f"/api/v1/hotel_policies/{data['id']}").json() == created.json()
    under_property = user.client.get(f"/api/v1/properties/{property_id}/hotel_policy").json()["data"]
    assert under_property["id"] == data["id"] and under_property["attributes"]["checkin_from_time"] == "14:00"
    listed = user.client.get("/api/v1/hotel_policies", params={"filter[property_id]": property_id}).json()
    assert [p["id"] for p in listed["data"]] == [data["id"]] and listed["meta"]["total"] == 1


def test_update_and_delete(user):
    property_id = _property(user)
    policy = _policy(user, property_id).json()["data"]
    url = f"/api/v1/hotel_policies/{policy['id']}"

    updated = user.client.put(url, json={"hotel_policy": {"checkin_time": "15:00", "pets_policy": "by_arrangements"}})
    round_trip = user.client.put(url, json={"hotel_policy": updated.json()["data"]["attributes"]})
    moved = user.client.put(url, json={"hotel_policy": {"property_id": _property(user)}})

    assert updated.status_code == 200, updated.text
    attributes = updated.json()["data"]["attributes"]
    assert (attributes["checkin_time"], attributes["checkin_from_time"], attributes["pets_policy"]) == (
        "15:00", "15:00", "by_arrangements")
    assert attributes["max_count_of_guests"] == 20  # what was not sent stays
    assert round_trip.status_code == 200, round_trip.text
    assert moved.status_code == 422 and list(moved.json()["errors"]["details"]) == ["property_id"]
    deleted = user.client.delete(url)
    assert deleted.status_code == 200 and deleted.json() == {"meta": {"message": "Success"}}
    assert user.client.get(url).status_code == 404
    assert user.client.get(f"/api/v1/properties/{property_id}/hotel_policy").json()["data"] is None


def test_one_policy_per_property(user, live_engine):
    property_id = _property(user)
    first = _policy(user, property_id).json()["data"]["id"]

    second = _policy(user, property_id)
    both = _policy(user, _property(user), checkin_time="14:00", checkin_from_time="15:00")

    assert second.status_code == 422
    assert second.json()["errors"]["details"] == {"property_id": [
        f"already has a hotel policy ({first}): change it with PUT /api/v1/hotel_policies/{first}"]}
    assert both.status_code == 422 and list(both.json()["errors"]["details"]) == ["checkin_time"]
    assert live_engine.store.scalar("SELECT count(*) FROM hotel_policies WHERE property_id = ?", (property_id,)) == 1


def test_someone_elses_policy_is_401_and_never_listed(make_user, anonymous):
    owner, stranger = make_user(), make_user()
    property_id = _property(owner)
    policy_id = _policy(owner, property_id).json()["data"]["id"]
    url = f"/api/v1/hotel_policies/{policy_id}"

    for response in (stranger.client.get(url), stranger.client.put(url, json={"hotel_policy": {"title": "Mine"}}),
                     stranger.client.delete(url), anonymous.get("/api/v1/hotel_policies"), anonymous.get(url)):
        assert response.status_code == 401
    assert stranger.client.get("/api/v1/hotel_policies").json()["data"] == []
    taken = _policy(stranger, property_id)
    assert taken.status_code == 422 and list(taken.json()["errors"]["details"]) == ["property_id"]


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_an_unknown_policy_is_404(user, method):
    response = user.client.request(method.upper(), f"/api/v1/hotel_policies/{UNKNOWN}",
                                   json={"hotel_policy": {"title": "X"}} if method == "put" else None)

    assert response.status_code == 404
    assert response.json()["errors"]["details"] == f"hotel policy {UNKNOWN} does not exist"


def test_bad_fields_are_422_and_a_huge_body_413(user, live_engine):
    property_id = _property(user)

    bad = _policy(user, property_id, checkin_time="25:00", max_count_of_guests="many", pets_policy="sometimes")
    huge = _policy(user, property_id, title="x" * (2 * 1024 * 1024))

    assert bad.status_code == 422
    assert set(bad.json()["errors"]["details"]) == {"checkin_time", "max_count_of_guests", "pets_policy"}  # as sent
    assert huge.status_code == 413
    assert live_engine.store.scalar("SELECT count(*) FROM hotel_policies WHERE property_id = ?", (property_id,)) == 0


def test_a_policy_made_on_its_own_is_named_by_a_property(user, live_engine):
    made = user.client.post("/api/v1/hotel_policies", json={"hotel_policy": DOCUMENTED})
    assert made.status_code == 201, made.text
    policy = made.json()["data"]
    assert policy["attributes"]["property_id"] is None and policy["relationships"] == {"property": {"data": None}}
    assert {k: policy["attributes"][k] for k in DOCUMENTED} == DOCUMENTED
    assert policy["id"] in [p["id"] for p in user.client.get("/api/v1/hotel_policies").json()["data"]]
    changed = user.client.put(f"/api/v1/hotel_policies/{policy['id']}", json={"hotel_policy": {"title": "Renamed"}})
    assert changed.json()["data"]["attributes"]["title"] == "Renamed"

    property_id = user.client.post("/api/v1/properties", json=property_body(hotel_policy_id=policy["id"])).json()[
        "data"]["id"]
    prop = user.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]
    assert prop["hotel_policy_id"] == policy["id"]
    by_route = user.client.get(f"/api/v1/properties/{property_id}/hotel_policy").json()["data"]
    assert (by_route["id"], by_route["attributes"]["title"]) == (policy["id"], "Renamed")  # today's route reads it

    other = user.client.post("/api/v1/hotel_policies", json={"hotel_policy": {**DOCUMENTED, "title": "Other"}})
    other_id = other.json()["data"]["id"]
    relinked = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"hotel_policy_id": other_id}})
    assert relinked.json()["data"]["attributes"]["hotel_policy_id"] == other_id
    assert user.client.get(f"/api/v1/hotel_policies/{policy['id']}").json()["data"]["attributes"]["property_id"] is None
    unlinked = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"hotel_policy_id": None}})
    assert unlinked.json()["data"]["attributes"]["hotel_policy_id"] is None
    assert user.client.get(f"/api/v1/properties/{property_id}/hotel_policy").json()["data"] is None


def test_a_property_names_only_a_free_policy_of_its_group(user, make_user, live_engine):
    first, second = _property(user), _property(user)
    taken = _policy(user, first).json()["data"]["id"]
    stranger = make_user()
    theirs = stranger.client.post("/api/v1/hotel_policies", json={"hotel_policy": DOCUMENTED}).json()["data"]["id"]
    for policy_id, message in ((taken, "is the policy of another property: a policy is one property's"),
                               (theirs, "is not a hotel policy of yours"), (UNKNOWN, "is not a hotel policy of yours"),
                               (7, "must be a string")):
        answer = user.client.put(f"/api/v1/properties/{second}", json={"property": {"hotel_policy_id": policy_id}})
        assert answer.status_code == 422 and answer.json()["errors"]["details"]["hotel_policy_id"][0].startswith(
            message[:20]), answer.text
    assert user.client.get(f"/api/v1/properties/{second}").json()["data"]["attributes"]["hotel_policy_id"] is None
    assert user.client.get(f"/api/v1/properties/{first}").json()["data"]["attributes"]["hotel_policy_id"] == taken
    no_currency = user.client.post("/api/v1/hotel_policies", json={"hotel_policy": {
        k: v for k, v in DOCUMENTED.items() if k != "currency"}})
    assert no_currency.status_code == 422 and "currency" in no_currency.json()["errors"]["details"]


def test_a_property_user_reaches_its_propertys_policy_and_no_other(user, make_user):
    given, kept = _property(user), _property(user)
    given_policy = _policy(user, given).json()["data"]["id"]
    kept_policy = _policy(user, kept).json()["data"]["id"]
    colleague = make_user()
    invite(user.client, "property", given, colleague.actor.email)

    listed = colleague.client.get("/api/v1/hotel_policies").json()["data"]

    assert [p["id"] for p in listed] == [given_policy]
    assert colleague.client.get(f"/api/v1/hotel_policies/{given_policy}").status_code == 200
    assert colleague.client.get(f"/api/v1/hotel_policies/{kept_policy}").status_code == 401
    changed = colleague.client.put(f"/api/v1/hotel_policies/{given_policy}", json={"hotel_policy": {
        "max_count_of_guests": 4}})
    assert changed.status_code == 200 and changed.json()["data"]["attributes"]["max_count_of_guests"] == 4


def test_a_property_moved_to_another_group_takes_its_policy_along(user, make_user):
    property_id = _property(user)
    policy_id = _policy(user, property_id).json()["data"]["id"]
    second = user.client.post("/api/v1/groups", json={"group": {"title": "Second"}}).json()["data"]["id"]
    colleague = make_user()
    invite(user.client, "group", second, colleague.actor.email)

    moved = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"group_id": second}})
    assert moved.status_code == 200, moved.text

    assert [p["id"] for p in colleague.client.get("/api/v1/hotel_policies").json()["data"]] == [policy_id]
    free = user.client.post("/api/v1/hotel_policies", json={"hotel_policy": DOCUMENTED}).json()["data"]["id"]
    relinked = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"hotel_policy_id": free}})
    assert relinked.status_code == 422  # a policy of its old group is no longer one it may name
    back = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"hotel_policy_id": policy_id}})
    assert back.status_code == 200, back.text  # its own policy moved with it
