"""Webhooks delivered for real: a `frontdesk serve` with its deliverer, receivers on loopback. What arrives is
the service's message, in order, signed as Standard Webhooks says (checked with the `standardwebhooks` package
a consumer would use); failures are retried with backoff until the receiver takes the event, and a receiver
that was down catches up with everything."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from standardwebhooks.webhooks import Webhook

from tests.chat.test_chat_api import Desk, inquiry_body
from tests.conftest import Site, free_port
from tests.receiver import Receiver
from tests.shopping.shop import booking, check, day
from tests.webhooks.conftest import MAX_ATTEMPTS
from tests.webhooks.hooks import eventually, make_hook, settled

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
PLAN_VALUES = {"rate", "min_stay_arrival", "min_stay_through", "min_stay", "closed_to_arrival", "closed_to_departure",
               "stop_sell", "max_stay"}


@pytest.fixture
def desk(site: Site) -> Iterator[Desk]:
    """A hotel with the chat app on a Booking.com channel, and an OTA booking of days 3 to 5."""
    made = Desk(site.user(), (site.engine, site.main))
    yield made
    made.adapter.close()



def test_the_ari_change_the_booking_and_the_message_arrive_in_order_and_signed(site, desk, receiver):
    shop = desk.shop
    hook = make_hook(desk.client, shop.property_id, f"{receiver.url}/in?from=frontdesk", request_params={"k": "v 1"},
                     headers={"X-Integrator-Key": "abc"})
    shop.restrict(day(1), day(2), rate="150.00")
    ota = booking(shop, day(10), day(12), property_id=shop.property_id)
    booking_id = check(desk.adapter.post(f"{desk.inbound}/bookings", json=ota), 201)["data"]["id"]
    said = desk.guest_says("Is breakfast included?")

    arrived = receiver.wait_for(4)
    for each in arrived:
        Webhook(hook["secret"]).verify(each.body, each.headers)  # raises unless the HMAC is right
        assert each.headers["x-integrator-key"] == "abc" and each.headers["content-type"] == "application/json"
        assert parse_qs(urlsplit(each.path).query) == {"from": ["frontdesk"], "k": ["v 1"]}
    messages = [each.json() for each in arrived]
    assert [m["event"] for m in messages] == ["ari", "booking_new", "ari", "message"]
    assert len({each.headers["webhook-id"] for each in arrived}) == 4
    for message in messages:
        assert list(message) == ["event", "payload", "property_id", "user_id", "timestamp"]
        assert message["property_id"] == shop.property_id and message["user_id"] is None
        assert TIMESTAMP.match(message["timestamp"])

    rates, new, rooms, chat = (m["payload"] for m in messages)
    assert rates == [{"property_id": shop.property_id, "room_type_id": shop.room_id, "rate_plan_id": shop.plan_id,
                      "date_from": day(1), "date_to": day(2), "rate": "150.00", "min_stay_arrival": 1,
                      "min_stay_through": 1, "min_stay": 1, "closed_to_arrival": False, "closed_to_departure": False,
                      "stop_sell": False, "max_stay": 0}]
    revision = check(desk.client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]["revision_id"]
    assert new == {"booking_id": booking_id, "property_id": shop.property_id, "revision_id": revision}
    # What the booking took: one of the two rooms on its nights, one range since both nights are alike.
    assert rooms == [{"property_id": shop.property_id, "room_type_id": shop.room_id, "date_from": day(10),
                      "date_to": day(11), "availability": 1}]
    assert chat == {"booking_id": desk.booking_id, "have_attachment": False, "attachments": [], "id": said["id"],
                    "message": "Is breakfast included?", "message_thread_id": desk.thread_id(),
                    "ota_message_id": None, "sender": "guest"}
    settled(site.engine, hook["id"])
    log = check(desk.client.get(f"/api/v1/webhooks/{hook['id']}/deliveries"))
    assert log["meta"]["total"] == 4
    assert [d["attributes"]["event"] for d in log["data"]] == ["message", "ari", "booking_new", "ari"]  # latest first
    assert {(d["attributes"]["status"], d["attributes"]["attempts"], d["attributes"]["response_status"])
            for d in log["data"]} == {("delivered", 1, 200)}
    state = check(desk.client.get(f"/api/v1/webhooks/{hook['id']}"))["data"]["attributes"]["state"]
    assert state["last_delivered_at"] and state["failing_since"] is None and state["waiting"] == 0


def test_ari_is_read_when_sent_in_ranges_of_equal_days(site, desk, receiver):
    shop = desk.shop
    make_hook(desk.client, shop.property_id, receiver.url, "ari")
    check(desk.client.post("/api/v1/restrictions", json={"values": [
        {"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(1), "date_to": day(3),
         "rate": "90.00"},
        {"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(4), "date_to": day(6),
         "rate": "95.00", "stop_sell": True}]}))
    ranges = receiver.wait_for(1)[0].json()["payload"]
    assert [(r["date_from"], r["date_to"], r["rate"], r["stop_sell"]) for r in ranges] == [
        (day(1), day(3), "90.00", False), (day(4), day(6), "95.00", True)]


def test_masks_pick_the_events_and_the_values(site, desk):
    shop = desk.shop
    other_plan = check(desk.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": shop.property_id, "room_type_id": shop.room_id, "title": "Breakfast",
        "options": [{"occupancy": 2, "is_primary": True, "rate": "130.00"}]}}), 201)["data"]["id"]
    receivers = {name: Receiver() for name in ("everything", "bookings", "one_rate", "rooms")}
    masks = {"everything": "*", "bookings": "booking", "one_rate": f"ari:rate:*:{shop.plan_id}",
             "rooms": f"ari:availability:{shop.room_id}"}
    hooks = [make_hook(desk.client, shop.property_id, receivers[name].url, mask) for name, mask in masks.items()]

    shop.restrict(day(1), day(1), rate="111.00")
    shop.restrict(day(1), day(1), plan_id=other_plan, rate="122.00")
    shop.available(day(2), day(2), 1)
    ota = booking(shop, day(20), day(21), property_id=shop.property_id)
    check(desk.adapter.post(f"{desk.inbound}/bookings", json=ota), 201)
    desk.guest_says("Hello")
    settled(site.engine, *(hook["id"] for hook in hooks))

    def got(name: str) -> list[dict]:
        return [each.json() for each in receivers[name].received]

    assert [m["event"] for m in got("everything")] == ["ari", "ari", "ari", "booking_new", "ari", "message"]
    assert [m["event"] for m in got("bookings")] == ["booking_new"]
    [one_rate] = got("one_rate")
    assert one_rate["payload"] == [{"property_id": shop.property_id, "room_type_id": shop.room_id,
                                    "rate_plan_id": shop.plan_id, "date_from": day(1), "date_to": day(1),
                                    "rate": "111.00"}]
    rooms = [m["payload"][0] for m in got("rooms")]
    assert [(r["date_from"], r["availability"]) for r in rooms] == [(day(2), 1), (day(20), 1)]
    assert all(r.keys() == {"property_id", "room_type_id", "date_from", "date_to", "availability"} for r in rooms)
    for made in receivers.values():
        made.close()


def test_without_send_data_only_the_event_is_told(site, desk, receiver):
    make_hook(desk.client, desk.shop.property_id, receiver.url, "message", send_data=False)
    desk.guest_says("Late arrival")
    message = receiver.wait_for(1)[0].json()
    assert message.keys() == {"event", "property_id", "user_id", "timestamp"} and message["event"] == "message"


def test_a_receiver_answering_500_three_times_gets_the_event_again_after_each_then_is_up_to_date(site, desk,
                                                                                                  receiver):
    receiver.answers = [(500, b'{"error": "database down"}')] * 3
    hook = make_hook(desk.client, desk.shop.property_id, receiver.url, "ari")
    desk.shop.restrict(day(1), day(1), rate="101.00")
    attempts = receiver.wait_for(4)
    assert len({each.headers["webhook-id"] for each in attempts}) == 1  # the same event, the consumer's dedup key
    assert len({each.body for each in attempts}) == 1
    gaps = [later.at - earlier.at for earlier, later in zip(attempts, attempts[1:], strict=False)]
    assert all(gap >= 0.04 for gap in gaps), gaps  # backoff 0.05, 0.1, 0.2 s
    settled(site.engine, hook["id"])
    [delivery] = check(desk.client.get(f"/api/v1/webhooks/{hook['id']}/deliveries"))["data"]
    assert {k: delivery["attributes"][k] for k in ("status", "attempts", "response_status", "last_error",
                                                   "warnings")} == {
        "status": "delivered", "attempts": 4, "response_status": 200, "last_error": None, "warnings": None}

    desk.shop.restrict(day(2), day(2), rate="102.00")
    later = receiver.wait_for(5)[4]
    assert later.json()["payload"][0]["rate"] == "102.00" and later.headers["webhook-id"] not in {
        each.headers["webhook-id"] for each in attempts}


def test_a_receiver_that_was_down_catches_up_with_every_event(site, desk):
    receiver = Receiver()
    port = receiver.port
    receiver.close()  # down: connections are refused
    hook = make_hook(desk.client, desk.shop.property_id, receiver.url, "ari")
    for offset, rate in ((1, "91.00"), (2, "92.00"), (3, "93.00")):
        desk.shop.restrict(day(offset), day(offset), rate=rate)
    eventually(lambda: site.engine.store.scalar("SELECT attempts FROM destinations WHERE id = ?", (hook["id"],)) >= 2)
    state = check(desk.client.get(f"/api/v1/webhooks/{hook['id']}"))["data"]["attributes"]["state"]
    assert state["last_error"].startswith("could not connect") and state["failing_since"] is None
    assert state["waiting"] >= 3

    back = Receiver(port)
    try:
        arrived = back.wait_for(3)
        assert [m.json()["payload"][0]["rate"] for m in arrived] == ["91.00", "92.00", "93.00"]
        settled(site.engine, hook["id"])
        assert len(back.received) == 3
    finally:
        back.close()


def test_failing_after_the_last_attempt_until_resumed(site, desk, receiver):
    receiver.status, receiver.body = 503, b"Service Unavailable " + b"x" * 10_000
    hook = make_hook(desk.client, desk.shop.property_id, receiver.url, "ari")
    path = f"/api/v1/webhooks/{hook['id']}"
    desk.shop.restrict(day(1), day(1), rate="80.00")
    state = eventually(lambda: (s := check(desk.client.get(path))["data"]["attributes"]["state"])["failing_since"]
                       and s)
    assert len(receiver.received) == MAX_ATTEMPTS
    # What the receiver said, as a short excerpt only.
    assert state["last_error"].startswith("answered 503: Service Unavailable xxx") and len(state["last_error"]) < 300
    [delivery] = check(desk.client.get(f"{path}/deliveries"))["data"]
    assert (delivery["attributes"]["status"], delivery["attributes"]["attempts"]) == ("failed", MAX_ATTEMPTS)

    desk.shop.restrict(day(2), day(2), rate="81.00")  # waits behind the failing event: nothing is skipped
    receiver.status = 200
    resumed = check(desk.client.post(f"{path}/resume"))["data"]["attributes"]["state"]
    assert resumed["failing_since"] is None
    arrived = receiver.wait_for(MAX_ATTEMPTS + 2)[MAX_ATTEMPTS:]
    assert [m.json()["payload"][0]["rate"] for m in arrived] == ["80.00", "81.00"]


def test_a_paused_webhook_resumes_where_it_stopped_when_made_active(site, desk, receiver):
    hook = make_hook(desk.client, desk.shop.property_id, receiver.url, "ari", is_active=False)
    desk.shop.restrict(day(1), day(1), rate="70.00")
    check(desk.client.put(f"/api/v1/webhooks/{hook['id']}", json={"webhook": {"is_active": True}}))
    assert receiver.wait_for(1)[0].json()["payload"][0]["rate"] == "70.00"


def test_a_delivery_is_sent_again_on_demand(site, desk, receiver):
    hook = make_hook(desk.client, desk.shop.property_id, receiver.url, "message")
    desk.guest_says("Twice, please")
    first = receiver.wait_for(1)[0]
    settled(site.engine, hook["id"])
    deliveries = f"/api/v1/webhooks/{hook['id']}/deliveries"
    [delivery] = check(desk.client.get(deliveries))["data"]
    assert check(desk.client.post(f"{deliveries}/{delivery['id']}/redeliver")) == {"meta": {"message": "Success"}}
    again = receiver.wait_for(2)[1]
    assert (again.headers["webhook-id"], again.body) == (first.headers["webhook-id"], first.body)
    eventually(lambda: check(desk.client.get(deliveries))["data"][0]["attributes"]["attempts"] == 2)
    assert desk.client.post(f"{deliveries}/not-a-delivery/redeliver").status_code == 404


def test_a_test_call_reports_what_the_receiver_answered(site, desk, receiver):
    body = {"property_id": desk.shop.property_id, "callback_url": receiver.url, "event_mask": "*"}
    tried = check(desk.client.post("/api/v1/webhooks/test", json={"webhook": body}))["data"]
    assert tried["type"] == "webhook_test" and tried["attributes"]["status"] == 200
    sent = receiver.wait_for(1)[0]
    Webhook(tried["attributes"]["secret"]).verify(sent.body, sent.headers)
    assert sent.json()["event"] == "test" and sent.headers["webhook-id"] == tried["id"]

    # How it went, never what the receiver said: a test call must not read other servers' answers (or banners).
    receiver.status, receiver.body = 401, b'{"error": "bad token", "server": "OpenSSH_9.6"}'
    refused = desk.client.post("/api/v1/webhooks/test", json={"webhook": body})
    assert check(refused, 422)["errors"]["details"] == {
        "callback_url": ["did not take the test event: the endpoint answered 4xx"]}
    assert "401" not in refused.text and "token" not in refused.text and "OpenSSH" not in refused.text
    closed = desk.client.post("/api/v1/webhooks/test", json={"webhook": {
        **body, "callback_url": f"http://127.0.0.1:{free_port()}/hook"}})
    assert check(closed, 422)["errors"]["details"] == {
        "callback_url": ["did not take the test event: could not connect"]}

    receiver.status = 200
    hook = make_hook(desk.client, desk.shop.property_id, receiver.url)
    saved = check(desk.client.post(f"/api/v1/webhooks/{hook['id']}/test"))["data"]["attributes"]
    assert "secret" not in saved
    Webhook(hook["secret"]).verify(receiver.received[-1].body, receiver.received[-1].headers)
    assert check(desk.client.get(f"/api/v1/webhooks/{hook['id']}/deliveries"))["meta"]["total"] == 0  # not logged


def test_an_inquiry_and_a_thread_closed_and_reopened(site, receiver):
    desk = Desk(site.user(), (site.engine, site.main), code="AirBNB")
    make_hook(desk.client, desk.shop.property_id, receiver.url, "inquiry,thread_closed,thread_reopened")
    body = inquiry_body(desk.shop.property_id)
    thread_id = check(desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": body}), 201)["data"]["id"]
    check(desk.client.post(f"/api/v1/message_threads/{thread_id}/close"))
    check(desk.client.post(f"/api/v1/message_threads/{thread_id}/open"))
    inquiry, closed, reopened = (each.json() for each in receiver.wait_for(3))
    assert inquiry["event"] == "inquiry"
    assert {k: inquiry["payload"][k] for k in ("message_thread_id", "channel_id", "guest_name", "message", "status")} \
        == {"message_thread_id": thread_id, "channel_id": desk.shop.channel_id, "guest_name": "Maya Lin",
            "message": body["message"], "status": "active"}
    assert inquiry["payload"]["booking_details"]["listing_id"] == "8812"
    assert (closed["event"], reopened["event"]) == ("thread_closed", "thread_reopened")
    assert closed["payload"] == reopened["payload"] == {"message_thread_id": thread_id, "booking_id": None}
    desk.adapter.close()
