"""A property user sees that property's bookings, conversations, reviews, photos, taxes and availability rules and
nothing else of the owner's, is among the thread's assignees, and loses all of it at their next request once
withdrawn (the threads assigned to them become nobody's)."""

from __future__ import annotations

import pytest

from tests.chat.test_chat_api import Desk
from tests.identity.users import invite
from tests.reviews.test_reviews_api import Stays
from tests.shopping.shop import check, day


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
    assert user.client.get(f"/api/v1/message_threads/{thread}").json()["data"]["attributes"]["assignee_id"] is None
    refused = user.client.put(f"/api/v1/message_threads/{thread}", json={"message_thread": {
        "assignee_id": colleague.actor.user_id}})
    assert refused.status_code == 422 and list(refused.json()["errors"]["details"]) == ["assignee_id"]


@pytest.fixture
def stays(user, live):
    """Two properties of one owner on Booking.com, each with a guest's review."""
    made = [Stays(user, live), Stays(user, live)]
    for place in made:
        place.send()
    yield made
    for place in made:
        place.close()


def _kept_of(client, prop: str) -> dict[str, str]:
    """A photo, a tax, a tax set and an availability rule of the property, by the owner's client: path → id."""
    photo = check(client.post("/api/v1/photos", json={"photo": {
        "property_id": prop, "url": "https://img.example.com/front.jpg"}}), 201)["data"]["id"]
    tax = check(client.post("/api/v1/taxes", json={"tax": {
        "property_id": prop, "title": "VAT", "logic": "percent", "type": "tax", "rate": "20.00",
        "is_inclusive": True}}), 201)["data"]["id"]
    tax_set = check(client.post("/api/v1/tax_sets", json={"tax_set": {
        "property_id": prop, "title": "Standard", "currency": "GBP", "taxes": [{"id": tax, "level": 0}]}}),
        201)["data"]["id"]
    return {"photos": photo, "taxes": tax, "tax_sets": tax_set}


def test_a_property_user_reaches_its_reviews_photos_taxes_and_rules_and_nothing_of_the_other(stays, user, make_user):
    given, kept = stays
    colleague = make_user()
    invite(user.client, "property", given.shop.property_id, colleague.actor.email)
    mine, theirs = (_kept_of(user.client, place.shop.property_id) for place in stays)
    rule = {"title": "Christmas", "type": "close_out", "start_date": day(20), "end_date": day(22)}
    rules = [check(user.client.post("/api/v1/channel_availability_rules", json={"channel_availability_rule": {
        **rule, "property_id": place.shop.property_id, "affected_channels": [place.shop.channel_id],
        "affected_room_types": [place.shop.room_id]}}), 201)["data"]["id"] for place in stays]
    mine["channel_availability_rules"], theirs["channel_availability_rules"] = rules

    review = _ids(colleague.client, "/api/v1/reviews")
    assert len(review) == 1 and colleague.client.get(f"/api/v1/reviews/{review[0]}").status_code == 200
    assert colleague.client.get(f"/api/v1/scores/{given.shop.property_id}").status_code == 200
    assert colleague.client.get(f"/api/v1/scores/{kept.shop.property_id}").status_code == 401
    for collection, item in mine.items():
        assert _ids(colleague.client, f"/api/v1/{collection}") == [item], collection
        assert colleague.client.get(f"/api/v1/{collection}/{item}").status_code == 200, collection
        assert colleague.client.get(f"/api/v1/{collection}/{theirs[collection]}").status_code == 401, collection


def test_a_property_leaving_the_group_of_its_assignee_leaves_the_thread_nobodys(desks, user, make_user):
    given, kept = desks
    second = check(user.client.post("/api/v1/groups", json={"group": {"title": "Front desk"}}), 201)["data"]["id"]
    colleague = make_user()
    invite(user.client, "group", second, colleague.actor.email)
    for desk in desks:
        check(user.client.post(f"/api/v1/groups/{second}/properties/{desk.shop.property_id}"))
        check(user.client.put(f"/api/v1/message_threads/{desk.thread_id()}", json={"message_thread": {
            "assignee_id": colleague.actor.user_id}}))

    check(user.client.delete(f"/api/v1/groups/{second}/properties/{given.shop.property_id}"))

    def assignee(desk) -> str | None:
        return user.client.get(f"/api/v1/message_threads/{desk.thread_id()}").json()["data"]["attributes"][
            "assignee_id"]
    assert assignee(given) is None
    assert assignee(kept) == colleague.actor.user_id  # still in the colleague's group


def test_a_property_user_neither_sees_nor_changes_a_channel_that_maps_its_property(desks, user, make_user):
    """Channels stay group objects: a channel belongs to its group, and may map several of the group's properties
    and rate plans, so a property's user reaches none of it (listed empty, read, changed or deleted: 401), even the
    channel that maps their own property; they see what the channel brings to their property (its bookings)."""
    given, _ = desks
    colleague = make_user()
    invite(user.client, "property", given.shop.property_id, colleague.actor.email)
    channel = f"/api/v1/channels/{given.shop.channel_id}"
    assert _ids(colleague.client, "/api/v1/channels") == []
    assert colleague.client.get(channel).status_code == 401
    assert colleague.client.put(channel, json={"channel": {"title": "Mine now"}}).status_code == 401
    assert colleague.client.delete(channel).status_code == 401
    assert check(user.client.get(channel))["data"]["attributes"]["title"] != "Mine now"
    assert _ids(colleague.client, "/api/v1/bookings") == [given.booking_id]
