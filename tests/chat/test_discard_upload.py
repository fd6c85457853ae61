"""Dropping an upload before it is sent (the console's pending attachment): only the uploader's own,
only while no message has taken it."""

from __future__ import annotations

import base64

import pytest

from backend.core.errors import NotFound
from backend.engine import Engine
from tests.conftest import CONTACT


def upload(engine: Engine, user_id: str) -> str:
    body = {"file": base64.b64encode(b"booking confirmation").decode(), "file_name": "note.txt",
            "file_type": "text/plain"}
    return engine.chat.attachments.upload(body, user_id=user_id)["id"]


def stored(engine: Engine, attachment_id: str) -> bool:
    return bool(engine.store.scalar("SELECT count(*) FROM attachments WHERE id = ?", (attachment_id,)))


def test_the_uploader_discards_an_unsent_upload(engine: Engine) -> None:
    operator = engine.identity.operator()
    attachment_id = upload(engine, operator.user_id)
    engine.chat.discard_upload(operator, attachment_id)
    assert not stored(engine, attachment_id)
    with pytest.raises(NotFound):
        engine.chat.discard_upload(operator, attachment_id)


def test_nobody_else_discards_it(engine: Engine) -> None:
    operator = engine.identity.operator()
    other, _ = engine.identity.add_user("other@example.com")
    attachment_id = upload(engine, other.user_id)
    with pytest.raises(NotFound):
        engine.chat.discard_upload(operator, attachment_id)
    assert stored(engine, attachment_id)


def test_a_sent_attachment_stays(engine: Engine) -> None:
    operator = engine.identity.operator()
    prop = engine.properties.create(operator, {"title": "Casa do Mar", "currency": "EUR", **CONTACT})
    engine.applications.install(operator, {"property_id": prop["id"], "application_code": "chat"})
    channel = engine.channels.create(operator, {"title": "Airbnb", "channel_code": "AirBNB",
                                                "property_ids": [prop["id"]]})
    thread = engine.chat.inquiry(engine.store.one("SELECT * FROM channels WHERE id = ?", (channel["id"],)), {
        "guest_name": "Maya Lin", "booking_details": {
            "property_id": prop["id"], "listing_id": "1", "listing_name": "Casa do Mar", "guest_name": "Maya Lin",
            "checkin_date": "2030-01-01", "checkout_date": "2030-01-03", "nights": 2, "currency": "EUR",
            "expected_payout_amount_accurate": "100.00", "non_response_at": "2029-12-01T10:00:00Z",
            "number_of_adults": 2}})
    attachment_id = upload(engine, operator.user_id)
    engine.chat.reply(operator, thread["id"], {"attachment_id": attachment_id})
    with pytest.raises(NotFound):
        engine.chat.discard_upload(operator, attachment_id)
    assert stored(engine, attachment_id)
