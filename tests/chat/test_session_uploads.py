"""A web chat session reaches its own uploads and nobody else's; a one-time token ends with the API token
that issued it, even before it is spent."""

from __future__ import annotations

from tests.chat.test_chat_api import Desk, upload
from tests.chat.test_embed_tokens import exchange, one_time, session_client
from tests.shopping.shop import check


def test_a_session_can_neither_read_nor_send_the_api_users_unsent_uploads(user, live, anonymous):
    desk = Desk(user, live)
    desk.guest_says("Hello")
    mine = check(upload(desk.client))["data"]["id"]  # the integrator's own, waiting for a message of theirs
    with session_client(desk, anonymous) as chat:
        thread_id = check(chat.get("/api/v1/message_threads"))["data"][0]["id"]
        assert chat.get(f"/api/v1/attachments/{mine}").status_code == 401
        stolen = chat.post(f"/api/v1/message_threads/{thread_id}/messages", json={"message": {"attachment_id": mine}})
        assert stolen.status_code == 422 and "attachment_id" in stolen.json()["errors"]["details"]
        # Its own upload it may read and send; the API user can't take that one either.
        its_own = check(upload(chat))["data"]["id"]
        assert chat.get(f"/api/v1/attachments/{its_own}").status_code == 200
        assert desk.client.get(f"/api/v1/attachments/{its_own}").status_code == 401
        check(chat.post(f"/api/v1/message_threads/{thread_id}/messages", json={"message": {"attachment_id": its_own}}))
    assert live[0].store.scalar("SELECT message_id FROM attachments WHERE id = ?", (mine,)) is None
    desk.adapter.close()


def test_an_unspent_one_time_token_dies_with_its_api_token(user, live, anonymous):
    desk = Desk(user, live)
    token = check(one_time(desk.client, desk.shop.property_id), 201)["data"]["attributes"]["token"]
    live[0].identity.revoke_token(desk.client.headers["Authorization"].split()[1])
    refused = exchange(anonymous, token)
    assert refused.status_code == 401 and refused.json()["errors"]["code"] == "unauthorized"
    desk.adapter.close()
