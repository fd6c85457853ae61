"""Who wrote a reply is recorded by the engine (messages.user_id, and messages.api_token_id when it came through the
API), shown to integrators as the message's `user` relationship (reference §5: on property messages only), and
named for staff by backend/chat/authors.py: "You" for the reader's own, a colleague by address, an integration as
one, a reply from before writers were recorded as "Staff"."""

from __future__ import annotations

import pytest

from backend.chat.authors import reply_author, reply_short, short_name, staff_name
from tests.chat.test_chat_api import Desk
from tests.shopping.shop import check


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    made.guest_says("Can we check in early?")
    yield made
    made.adapter.close()


def test_a_reply_through_the_api_records_its_user_and_token(desk, live_engine):
    thread_id = desk.thread_id()
    sent = check(desk.client.post(f"/api/v1/message_threads/{thread_id}/messages",
                                  json={"message": {"message": "Yes, from noon."}}))["data"]
    me = desk.shop.user.actor.user_id
    assert sent["relationships"]["user"]["data"] == {"id": me, "type": "user"}
    assert set(sent["attributes"]) == {"id", "message", "sender", "attachments", "inserted_at", "updated_at",
                                       "delivery"}
    row = live_engine.store.one("SELECT user_id, api_token_id FROM messages WHERE id = ?", (sent["id"],))
    token = live_engine.store.scalar("SELECT id FROM api_tokens WHERE user_id = ?", (me,))
    assert (row["user_id"], row["api_token_id"]) == (me, token)
    listed = check(desk.client.get(f"/api/v1/message_threads/{thread_id}/messages"))["data"]
    by_sender = {m["attributes"]["sender"]: m for m in listed}
    assert by_sender["property"]["relationships"]["user"]["data"]["id"] == me
    assert "user" not in by_sender["guest"]["relationships"]  # only on the property's messages
    outbox = check(desk.adapter.get(f"{desk.inbound}/outbox"))["data"]
    assert [m["relationships"]["user"]["data"]["id"] for m in outbox] == [me]


def test_a_reply_from_the_console_records_its_user_without_a_token(desk, live_engine):
    thread_id = desk.thread_id()
    operator = live_engine.identity.operator()
    sent = live_engine.chat.reply(operator, thread_id, {"message": "Noted."})
    assert sent["user_id"] == operator.user_id and sent["author_email"] == operator.email and not sent["via_api"]
    row = live_engine.store.one("SELECT user_id, api_token_id FROM messages WHERE id = ?", (sent["id"],))
    assert (row["user_id"], row["api_token_id"]) == (operator.user_id, None)


def test_the_names_staff_read() -> None:
    anna = {"sender": "property", "user_id": "u-anna", "author_email": "anna@example.com", "via_api": False}
    assert reply_author(anna, "u-anna") == "You" and reply_author(anna, "u-ben") == "anna@example.com"
    api = {**anna, "via_api": True}
    assert reply_author(api, "u-ben") == "Integration (API) · anna@example.com" == reply_author(api, "u-anna")
    assert reply_author({**api, "user_id": None, "author_email": None}, "u-ben") == "Integration (API)"
    old = {"sender": "property", "user_id": None, "author_email": None, "via_api": False}
    assert reply_author(old, "u-ben") == "Staff" and reply_short(old, "u-ben") == "Staff"
    assert [reply_short(m, "u-anna") for m in (anna, api)] == ["You", "API"]
    assert reply_short(anna, "u-ben") == "anna"
    assert staff_name("u-anna", "anna@example.com", "u-anna") == "You"
    assert staff_name(None, None, "u-anna") == "A former colleague"
    assert [short_name(u, e, "u-anna") for u, e in (("u-anna", "anna@x"), ("u-ben", "ben@x"), (None, None))] == \
        ["you", "ben", ""]
