"""Guest chat over real HTTP: the spec's booking messages, threads and attachments, its error table,
and the channel adapters' inbound path and outbox."""

from __future__ import annotations

import base64
import re
import struct
import zlib

import httpx
import pytest

from tests.shopping.shop import booking, check, day, make_shop

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$")


def png() -> bytes:
    """A real 1×1 PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00\x00")) + chunk(b"IEND", b""))


def upload(client: httpx.Client, path: str = "/api/v1/attachments", data: bytes | None = None,
           file_type: str = "image/png", **fields) -> httpx.Response:
    body = {"file": base64.b64encode(png() if data is None else data).decode(), "file_name": "photo.png",
            "file_type": file_type, **fields}
    return client.post(path, json={"attachment": body})


class Desk:
    """A property with the chat app, a Booking.com channel and one OTA booking from it."""

    def __init__(self, user, live, code: str = "BookingCom", chat: bool = True) -> None:
        self.shop = make_shop(user, channel_code=code)
        self.client = user.client
        if chat:
            check(self.client.post("/api/v1/applications/install", json={"application_installation": {
                "property_id": self.shop.property_id, "application_code": "chat"}}), 201)
        self.adapter = httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": self.shop.inbound_key})
        self.inbound = f"/api/v1/inbound/{self.shop.channel_id}"
        body = booking(self.shop, day(3), day(5), property_id=self.shop.property_id)
        self.booking_id = check(self.adapter.post(f"{self.inbound}/bookings", json=body), 201)["data"]["id"]

    def guest_says(self, text: str, **fields) -> dict:
        return check(self.adapter.post(f"{self.inbound}/messages", json={"message": {
            "booking_id": self.booking_id, "message": text, **fields}}))["data"]

    def thread_id(self) -> str:
        return check(self.client.get("/api/v1/message_threads", params={
            "filter[property_id]": self.shop.property_id}))["data"][0]["id"]


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    yield made
    made.adapter.close()


def test_a_conversation_from_guest_to_staff_and_back(desk):
    said = desk.guest_says("Hello, can we check in early?")
    assert said["type"] == "message" and said["attributes"]["sender"] == "guest"
    assert TIMESTAMP.match(said["attributes"]["inserted_at"])
    threads = check(desk.client.get("/api/v1/message_threads"))
    thread = threads["data"][0]
    assert threads["meta"]["order_direction"] == "desc"
    assert thread["attributes"]["title"] == "Jane Doe" and thread["attributes"]["provider"] == "BookingCom"
    assert thread["attributes"]["unread_count"] == 1 and thread["attributes"]["message_count"] == 1
    # The last message as the reference shows it (§5): flat, not a nested message resource.
    assert thread["attributes"]["last_message"] == {"message": "Hello, can we check in early?", "sender": "guest",
                                                    "attachments": [], "inserted_at": said["attributes"]["inserted_at"]}
    assert thread["relationships"]["property"]["data"]["id"] == desk.shop.property_id
    assert thread["relationships"]["booking"]["data"]["id"] == desk.booking_id
    linked = check(desk.client.get(f"/api/v1/bookings/{desk.booking_id}"))["data"]["relationships"]
    assert linked["message_thread"]["data"] == {"id": thread["id"], "type": "message_thread"}
    reply = check(desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages",
                                   json={"message": {"message": "Yes, from noon."}}))["data"]
    assert reply["attributes"]["sender"] == "property"
    assert reply["relationships"]["message_thread"]["data"]["id"] == thread["id"]
    listed = check(desk.client.get(f"/api/v1/bookings/{desk.booking_id}/messages"))
    assert [m["attributes"]["message"] for m in listed["data"]] == ["Yes, from noon.", "Hello, can we check in early?"]
    assert listed["meta"]["order_by"] == "inserted_at" and listed["meta"]["total"] == 2
    same = check(desk.client.get(f"/api/v1/message_threads/{thread['id']}/messages"))
    assert [m["id"] for m in same["data"]] == [m["id"] for m in listed["data"]]
    # The reply waits in the channel's outbox until its adapter acknowledges it.
    outbox = check(desk.adapter.get(f"{desk.inbound}/outbox"))["data"]
    assert [m["attributes"]["message"] for m in outbox] == ["Yes, from noon."]
    check(desk.adapter.post(f"{desk.inbound}/outbox/{outbox[0]['id']}/ack"))
    assert check(desk.adapter.get(f"{desk.inbound}/outbox"))["data"] == []


def test_read_close_and_reopen(desk):
    desk.guest_says("Is parking free?")
    thread_id = desk.thread_id()
    assert check(desk.client.post(f"/api/v1/message_threads/{thread_id}/read"))["data"]["attributes"]["unread_count"] == 0
    closed = check(desk.client.post(f"/api/v1/message_threads/{thread_id}/close"))["data"]
    assert closed["attributes"]["is_closed"] is True
    assert check(desk.client.get("/api/v1/message_threads", params={"filter[is_closed]": "false",
                                                                     "filter[property_id]": desk.shop.property_id}
                                 ))["meta"]["total"] == 0
    desk.guest_says("Sorry, one more thing")  # a new guest message reopens the thread
    thread = check(desk.client.get(f"/api/v1/message_threads/{thread_id}"))["data"]["attributes"]
    assert thread["is_closed"] is False and thread["unread_count"] == 1
    check(desk.client.post(f"/api/v1/message_threads/{thread_id}/close"))
    assert check(desk.client.post(f"/api/v1/message_threads/{thread_id}/open"))["data"]["attributes"]["is_closed"] is False
    unread = check(desk.client.get("/api/v1/message_threads", params={"filter[unread]": "true"}))
    assert [t["id"] for t in unread["data"]] == [thread_id]
    found = check(desk.client.get("/api/v1/message_threads", params={"filter[search][has]": "one more"}))
    assert [t["id"] for t in found["data"]] == [thread_id]


def test_the_inbox_search_finds_any_part_of_the_title_or_the_last_message(desk):
    """`filter[search]` looks in a thread's title (the guest) and its last message for the text as typed, whatever
    the case of their ASCII letters, and (since the search over every message) in every message for its words,
    whatever their case or accents. Changed by design: words apart ("deluxe room") and words of older messages are
    found now; quotes, wildcards and operators are no syntax and never an error."""
    desk.guest_says('Is the "Deluxe" room 100% non-smoking? Ça va?')
    thread_id = desk.thread_id()

    def found(text: str) -> bool:
        body = check(desk.client.get("/api/v1/message_threads", params={
            "filter[search][has]": text, "filter[property_id]": desk.shop.property_id}))
        return [t["id"] for t in body["data"]] == [thread_id]

    for text in ("jane doe", "JANE", "e D", '"deluxe"', "100%", "% non", "Ça va", "Ça", "Do", "deluxe room",
                 '"deluxe" "room', "ca va", "smok"):
        assert found(text), text
    for text in ("x%", "Jane Doe Deluxe", "deluxe suite"):
        assert not found(text), text
    check(desk.client.post(f"/api/v1/message_threads/{thread_id}/messages", json={"message": {"message": "Yes, it is."}}))
    assert found("yes, it") and found("deluxe")  # the last message's text, and the words of the ones before
    assert check(desk.client.get("/api/v1/message_threads", params={"filter[search][gt]": "x"}), 422)


def test_a_search_many_threads_hold_pages_them_by_relevance_and_counts_to_a_bound(desk, monkeypatch):
    """The threads holding a search's words are ranked by their best message (changed by design with the search
    over every message: no longer read in the inbox's order when many match); pages follow the rank, then the
    inbox's order, without a thread twice, and the total says it is a bound (`total_at_least`) once the matches go
    past the bound of matches a search ranks (RANKED; 3 here, 500 in use): then the threads come newest match
    first (tests/chat/test_message_search.py has the bounded total)."""
    for n in range(5):
        body = booking(desk.shop, day(10 + 2 * n), day(11 + 2 * n), property_id=desk.shop.property_id)
        booking_id = check(desk.adapter.post(f"{desk.inbound}/bookings", json=body), 201)["data"]["id"]
        check(desk.adapter.post(f"{desk.inbound}/messages", json={"message": {
            "booking_id": booking_id, "message": "Parking?" if n == 2 else f"Is ZEBRAFINCH tea included? ({n})"}}))

    def pages() -> list[tuple[list[str], dict]]:
        return [(lambda body: ([t["id"] for t in body["data"]], body["meta"]))(check(desk.client.get(
            "/api/v1/message_threads", params={"filter[search][has]": "zebrafinch tea", "pagination[limit]": "2",
                                               "pagination[page]": str(page)}))) for page in (1, 2, 3)]

    counted = pages()
    assert [len(ids) for ids, _ in counted] == [2, 2, 0] and len({i for ids, _ in counted for i in ids}) == 4
    assert {meta["total"] for _, meta in counted} == {4}
    assert {meta["order_by"] for _, meta in counted} == {"relevance"}
    monkeypatch.setattr("backend.chat.store.RANKED", 3)
    bounded = pages()
    assert [ids for ids, _ in bounded] == [ids for ids, _ in counted]  # equal scores: newest first, as bounded
    assert [(meta["total"], meta.get("total_at_least", False), meta["order_by"]) for _, meta in bounded] == [
        (4, False, "last_match")] * 3  # each thread matches twice (a message, its last), so one read saw them all


def test_attachments_with_and_without_text(desk):
    attachment = check(upload(desk.client))["data"]
    assert attachment["type"] == "attachment"
    sent = check(desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages",
                                  json={"message": {"attachment_id": attachment["id"]}}))["data"]
    assert sent["attributes"]["message"] == "" and len(sent["attributes"]["attachments"]) == 1
    url = sent["attributes"]["attachments"][0]
    assert url.endswith(f"/api/v1/attachments/{attachment['id']}")
    fetched = desk.client.get(f"/api/v1/attachments/{attachment['id']}")
    assert fetched.status_code == 200 and fetched.content == png()
    assert fetched.headers["content-type"] == "image/png"
    # Sent once: it can't be sent again.
    again = desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages",
                             json={"message": {"attachment_id": attachment["id"]}})
    assert "attachment_id" in check(again, 422)["errors"]["details"]


@pytest.mark.parametrize(("fields", "status", "field"), [
    ({"file": "not base64!"}, 422, "file"),
    ({"file_type": "application/x-msdownload"}, 422, "file_type"),
    ({"file_type": "application/pdf"}, 422, "file"),  # a PNG is not a PDF
    ({"file": ""}, 422, "file"),
    ({"file_name": " "}, 422, "file_name"),
])
def test_bad_uploads(desk, live_engine, fields, status, field):
    response = upload(desk.client, **fields)
    assert field in check(response, status)["errors"]["details"]
    stored = live_engine.store.scalar("SELECT count(*) FROM attachments WHERE user_id = ?",
                                      (desk.shop.user.actor.user_id,))
    assert stored == 0


def test_an_oversized_upload_is_413(desk):
    response = upload(desk.client, data=b"x" * (2 * 1024 * 1024), file_type="text/plain")
    assert check(response, 413)["errors"]["code"] == "payload_too_large"


def test_message_errors(desk, make_user, live):
    client = desk.client
    url = f"/api/v1/bookings/{desk.booking_id}/messages"
    assert "message" in check(client.post(url, json={"message": {"message": "  "}}), 422)["errors"]["details"]
    unknown = client.post(url, json={"message": {"attachment_id": "nope"}})
    assert "attachment_id" in check(unknown, 422)["errors"]["details"]
    other = make_user()
    theirs = check(upload(other.client))["data"]["id"]
    stolen = client.post(url, json={"message": {"attachment_id": theirs}})
    assert "attachment_id" in check(stolen, 422)["errors"]["details"]
    assert check(other.client.get(url), 401)["errors"]["code"] == "unauthorized"
    assert other.client.get(f"/api/v1/attachments/{theirs}").status_code == 200
    assert client.get(f"/api/v1/attachments/{theirs}").status_code == 401
    assert check(client.get("/api/v1/bookings/nope/messages"), 404)["errors"]["code"] == "not_found"
    assert client.post("/api/v1/message_threads/nope/messages", json={"message": {"message": "x"}}).status_code == 404
    assert client.post("/api/v1/message_threads/nope/close").status_code == 404
    desk.guest_says("hi")
    assert other.client.get(f"/api/v1/message_threads/{desk.thread_id()}").status_code == 401
    assert check(client.get(f"{url}"))["meta"]["total"] == 1


def test_without_the_chat_app_it_is_403(user, live):
    desk = Desk(user, live, chat=False)
    url = f"/api/v1/bookings/{desk.booking_id}/messages"
    assert check(desk.client.get(url), 403)["errors"]["code"] == "forbidden"
    assert desk.client.post(url, json={"message": {"message": "hello"}}).status_code == 403
    assert desk.client.get("/api/v1/message_threads", params={"filter[property_id]": desk.shop.property_id}
                           ).status_code == 403
    desk.adapter.close()


def test_shopping_bookings_have_no_messages(user, anonymous):
    shop = make_shop(user)
    check(user.client.post("/api/v1/applications/install", json={"application_installation": {
        "property_id": shop.property_id, "application_code": "chat"}}), 201)
    made = check(anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(2), day(3))), 201)["data"]
    response = user.client.get(f"/api/v1/bookings/{made['id']}/messages")
    assert check(response, 422)["errors"]["code"] == "not_supported"


def test_inbound_errors(desk, live):
    wrong = desk.adapter.post(f"{desk.inbound}/messages", json={"message": {"booking_id": desk.booking_id,
                                                                           "message": "x"}},
                              headers={"api-key": "wrong"})
    assert wrong.status_code == 401
    other = Desk(desk.shop.user, live)
    elsewhere = desk.adapter.post(f"{desk.inbound}/messages", json={"message": {"booking_id": other.booking_id,
                                                                               "message": "x"}})
    assert "booking_id" in check(elsewhere, 422)["errors"]["details"]
    blank = desk.adapter.post(f"{desk.inbound}/messages", json={"message": {"booking_id": desk.booking_id}})
    assert "message" in check(blank, 422)["errors"]["details"]
    inquiry = desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": inquiry_body(desk.shop.property_id)})
    assert check(inquiry, 422)["errors"]["code"] == "not_supported"
    other.adapter.close()
    assert check(desk.client.get("/api/v1/message_threads", params={
        "filter[property_id]": desk.shop.property_id}))["meta"]["total"] == 0


def test_guest_attachments_come_through_the_adapter(desk):
    attachment = check(upload(desk.adapter, f"{desk.inbound}/attachments", data=b"%PDF-1.4 menu",
                              file_type="application/pdf", file_name="menu.pdf"))["data"]
    said = desk.guest_says("", attachments=[attachment["id"]])
    assert len(said["attributes"]["attachments"]) == 1
    last = check(desk.client.get(f"/api/v1/message_threads/{desk.thread_id()}"))["data"]["attributes"]["last_message"]
    assert last["attachments"] == said["attributes"]["attachments"] and last["attachments"][0].endswith(attachment["id"])
    assert desk.client.get(f"/api/v1/attachments/{attachment['id']}").content == b"%PDF-1.4 menu"


def inquiry_body(property_id: str) -> dict:
    return {"guest_name": "Maya Lin", "message": "Is the flat free over New Year?", "booking_details": {
        "property_id": property_id, "listing_id": "8812", "listing_name": "Harbour flat", "guest_name": "Maya Lin",
        "checkin_date": day(30), "checkout_date": day(33), "nights": 3, "currency": "EUR",
        "expected_payout_amount_accurate": "612.40", "non_response_at": "2026-12-01T10:00:00Z",
        "number_of_adults": 2, "number_of_children": 1}}


def test_airbnb_inquiry_is_a_thread_without_a_booking(user, live):
    desk = Desk(user, live, code="AirBNB")
    thread = check(desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": inquiry_body(desk.shop.property_id)}),
                   201)["data"]
    assert "booking" not in thread["relationships"] and thread["attributes"]["provider"] == "AirBNB"
    messages = check(desk.client.get(f"/api/v1/message_threads/{thread['id']}/messages"))["data"]
    system = next(m["attributes"] for m in messages if m["attributes"]["sender"] == "system")
    assert system["message"] == "inquiry" and system["meta"]["status"] == "active"
    details = system["meta"]["booking_details"]
    assert details["number_of_guests"] == 3 and details["expected_payout_amount_accurate"] == "612.40"
    assert re.match(r"^[0-9a-f-]{36}$", system["meta"]["live_feed_event_id"])
    bad = inquiry_body(desk.shop.property_id)
    bad["booking_details"].update(nights=5, non_response_at="tomorrow")
    details = check(desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": bad}), 422)["errors"]["details"]
    assert "booking_details.non_response_at" in details
    desk.adapter.close()


def test_an_inquiry_needs_only_the_guest_the_dates_and_the_property(user, live):
    desk = Desk(user, live, code="AirBNB")
    least = {"guest_name": "Maya Lin", "booking_details": {
        "property_id": desk.shop.property_id, "checkin_date": day(30), "checkout_date": day(33)}}
    thread = check(desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": least}), 201)["data"]
    assert thread["attributes"]["title"] == "Maya Lin"
    messages = check(desk.client.get(f"/api/v1/message_threads/{thread['id']}/messages"))["data"]
    details = messages[0]["attributes"]["meta"]["booking_details"]
    assert details["guest_name"] == "Maya Lin" and details["nights"] == 3  # from the inquiry, from the dates
    assert details["listing_id"] is None and details["expected_payout_amount_accurate"] is None
    assert details["number_of_guests"] is None and details["number_of_children"] == 0
    missing = check(desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": {
        "guest_name": "Maya Lin", "booking_details": {"checkin_date": day(33), "checkout_date": day(30)}}}),
        422)["errors"]["details"]
    assert set(missing) == {"booking_details.property_id", "booking_details.checkout_date"}
    payout = {**least["booking_details"], "expected_payout_amount_accurate": "612.40"}
    unpriced = check(desk.adapter.post(f"{desk.inbound}/inquiries", json={"inquiry": {**least, "booking_details": payout}}),
                     422)["errors"]["details"]
    assert unpriced == {"booking_details.expected_payout_amount_accurate": ["needs the currency it is in"]}
    desk.adapter.close()


def test_list_totals_follow_every_change(desk, live_engine):
    """The totals come from counts kept by triggers: they must match a count of the threads themselves."""
    client, store = desk.client, live_engine.store
    desk.guest_says("first")
    thread_id = desk.thread_id()
    filters = {"all": ({}, "1 = 1"), "unread": ({"filter[unread]": "true"}, "unread_count > 0"),
               "read": ({"filter[unread]": "false"}, "unread_count = 0"),
               "open": ({"filter[is_closed]": "false"}, "is_closed = 0"),
               "closed": ({"filter[is_closed]": "true"}, "is_closed = 1"),
               "open unread": ({"filter[is_closed]": "false", "filter[unread]": "true"},
                               "is_closed = 0 AND unread_count > 0")}

    def totals() -> dict[str, int]:
        return {name: check(client.get("/api/v1/message_threads", params={
            "filter[property_id]": desk.shop.property_id, **params}))["meta"]["total"]
            for name, (params, _) in filters.items()}

    def counted() -> dict[str, int]:
        return {name: store.scalar(f"SELECT count(*) FROM message_threads WHERE property_id = ? AND {condition}",
                                   (desk.shop.property_id,)) for name, (_, condition) in filters.items()}

    assert totals() == counted() == {"all": 1, "unread": 1, "read": 0, "open": 1, "closed": 0, "open unread": 1}
    steps = [lambda: client.post(f"/api/v1/message_threads/{thread_id}/read"),
             lambda: client.post(f"/api/v1/message_threads/{thread_id}/close"),
             lambda: desk.guest_says("again"),  # reopens, unread
             lambda: client.post(f"/api/v1/message_threads/{thread_id}/close")]
    for step in steps:
        step()
        assert totals() == counted()
    check(client.delete(f"/api/v1/properties/{desk.shop.property_id}"))
    assert store.scalar("SELECT coalesce(sum(threads), 0) FROM thread_counts WHERE property_id = ?",
                        (desk.shop.property_id,)) == 0
