"""Reviews as events: `review` when one comes in and `updated_review` when it changes, delivered by a real
`frontdesk serve`'s deliverer to a receiver on loopback in the service's flat payload (reference §8 Webhooks); a
review sent again unchanged tells nothing. And a reply survives the crash of the process that stored it: it is
in the adapter's feed until acknowledged, however often the feed is read."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator

import pytest

from backend.core.listing import ListQuery
from backend.tools.demo import load_demo
from tests.conftest import Site, delivering_site
from tests.reviews.test_reviews_api import Stays
from tests.stores import Database
from tests.webhooks.hooks import make_hook, settled

# The payload's keys as the reference lists them for `review`.
PAYLOAD = {"id", "reply", "content", "channel_id", "scores", "ota", "property_id", "expired_at", "is_hidden",
           "is_replied", "ota_overall_score", "ota_reservation_id", "ota_review_id", "ota_scores", "overall_score",
           "raw_content", "received_at", "reviewer_name", "booking_id", "live_feed_event_id", "ota_inserted_at",
           "reply_scheduled_at", "reply_sent_at"}


@pytest.fixture(scope="module")
def site(session_db) -> Iterator[Site]:
    with delivering_site(session_db("reviews"), 6) as site:
        yield site


def test_a_new_review_and_its_changes_reach_the_webhook_flat(site, receiver):
    stays = Stays(site.user(), (site.engine, site.main))
    hook = make_hook(stays.client, stays.shop.property_id, receiver.url, "review,updated_review")
    review_id = stays.send(ota_review_id="R-hook", received_at="2026-01-02T10:00:00Z", guest_name="Ann Lee",
                           overall_score=8.0, booking_id=stays.booking_id)["data"]["id"]
    stays.send(200, ota_review_id="R-hook", received_at="2026-01-02T10:00:00Z", guest_name="Ann Lee",
               overall_score=8.0, booking_id=stays.booking_id)  # the same again: nothing to tell
    stays.send(200, ota_review_id="R-hook", received_at="2026-01-02T10:00:00Z", guest_name="Ann Lee",
               overall_score=9.5, booking_id=stays.booking_id, content="Even better on reflection")
    stays.reply(review_id, "Thank you, Ann")
    arrived = [each.json() for each in receiver.wait_for(3)]
    settled(site.engine, hook["id"])
    assert len(receiver.received) == 3
    assert [m["event"] for m in arrived] == ["review", "updated_review", "updated_review"]
    new, changed, replied = arrived
    for message in arrived:
        assert message["property_id"] == stays.shop.property_id and message["user_id"] is None
        assert PAYLOAD <= message["payload"].keys()
        assert message["payload"]["id"] == review_id
    payload = new["payload"]
    assert payload["ota"] == "BookingCom" and payload["channel_id"] == stays.shop.channel_id
    assert payload["ota_review_id"] == "R-hook" and payload["reviewer_name"] == "Ann Lee"
    assert payload["booking_id"] == stays.booking_id and payload["received_at"] == "2026-01-02T10:00:00.000000"
    assert payload["overall_score"] == 8.0 and payload["ota_overall_score"] == 8.0
    assert payload["scores"][0] == {"category": "clean", "score": 10.0}
    assert payload["ota_scores"][0] == {"category": "clean", "score": 10.0}
    assert payload["is_replied"] is False and payload["reply"] is None
    assert changed["payload"]["overall_score"] == 9.5 and changed["payload"]["content"] == "Even better on reflection"
    assert replied["payload"]["reply"] == "Thank you, Ann" and replied["payload"]["is_replied"] is True
    assert replied["payload"]["reply_scheduled_at"] and replied["payload"]["reply_sent_at"] is None
    assert len({m["payload"]["live_feed_event_id"] for m in arrived}) == 3
    stays.close()


def _reply_and_crash(database: Database, review_id: str) -> None:
    """A process that stores a reply and dies before anything could take it to the channel."""
    engine = database.engine()
    engine.reviews.reply(engine.identity.operator(), review_id, {"reply": "Thank you for staying with us"})
    os._exit(9)


def test_a_reply_survives_the_crash_of_the_process_that_stored_it_and_waits_until_acknowledged(new_db):
    database = new_db()
    engine = database.engine()
    load_demo(engine)
    operator = engine.identity.operator()
    unanswered = [r for r in engine.reviews.list(operator, ListQuery(limit=100))[0]
                  if not r["is_replied"] and not r["is_hidden"] and not r["is_expired"]]
    review = unanswered[0]
    process = multiprocessing.get_context("spawn").Process(target=_reply_and_crash,
                                                           args=(Database(database.target, database.keys),
                                                                 review["id"]))
    process.start()
    process.join(120)
    assert process.exitcode == 9
    again = database.engine()  # as the server starts again
    channel = again.store.one("SELECT * FROM channels WHERE id = ?", (review["channel_id"],))
    for _ in range(2):  # read and not acknowledged (the adapter died too): still there
        waiting = [i for i in again.reviews.outbox(channel, ListQuery(limit=100))[0] if i["review_id"] == review["id"]]
        assert [(i["kind"], i["reply"]) for i in waiting] == [("reply", "Thank you for staying with us")]
    assert again.reviews.get(operator, review["id"])["reply_state"] == "pending"
    again.reviews.delivered(channel, review["id"], "reply")
    assert not [i for i in again.reviews.outbox(channel, ListQuery(limit=100))[0] if i["review_id"] == review["id"]]
    assert again.reviews.get(operator, review["id"])["reply_state"] == "delivered"
