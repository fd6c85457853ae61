"""Internal notes on a thread and marking a thread unread, over real HTTP. A note is staff's alone: it never
shows in the thread's messages, its message_count or last_message, the channel's outbox, or an outbox event
(what every webhook is sent from)."""

from __future__ import annotations

import pytest

from tests.chat.test_chat_api import Desk
from tests.shopping.shop import check


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    made.guest_says("We arrive at 23:00, is that fine?")
    yield made
    made.adapter.close()


def notes_url(desk: Desk) -> str:
    return f"/api/v1/message_threads/{desk.thread_id()}/notes"


def test_a_note_is_kept_apart_from_the_conversation(desk, live_engine):
    client, thread_id = desk.client, desk.thread_id()
    before = check(client.get(f"/api/v1/message_threads/{thread_id}"))["data"]["attributes"]
    made = check(client.post(notes_url(desk), json={"note": {"message": "Night porter knows. Card 4111-1111-1111-1111"}}),
                 201)["data"]
    assert made["type"] == "note"
    assert made["attributes"]["message"] == "Night porter knows. Card 411111******1111"
    assert made["attributes"]["author_email"] == desk.shop.user.actor.email
    assert made["relationships"]["user"]["data"]["id"] == desk.shop.user.actor.user_id
    assert made["relationships"]["message_thread"]["data"]["id"] == thread_id
    listed = check(client.get(notes_url(desk)))
    assert [n["id"] for n in listed["data"]] == [made["id"]]
    assert listed["meta"] == {"page": 1, "limit": 10, "total": 1, "order_by": "inserted_at", "order_direction": "desc"}

    # Not a message: the thread, its messages, the channel's outbox and the events out know nothing of it.
    after = check(client.get(f"/api/v1/message_threads/{thread_id}"))["data"]["attributes"]
    assert after["message_count"] == before["message_count"] == 1
    assert after["last_message"] == before["last_message"]
    assert after["last_message_received_at"] == before["last_message_received_at"]
    messages = check(client.get(f"/api/v1/message_threads/{thread_id}/messages"))["data"]
    assert [m["attributes"]["message"] for m in messages] == ["We arrive at 23:00, is that fine?"]
    assert check(desk.adapter.get(f"{desk.inbound}/outbox"))["data"] == []
    events = [row["payload"] for row in live_engine.store.query(
        "SELECT payload FROM events WHERE property_id = ?", (desk.shop.property_id,))]
    assert events and not any("Night porter" in payload or made["id"] in payload for payload in events)
    stored = live_engine.store.scalar("SELECT note FROM thread_notes WHERE id = ?", (made["id"],))
    assert "4111-1111-1111-1111" not in stored and stored.endswith("411111******1111")


def test_only_its_author_deletes_a_note(desk, make_user, live_engine):
    made = check(desk.client.post(notes_url(desk), json={"note": {"message": "VIP"}}), 201)["data"]
    colleague = make_user()
    with live_engine.store.transaction() as conn:  # a second member of the property's group
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                     (desk.shop.user.actor.default_group_id, colleague.actor.user_id))
    url = f"{notes_url(desk)}/{made['id']}"
    assert [n["id"] for n in check(colleague.client.get(notes_url(desk)))["data"]] == [made["id"]]
    assert check(colleague.client.delete(url), 403)["errors"]["code"] == "forbidden"
    assert check(desk.client.delete(url)) == {"meta": {"message": "Success"}}
    assert check(desk.client.get(notes_url(desk)))["data"] == []
    assert check(desk.client.delete(url), 404)["errors"]["code"] == "not_found"


def test_bad_notes_are_refused_and_store_nothing(desk, make_user, live_engine):
    url = notes_url(desk)
    assert "message" in check(desk.client.post(url, json={"note": {"message": "  "}}), 422)["errors"]["details"]
    assert "message" in check(desk.client.post(url, json={"note": {}}), 422)["errors"]["details"]
    assert "message" in check(desk.client.post(url, json={"note": {"message": "x" * 10_001}}), 422)["errors"]["details"]
    assert "pinned" in check(desk.client.post(url, json={"note": {"message": "x", "pinned": True}}), 422)["errors"][
        "details"]
    assert check(desk.client.post(url, json={"message": {"message": "x"}}), 400)["errors"]["code"] == "bad_request"
    assert check(desk.client.post(url, json={"note": {"message": "x" * 70_000}}), 413)["errors"]["code"] == \
        "payload_too_large"
    stranger = make_user()
    assert check(stranger.client.get(url), 401)["errors"]["code"] == "unauthorized"
    assert check(stranger.client.post(url, json={"note": {"message": "hi"}}), 401)["errors"]["code"] == "unauthorized"
    assert desk.client.get("/api/v1/message_threads/nope/notes").status_code == 404
    assert desk.client.post("/api/v1/message_threads/nope/notes", json={"note": {"message": "x"}}).status_code == 404
    assert live_engine.store.scalar("SELECT count(*) FROM thread_notes WHERE thread_id = ?", (desk.thread_id(),)) == 0


def test_mark_unread_restores_the_badge_and_the_counts(desk):
    client, thread_id = desk.client, desk.thread_id()
    desk.guest_says("And is breakfast included?")
    unread = {"filter[property_id]": desk.shop.property_id, "filter[unread]": "true"}
    assert check(client.get("/api/v1/message_threads", params=unread))["meta"]["total"] == 1
    check(client.post(f"/api/v1/message_threads/{thread_id}/read"))
    assert check(client.get("/api/v1/message_threads", params=unread))["meta"]["total"] == 0
    again = check(client.post(f"/api/v1/message_threads/{thread_id}/unread"))["data"]
    assert again["attributes"]["unread_count"] == 2  # the two guest messages since the last reply
    assert check(client.get("/api/v1/message_threads", params=unread))["data"][0]["id"] == thread_id
    # Answered, read, then marked unread: one to look at again.
    check(client.post(f"/api/v1/message_threads/{thread_id}/messages", json={"message": {"message": "Yes, it is."}}))
    check(client.post(f"/api/v1/message_threads/{thread_id}/read"))
    assert check(client.post(f"/api/v1/message_threads/{thread_id}/unread"))["data"]["attributes"]["unread_count"] == 1


def test_mark_unread_errors(desk, make_user):
    stranger = make_user()
    assert check(stranger.client.post(f"/api/v1/message_threads/{desk.thread_id()}/unread"), 401)
    assert check(desk.client.post("/api/v1/message_threads/nope/unread"), 404)["errors"]["code"] == "not_found"
