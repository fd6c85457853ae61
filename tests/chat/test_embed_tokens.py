"""The web chat's tokens over real HTTP: a one-time token becomes a session that reaches one
property's chat and nothing else."""

from __future__ import annotations

import httpx
import pytest

from tests.chat.test_chat_api import Desk
from tests.conftest import HOST_PAGES, property_body
from tests.shopping.shop import check


def one_time(client: httpx.Client, property_id: str) -> httpx.Response:
    return client.post("/api/v1/auth/one_time_token", json={"one_time_token": {"property_id": property_id}})


def exchange(client: httpx.Client, token: str) -> httpx.Response:
    return client.post("/api/v1/auth/chat_session", json={"chat_session": {"one_time_token": token}})


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    made.guest_says("Is breakfast included?")
    yield made
    made.adapter.close()


def session_client(desk: Desk, anonymous: httpx.Client) -> httpx.Client:
    issued = check(one_time(desk.client, desk.shop.property_id), 201)["data"]
    session = check(exchange(anonymous, issued["attributes"]["token"]), 201)["data"]["attributes"]
    return httpx.Client(base_url=str(anonymous.base_url), timeout=10,
                        headers={"Authorization": f"Bearer {session['token']}"})


def test_a_one_time_token_opens_a_session_for_one_property(desk, anonymous, live):
    issued = check(one_time(desk.client, desk.shop.property_id), 201)["data"]
    attributes = issued["attributes"]
    assert issued["type"] == "one_time_token" and attributes["token"].startswith("fdo_")
    assert attributes["embed_url"] == f"{live[1].url}/chat?token={attributes['token']}"
    session = check(exchange(anonymous, attributes["token"]), 201)["data"]
    assert session["type"] == "chat_session"
    assert session["attributes"]["property_id"] == desk.shop.property_id
    assert session["attributes"]["token"].startswith("fdc_")
    # Once only: the same one-time token again is refused.
    assert exchange(anonymous, attributes["token"]).status_code == 401
    stored = live[0].store.query("SELECT token_hash FROM chat_tokens")
    assert all(attributes["token"] not in row[0] and session["attributes"]["token"] not in row[0] for row in stored)


def test_the_session_reaches_its_property_chat_and_nothing_else(desk, anonymous, user):
    other = check(user.client.post("/api/v1/properties", json=property_body(title="Annex")), 201)
    check(user.client.post("/api/v1/applications/install", json={"application_installation": {
        "property_id": other["data"]["id"], "application_code": "chat"}}), 201)
    with session_client(desk, anonymous) as chat:
        threads = check(chat.get("/api/v1/message_threads"))["data"]
        assert [t["relationships"]["property"]["data"]["id"] for t in threads] == [desk.shop.property_id]
        thread_id = threads[0]["id"]
        sent = check(chat.post(f"/api/v1/message_threads/{thread_id}/messages",
                               json={"message": {"message": "Yes, from 7 to 10."}}))["data"]
        assert sent["attributes"]["sender"] == "property"
        assert check(chat.post(f"/api/v1/message_threads/{thread_id}/read"))["data"]["attributes"]["unread_count"] == 0
        # The rest of the API, and the other property's chat, stay shut.
        assert chat.get("/api/v1/properties").status_code == 401
        assert chat.get(f"/api/v1/bookings/{desk.booking_id}").status_code == 401
        assert chat.get("/api/v1/message_threads", params={
            "filter[property_id]": other["data"]["id"]}).status_code == 401
        assert one_time(chat, desk.shop.property_id).status_code == 401


def test_a_session_ends_with_the_api_token_that_opened_it(desk, anonymous, live):
    with session_client(desk, anonymous) as chat:
        check(chat.get("/api/v1/message_threads"))
        live[0].identity.revoke_token(desk.client.headers["Authorization"].split()[1])
        refused = chat.get("/api/v1/message_threads")
        assert refused.status_code == 401
        assert refused.json()["errors"]["code"] == "unauthorized"


def test_expired_tokens_are_refused(desk, anonymous, live):
    token = check(one_time(desk.client, desk.shop.property_id), 201)["data"]["attributes"]["token"]
    with live[0].store.transaction() as conn:
        conn.execute("UPDATE chat_tokens SET expires_at = '2000-01-01T00:00:00.000000'")
    assert exchange(anonymous, token).status_code == 401


@pytest.mark.parametrize("body, status", [
    ({"one_time_token": {}}, 422),
    ({"one_time_token": {"property_id": 5}}, 422),
    ({"something": {}}, 400),
])
def test_bad_one_time_token_requests(desk, live, body, status):
    before = live[0].store.scalar("SELECT count(*) FROM chat_tokens")
    response = desk.client.post("/api/v1/auth/one_time_token", json=body)
    assert response.status_code == status and "errors" in response.json()
    assert live[0].store.scalar("SELECT count(*) FROM chat_tokens") == before


def test_one_time_tokens_follow_the_chat_rules(user, make_user, anonymous, live):
    desk = Desk(user, live, chat=False)
    refused = one_time(desk.client, desk.shop.property_id)
    assert refused.status_code == 403  # no chat app
    stranger = make_user()
    assert one_time(stranger.client, desk.shop.property_id).status_code == 401
    assert one_time(anonymous, desk.shop.property_id).status_code == 401
    assert exchange(anonymous, "fdo_not-a-token").status_code == 401
    assert live[0].store.scalar("SELECT count(*) FROM chat_tokens WHERE property_id = ?", (desk.shop.property_id,)) == 0
    desk.adapter.close()


def test_the_page_is_served_for_iframes_without_leaking_its_token(anonymous):
    page = anonymous.get("/chat", params={"token": "fdo_x"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert f"frame-ancestors {HOST_PAGES}" in policy and "script-src 'self'" in policy  # the operator's sites only
    assert page.headers["referrer-policy"] == "no-referrer"
    assert anonymous.get("/chat/chat.js").headers["content-type"].startswith("text/javascript")
    assert anonymous.get("/chat/chat.css").status_code == 200
    assert anonymous.get("/chat/secrets.txt").json()["errors"]["code"] == "not_found"


def test_embed_url_is_the_public_address_of_the_listener_whatever_the_host_header(desk, live, secure):
    # A forged Host must not put someone else's site in the iframe address the integrator hands on.
    forged = {"Host": "attacker.example"}
    on_main = check(desk.client.post("/api/v1/auth/one_time_token", headers=forged,
                                     json={"one_time_token": {"property_id": desk.shop.property_id}}), 201)
    with httpx.Client(base_url=secure.url, headers={**desk.client.headers, **forged}, timeout=10) as on_secure:
        from_secure = check(one_time(on_secure, desk.shop.property_id), 201)
    for issued, public in ((on_main, live[0].config.base_url), (from_secure, live[0].config.secure_url)):
        attributes = issued["data"]["attributes"]
        assert attributes["embed_url"] == f"{public}/chat?token={attributes['token']}"
