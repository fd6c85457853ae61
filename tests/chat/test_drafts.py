"""Drafts kept per user and thread in the database (backend/chat/drafts.py): what staff began and did not send
comes back after a restart, to them alone, masked of card numbers, and goes when the reply is sent from it."""

from __future__ import annotations

import threading

import pytest

from backend.core.errors import BadRequest, Unauthorized, ValidationFailed
from tests.chat.test_chat_api import Desk


@pytest.fixture
def desk(user, live):
    made = Desk(user, live)
    made.guest_says("Is breakfast included?")
    yield made
    made.adapter.close()


def stored(engine, thread_id: str) -> list[tuple[str, str]]:
    return [(r["text"], r["kind"]) for r in engine.store.query(
        "SELECT text, kind FROM reply_drafts WHERE thread_id = ?", (thread_id,))]


def test_a_draft_comes_back_to_its_writer_alone(desk, make_user, live_engine):
    me, thread_id, drafts = desk.shop.user.actor, desk.thread_id(), live_engine.drafts
    drafts.save(me, thread_id, {"text": "Yes, from 7 to 10. Card 4111 1111 1111 1111"})
    [draft] = drafts.mine(me)
    assert draft["thread_id"] == thread_id and draft["kind"] == "reply"
    assert draft["text"] == "Yes, from 7 to 10. Card 411111******1111"
    assert stored(live_engine, thread_id) == [("Yes, from 7 to 10. Card 411111******1111", "reply")]

    colleague = make_user()
    with live_engine.store.transaction() as conn:  # a second member of the property's group: not their draft
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                     (me.default_group_id, colleague.actor.user_id))
    them = live_engine.identity.actor_for(colleague.actor.email)
    assert drafts.mine(them) == []
    drafts.save(them, thread_id, {"text": "Their own", "kind": "note"})
    assert [d["text"] for d in drafts.mine(me)] == ["Yes, from 7 to 10. Card 411111******1111"]
    assert [(d["text"], d["kind"]) for d in drafts.mine(them)] == [("Their own", "note")]

    drafts.save(me, thread_id, {"text": "  \n"})  # emptied: gone
    assert drafts.mine(me) == []


def test_sending_the_draft_drops_it_but_not_one_written_on_since(desk, live_engine):
    me, thread_id, drafts = desk.shop.user.actor, desk.thread_id(), live_engine.drafts
    drafts.save(me, thread_id, {"text": "See you at 23:00."})
    live_engine.chat.reply(me, thread_id, {"message": "See you at 23:00."})
    assert drafts.mine(me) == []

    drafts.save(me, thread_id, {"text": "And parking is free."})
    live_engine.chat.reply(me, thread_id, {"message": "Breakfast is at 7."})  # sent from another window
    assert [d["text"] for d in drafts.mine(me)] == ["And parking is free."]


def test_bad_drafts_are_refused_and_store_nothing(desk, make_user, live_engine):
    me, thread_id, drafts = desk.shop.user.actor, desk.thread_id(), live_engine.drafts
    for bad in ({"text": "x" * 10_001}, {"text": 5}, {"text": "hi", "kind": "email"}, {"text": "hi", "extra": 1}):
        with pytest.raises(ValidationFailed):
            drafts.save(me, thread_id, bad)
    with pytest.raises(BadRequest):
        drafts.save(me, thread_id, ["hi"])
    with pytest.raises(Unauthorized):
        drafts.save(make_user().actor, thread_id, {"text": "not my guest"})
    assert stored(live_engine, thread_id) == []


def test_saves_at_once_leave_one_draft(desk, live_engine):
    """The console saves as staff type, from worker threads: writes of one draft at once upsert, never fail."""
    me, thread_id = desk.shop.user.actor, desk.thread_id()
    texts = [f"Version {n}" for n in range(8)]
    barrier, failures = threading.Barrier(len(texts)), []

    def save(text: str) -> None:
        barrier.wait()
        try:
            live_engine.drafts.save(me, thread_id, {"text": text})
        except Exception as error:
            failures.append(error)

    workers = [threading.Thread(target=save, args=(text,)) for text in texts]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    assert failures == []
    [(text, _)] = stored(live_engine, thread_id)
    assert text in texts
