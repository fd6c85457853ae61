"""A property user sees that property's bookings and conversations and nothing else of the owner's, is among the
thread's assignees, and loses all of it at their next request once withdrawn."""

from __future__ import annotations

import pytest

from tests.chat.test_chat_api import Desk
from tests.identity.users import invite


@pytest.fixture
def desks(user, live):
    """Two properties of one owner, each with a booking and a guest's thread."""
    made = [Desk(user, live), Desk(user, live)]
    for desk in made:
        desk.guest_says("Is breakfast included?")
    yield made
    for desk in made:
        desk.adapter.close()


def _ids(client, path: str) -> list[str]:
    response = client.get(path)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["data"]]


def test_a_property_user_sees_its_bookings_and_threads_only_and_loses_them_at_once(desks, user, make_user):
    given, kept = desks
    colleague = make_user()
    thread, other_thread = given.thread_id(), kept.thread_id()

    member_id = invite(user.client, "property", given.shop.property_id, colleague.actor.email).json()["data"]["id"]

    assert _ids(colleague.client, "/api/v1/properties") == [given.shop.property_id]
    assert _ids(colleague.client, "/api/v1/bookings") == [given.booking_id]
    assert _ids(colleague.client, "/api/v1/message_threads") == [thread]
    assert colleague.client.get(f"/api/v1/bookings/{given.booking_id}").status_code == 200
    assert colleague.client.get(f"/api/v1/message_threads/{thread}/messages").status_code == 200
    for path in (f"/api/v1/bookings/{kept.booking_id}", f"/api/v1/message_threads/{other_thread}",
                 f"/api/v1/properties/{kept.shop.property_id}"):
        assert colleague.client.get(path).status_code == 401, path
    people = colleague.client.get(f"/api/v1/message_threads/{thread}/assignees").json()["data"]
    assert colleague.actor.email in {p["attributes"]["email"] for p in people}
    assigned = user.client.put(f"/api/v1/message_threads/{thread}", json={"message_thread": {
        "assignee_id": colleague.actor.user_id}})
    assert assigned.status_code == 200, assigned.text

    assert user.client.delete(f"/api/v1/property_users/{member_id}").status_code == 200

    assert _ids(colleague.client, "/api/v1/bookings") == []
    assert _ids(colleague.client, "/api/v1/message_threads") == []
    for path in (f"/api/v1/bookings/{given.booking_id}", f"/api/v1/message_threads/{thread}",
                 f"/api/v1/properties/{given.shop.property_id}"):
        assert colleague.client.get(path).status_code == 401, path
    people = user.client.get(f"/api/v1/message_threads/{thread}/assignees").json()["data"]
    assert colleague.actor.email not in {p["attributes"]["email"] for p in people}
    refused = user.client.put(f"/api/v1/message_threads/{thread}", json={"message_thread": {
        "assignee_id": colleague.actor.user_id}})
    assert refused.status_code == 422 and list(refused.json()["errors"]["details"]) == ["assignee_id"]
