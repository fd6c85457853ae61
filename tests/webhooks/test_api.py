"""The service's Webhooks API over real HTTP, in the shapes its reference documents (shared/reference/channex-api.md
§5, docs.channex.io "Webhook Collection"): create is a 201, entities `{"id", "type": "webhook", "attributes",
"relationships": {"property"}}`, lists with `meta`; bad input is a 422 naming the field and changes nothing;
someone else's webhook is a 401."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.conftest import CONTACT, serve_site
from tests.shopping.shop import check
from tests.webhooks.hooks import make_hook

URL = "https://hooks.example.com/frontdesk"
# The reference's create body (its `event_mask` examples: "*", "ari", "booking,message", "ari:rate:*:<plan>").
SERVICE_BODY = {"callback_url": URL, "event_mask": "*", "request_params": {}, "headers": {}, "is_active": True,
                "send_data": True}
# The attributes of a webhook in the reference's list example.
SERVICE_ATTRIBUTES = {"id", "callback_url", "event_mask", "request_params", "headers", "is_active", "send_data"}


def new_property(client) -> str:
    return check(client.post("/api/v1/properties", json={"property": {
        "title": "Hook Hotel", "currency": "EUR", **CONTACT}}), 201)["data"]["id"]


@pytest.fixture
def hotel(user) -> str:
    return new_property(user.client)


def test_create_read_list_update_delete_in_the_services_shapes(user, hotel):
    made = user.client.post("/api/v1/webhooks", json={"webhook": {"property_id": hotel, **SERVICE_BODY}})
    assert made.status_code == 201
    data = made.json()["data"]
    assert data["type"] == "webhook" and data["id"] == data["attributes"]["id"]
    assert SERVICE_ATTRIBUTES <= data["attributes"].keys()
    assert data["relationships"] == {"property": {"data": {"id": hotel, "type": "property"}}}
    assert data["attributes"]["secret"].startswith("whsec_")
    webhook_id = data["id"]

    read = check(user.client.get(f"/api/v1/webhooks/{webhook_id}"))["data"]
    assert "secret" not in read["attributes"]  # shown once, in the create answer
    assert {k: read["attributes"][k] for k in SERVICE_BODY} == SERVICE_BODY
    assert read["attributes"]["state"] == {"waiting": 0, "last_delivered_at": None, "failing_since": None,
                                           "last_error": None, "attempts": 0, "next_attempt_at": None}
    listed = check(user.client.get("/api/v1/webhooks"))
    assert listed["meta"] == {"page": 1, "limit": 10, "total": 1}
    assert [w["id"] for w in listed["data"]] == [webhook_id] and "secret" not in listed["data"][0]["attributes"]

    # PUT is partial, and takes back what was read (its read-only fields are ignored).
    changed = check(user.client.put(f"/api/v1/webhooks/{webhook_id}", json={"webhook": {
        **read["attributes"], "event_mask": "booking,message", "send_data": False}}))["data"]["attributes"]
    assert (changed["event_mask"], changed["send_data"], changed["callback_url"]) == ("booking,message", False, URL)

    assert check(user.client.delete(f"/api/v1/webhooks/{webhook_id}")) == {"meta": {"message": "Success"}}
    assert check(user.client.get(f"/api/v1/webhooks/{webhook_id}"), 404)["errors"]["code"] == "not_found"


def test_filters_and_defaults(user, hotel):
    other = new_property(user.client)
    made = make_hook(user.client, hotel, URL, "ari", is_active=False)
    make_hook(user.client, other, URL)
    assert (made["headers"], made["request_params"], made["send_data"]) == (None, None, True)
    listed = check(user.client.get("/api/v1/webhooks", params={"filter[property_id]": hotel}))
    assert [w["id"] for w in listed["data"]] == [made["id"]]
    paused = check(user.client.get("/api/v1/webhooks", params={"filter[is_active]": "false"}))
    assert [w["id"] for w in paused["data"]] == [made["id"]]


@pytest.mark.parametrize(("fields", "field"), [
    ({"event_mask": "bookings"}, "event_mask"),
    ({"event_mask": "booking,,message"}, "event_mask"),
    ({"event_mask": "ari:price"}, "event_mask"),
    ({"event_mask": "ari:rate:a:b:c"}, "event_mask"),
    ({"event_mask": "ari:rate:*:not-a-plan-of-this-property"}, "event_mask"),
    ({"event_mask": ""}, "event_mask"),
    ({"event_mask": None}, "event_mask"),
    ({"callback_url": "ftp://hooks.example.com/"}, "callback_url"),
    ({"callback_url": "not a url"}, "callback_url"),
    ({"callback_url": "http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/"}, "callback_url"),  # no IDNA name
    ({"headers": {"Host": "elsewhere.example.com"}}, "headers"),
    ({"headers": {"webhook-signature": "v1,forged"}}, "headers"),
    ({"headers": {"Content-Length": "0"}}, "headers"),
    ({"headers": {"Bad Name": "x"}}, "headers"),
    ({"headers": {"X-Split": "one\r\nInjected: two"}}, "headers"),
    ({"headers": {"X-Long": "x" * 1025}}, "headers"),
    ({"headers": {f"X-{i}": "x" for i in range(21)}}, "headers"),
    ({"headers": {"X-Number": 5}}, "headers.X-Number"),
    ({"request_params": {f"p{i}": "x" for i in range(21)}}, "request_params"),
    ({"request_params": {"p": "x" * 1025}}, "request_params"),
    ({"is_active": "yes"}, "is_active"),
    ({"is_global": True}, "is_global"),
    ({"colour": "blue"}, "colour"),
])
def test_bad_input_is_a_422_naming_the_field_and_makes_nothing(user, hotel, fields, field):
    answer = user.client.post("/api/v1/webhooks", json={"webhook": {"property_id": hotel, **SERVICE_BODY, **fields}})
    error = check(answer, 422)["errors"]
    assert error["code"] == "validation_error" and field in error["details"], error
    assert check(user.client.get("/api/v1/webhooks"))["meta"]["total"] == 0


def test_the_services_events_are_accepted_even_those_frontdesk_never_sends(user, hotel):
    mask = "booking_new,booking_modification,booking_cancellation,non_acked_booking,review,reservation_request,ari"
    assert make_hook(user.client, hotel, URL, mask)["event_mask"] == mask
    plan_mask = "ari:rate:*:*, ari:availability , inquiry"
    assert make_hook(user.client, hotel, URL, plan_mask)["event_mask"] == plan_mask


def test_a_body_without_its_envelope_is_400(user, hotel):
    answer = user.client.post("/api/v1/webhooks", json={"property_id": hotel, **SERVICE_BODY})
    assert check(answer, 400)["errors"]["code"] == "bad_request"


def test_a_property_has_at_most_twenty_webhooks(user, hotel):
    for _ in range(20):
        make_hook(user.client, hotel, URL)
    answer = user.client.post("/api/v1/webhooks", json={"webhook": {"property_id": hotel, **SERVICE_BODY}})
    assert "property_id" in check(answer, 422)["errors"]["details"]


def test_someone_elses_webhook_is_401_and_never_listed(make_user):
    owner, stranger = make_user(), make_user()
    hotel = new_property(owner.client)
    made = make_hook(owner.client, hotel, URL)
    path = f"/api/v1/webhooks/{made['id']}"
    for answer in (stranger.client.get(path), stranger.client.put(path, json={"webhook": {"is_active": False}}),
                   stranger.client.delete(path), stranger.client.get(f"{path}/deliveries"),
                   stranger.client.post(f"{path}/resume"), stranger.client.post(f"{path}/test")):
        assert check(answer, 401)["errors"]["code"] == "unauthorized"
    assert check(stranger.client.get("/api/v1/webhooks"))["data"] == []
    on_theirs = stranger.client.post("/api/v1/webhooks", json={"webhook": {"property_id": hotel, **SERVICE_BODY}})
    assert check(on_theirs, 422)["errors"]["details"] == {"property_id": ["is not a property of yours"]}
    assert check(owner.client.get(path))["data"]["attributes"]["is_active"] is True


def test_a_webhook_goes_with_its_property(user, hotel, live_engine):
    made = make_hook(user.client, hotel, URL)
    assert live_engine.store.scalar("SELECT count(*) FROM destinations WHERE id = ?", (made["id"],)) == 1
    check(user.client.delete(f"/api/v1/properties/{hotel}"))
    assert user.client.get(f"/api/v1/webhooks/{made['id']}").status_code == 404
    assert live_engine.store.scalar("SELECT count(*) FROM destinations WHERE id = ?", (made["id"],)) == 0


def test_a_callback_on_a_private_address_is_refused_unless_allowed(new_db):
    """The address guard of logo fetches: loopback, private and link-local hosts are a 422 on callback_url, at
    create, update and test (and the sender refuses them again at each call)."""
    with serve_site(new_db()) as site:
        user = site.user()
        hotel = new_property(user.client)
        for url in ("http://127.0.0.1:8000/hook", "http://localhost/hook", "http://10.1.2.3/hook",
                    "http://169.254.169.254/latest/meta-data", "http://[::1]/hook"):
            for path in ("/api/v1/webhooks", "/api/v1/webhooks/test"):
                answer = user.client.post(path, json={"webhook": {"property_id": hotel, **SERVICE_BODY,
                                                                  "callback_url": url}})
                assert "private or local address" in check(answer, 422)["errors"]["details"]["callback_url"][0], url
        assert check(user.client.get("/api/v1/webhooks"))["meta"]["total"] == 0
        public = make_hook(user.client, hotel, "http://93.184.216.34/hook")  # an address literal: no DNS needed
        for url in ("http://127.0.0.1:8000/hook", "http://10.1.2.3/hook", "http://[fe80::1]/hook"):
            answer = user.client.put(f"/api/v1/webhooks/{public['id']}", json={"webhook": {"callback_url": url}})
            assert "private or local address" in check(answer, 422)["errors"]["details"]["callback_url"][0], url
        assert check(user.client.get(f"/api/v1/webhooks/{public['id']}"))["data"]["attributes"]["callback_url"] == \
            "http://93.184.216.34/hook"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner,
                                                                                max_size=3), max_leaves=6)
FIELDS = ("property_id", "callback_url", "event_mask", "headers", "request_params", "is_active", "send_data",
          "is_global", "secret", "state", "colour")
MASKISH = st.lists(st.sampled_from(["*", "ari", "booking", "message", "ari:rate", "ari:*:*:*", "ari:rate:*:x",
                                    "ari:", "ari:rate:a:b:c", " ", "review", "Booking"]), max_size=4).map(",".join)
URLISH = st.sampled_from(["https://hooks.example.com/x", "ftp://a/", "http://[::1", "http://a b/", "https://é.com/",
                          "http://xn--a.com/", "", "https://a.com:0/"])
BODIES = st.dictionaries(st.sampled_from(FIELDS), JSON | MASKISH | URLISH, max_size=5)


@pytest.fixture
def made(user, hotel) -> dict:
    return make_hook(user.client, hotel, URL)


# Function-scoped fixtures are made once for all the examples, which is what is wanted here: one webhook updated
# over and over.
@settings(max_examples=60, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(fields=BODIES)
def test_no_webhook_body_is_a_server_error(user, hotel, made, fields):
    """Whatever a create or an update is sent, the answer is a success or an error in the error shape: never a 500."""
    for answer in (user.client.put(f"/api/v1/webhooks/{made['id']}", json={"webhook": fields}),
                   user.client.post("/api/v1/webhooks", json={"webhook": {"property_id": hotel, **fields}})):
        assert answer.status_code in (200, 201, 400, 422), (fields, answer.status_code, answer.text)
        if answer.status_code >= 400:
            assert answer.json()["errors"].keys() >= {"code", "title"}
        elif answer.status_code == 201:
            check(user.client.delete(f"/api/v1/webhooks/{answer.json()['data']['id']}"))
