"""Assigning a thread over real HTTP: to a user of the property's group (a 422 naming assignee_id for anyone
else), unassigning, the users it may go to, and the thread list's "mine" and "unassigned" filters."""

from __future__ import annotations

import pytest

from tests.chat.test_chat_api import Desk
from tests.shopping.shop import check


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    made.guest_says("Do you have a cot?")
    yield made
    made.adapter.close()


@pytest.fixture
def colleague(desk, make_user, live_engine):
    """A second member of the desk's group."""
    made = make_user()
    with live_engine.store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                     (desk.shop.user.actor.default_group_id, made.actor.user_id))
    return made


def assign(desk: Desk, client, assignee):
    return client.put(f"/api/v1/message_threads/{desk.thread_id()}", json={"message_thread": {"assignee_id": assignee}})


def listed(client, **filters) -> list[str]:
    return [t["id"] for t in check(client.get("/api/v1/message_threads",
                                              params={f"filter[{k}]": v for k, v in filters.items()}))["data"]]


def test_assign_to_a_colleague_and_back(desk, colleague):
    thread_id = desk.thread_id()
    people = check(desk.client.get(f"/api/v1/message_threads/{thread_id}/assignees"))["data"]
    assert {p["attributes"]["email"] for p in people} == {desk.shop.user.actor.email, colleague.actor.email}
    assert all(p["type"] == "user" for p in people)

    assigned = check(assign(desk, desk.client, colleague.actor.user_id))["data"]
    assert assigned["attributes"]["assignee_id"] == colleague.actor.user_id
    assert assigned["attributes"]["assignee_email"] == colleague.actor.email
    assert assigned["relationships"]["assignee"]["data"] == {"id": colleague.actor.user_id, "type": "user"}
    assert listed(colleague.client, assignee_id="me") == [thread_id]
    assert listed(desk.client, assignee_id="me") == []
    assert listed(desk.client, assignee_id=colleague.actor.user_id) == [thread_id]
    assert listed(desk.client, is_assigned="false", property_id=desk.shop.property_id) == []

    # A thread read and PUT back whole changes only its assignee.
    read = check(desk.client.get(f"/api/v1/message_threads/{thread_id}"))["data"]["attributes"]
    mine = check(desk.client.put(f"/api/v1/message_threads/{thread_id}", json={"message_thread": {
        **read, "assignee_id": desk.shop.user.actor.user_id, "title": "ignored"}}))["data"]["attributes"]
    assert mine["assignee_email"] == desk.shop.user.actor.email and mine["title"] == "Jane Doe"
    assert listed(desk.client, assignee_id="me") == [thread_id]

    unassigned = check(assign(desk, desk.client, None))["data"]
    assert unassigned["attributes"]["assignee_id"] is None and unassigned["relationships"]["assignee"]["data"] is None
    assert listed(desk.client, is_assigned="false", property_id=desk.shop.property_id) == [thread_id]
    assert listed(desk.client, assignee_id="me") == []


def test_someone_outside_the_group_is_a_422_naming_assignee_id(desk, make_user, live_engine):
    outsider = make_user()
    for assignee in (outsider.actor.user_id, "no-such-user", 7):
        details = check(assign(desk, desk.client, assignee), 422)["errors"]["details"]
        assert "assignee_id" in details
    assert "colour" in check(desk.client.put(f"/api/v1/message_threads/{desk.thread_id()}", json={
        "message_thread": {"colour": "red"}}), 422)["errors"]["details"]
    assert live_engine.store.scalar("SELECT assignee_id FROM message_threads WHERE id = ?", (desk.thread_id(),)) is None


def test_others_threads_and_unknown_ones(desk, make_user):
    stranger = make_user()
    assert check(assign(desk, stranger.client, stranger.actor.user_id), 401)["errors"]["code"] == "unauthorized"
    assert stranger.client.get(f"/api/v1/message_threads/{desk.thread_id()}/assignees").status_code == 401
    assert desk.client.put("/api/v1/message_threads/nope", json={"message_thread": {"assignee_id": None}}
                           ).status_code == 404
    assert check(desk.client.put(f"/api/v1/message_threads/{desk.thread_id()}", json={"assignee_id": None}),
                 400)["errors"]["code"] == "bad_request"
    assert check(desk.client.get("/api/v1/message_threads", params={"filter[is_assigned]": "maybe"}),
                 422)["errors"]["details"] == {"filter[is_assigned]": ["must be true or false"]}
