"""What must hold when staff and guests write to conversations at once, on every store. Chat writes are scoped to
their thread's property (backend/core/scopes.py), so on PostgreSQL two properties' conversations are written beside
each other: what is shared between them must be guarded by the write itself, and what one property holds is still
written one writer at a time."""

from __future__ import annotations

import time
from collections import Counter

import pytest

import backend.chat.attachments
import backend.chat.service
from tests.chat.test_chat_api import Desk, upload
from tests.concurrency.test_selling import _at_once
from tests.conftest import serve_site
from tests.shopping.shop import check


@pytest.fixture
def site(new_db):
    with serve_site(new_db()) as served:
        yield served


def _desks(site, count: int) -> list[Desk]:
    user = site.user()
    return [Desk(user, (site.engine, site.main)) for _ in range(count)]


def _slowed(monkeypatch, module, name: str) -> None:
    """`module.name`, a read a write decides on, made to take 50 ms: writers at once then all read before any
    writes, as they could on a loaded server, instead of in the few microseconds a test's timing gives."""
    read = getattr(module, name)

    def slow(*args):
        found = read(*args)
        time.sleep(0.05)
        return found

    monkeypatch.setattr(module, name, slow)


def test_the_first_messages_of_a_booking_sent_at_once_make_one_conversation(site, monkeypatch):
    """The guest and staff write a booking's first messages at once: its conversation is made once (made twice it
    is a 500 from the unique booking of a thread) and holds every message."""
    desk = _desks(site, 1)[0]
    _slowed(monkeypatch, backend.chat.service, "thread_of_booking")

    def say(n: int) -> int:
        if n % 2:
            return desk.adapter.post(f"{desk.inbound}/messages", json={"message": {
                "booking_id": desk.booking_id, "message": f"Guest {n}"}}).status_code
        return desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages",
                                json={"message": {"message": f"Staff {n}"}}).status_code

    assert Counter(_at_once(16, say)) == {200: 16}
    threads = check(desk.client.get("/api/v1/message_threads", params={
        "filter[property_id]": desk.shop.property_id}))["data"]
    assert len(threads) == 1 and threads[0]["attributes"]["message_count"] == 16
    assert threads[0]["attributes"]["unread_count"] == 8
    messages = check(desk.client.get(f"/api/v1/bookings/{desk.booking_id}/messages",
                                     params={"pagination[limit]": 100}))
    assert messages["meta"]["total"] == 16


def test_one_upload_sent_to_two_properties_at_once_goes_with_one_message(site, monkeypatch):
    """An upload is sent once. Messages to two properties' bookings go at once on PostgreSQL: the one that takes
    the upload must be the only one, the other refused with the 422 of an upload already sent."""
    first, second = _desks(site, 2)
    uploads = [check(upload(first.client))["data"]["id"] for _ in range(6)]
    _slowed(monkeypatch, backend.chat.attachments, "attachment_owner")

    def send(n: int) -> int:
        desk = (first, second)[n % 2]
        return desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages",
                                json={"message": {"attachment_id": uploads[n // 2]}}).status_code

    statuses = _at_once(12, send)
    assert [Counter(statuses[2 * n:2 * n + 2]) for n in range(6)] == [Counter({200: 1, 422: 1})] * 6
    taken = site.engine.store.query(f"SELECT message_id FROM attachments WHERE id IN ({', '.join('?' * 6)})",
                                    uploads)
    assert all(row["message_id"] for row in taken)
    on_messages = site.engine.store.scalar(
        f"SELECT count(*) FROM messages m JOIN attachments a ON a.message_id = m.id WHERE a.id IN "
        f"({', '.join('?' * 6)})", uploads)
    assert on_messages == 6
