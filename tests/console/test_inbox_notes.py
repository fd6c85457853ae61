"""Internal notes and mark unread in the console's inbox: ctrl+n turns the reply box into a note that only staff
see, shown among the messages and never mistaken for one; shift+u leaves a thread unread for later."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from textual.pilot import Pilot

from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inbox.conversation import MessageView
from console.inbox.notes import BOX_TITLE
from console.inbox.screen import InboxScreen
from tests.console.helpers import SIZE, frozen_clock, select_row, settle, type_text, until
from tests.console.test_inbox import messages, open_inbox, open_thread

pytestmark = pytest.mark.anyio
SMALL = (80, 24)


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def notes(engine: Engine, thread_id: str) -> list[dict]:
    rows, _ = engine.notes.list(engine.identity.operator(), thread_id, ListQuery(limit=100))
    return rows


def note_views(screen: InboxScreen) -> list[MessageView]:
    return [view for view in screen.conversation.views.values() if view.has_class("-note")]


def colleague_notes(engine: Engine, guest: str, text: str) -> None:
    """A note on a guest's thread by a colleague of the operator's (a member of the property's group)."""
    actor, _ = engine.identity.add_user("anna@example.com")
    thread_id = engine.store.scalar("SELECT id FROM message_threads WHERE title = ?", (guest,))
    group = engine.store.scalar("SELECT p.group_id FROM message_threads t JOIN properties p ON p.id = t.property_id "
                                "WHERE t.id = ?", (thread_id,))
    with engine.store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (group, actor.user_id))
    engine.notes.add(engine.identity.actor_for("anna@example.com"), thread_id, {"message": text})


async def conversation_with_a_note(pilot: Pilot) -> None:
    colleague_notes(pilot.app.engine, "Emma Clarke", "She asked for a quiet room: 304 is free.")
    await open_thread(pilot)
    await pilot.press("ctrl+n")
    await type_text(pilot, "Cot booked with housekeeping")
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("ctrl+n")
    await type_text(pilot, "Porter has her keys")


def test_snapshot_conversation_with_a_note(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=conversation_with_a_note)


def test_snapshot_conversation_with_a_note_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=conversation_with_a_note)


async def test_ctrl_n_writes_a_note_that_is_not_a_message(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread = screen.conversation.thread
        before = messages(engine, thread["id"])
        box = screen.conversation.compose_box
        await type_text(pilot, "Called her: lands at 23:00")
        await pilot.press("ctrl+n")
        assert box.has_class("-note") and box.border_title == BOX_TITLE  # the draft stays, now a note
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = notes(engine, thread["id"])
        assert [(n["message"], n["author_email"]) for n in saved] == [("Called her: lands at 23:00",
                                                                      "operator@frontdesk.example")]
        assert messages(engine, thread["id"]) == before
        assert engine.chat.thread(engine.identity.operator(), thread["id"])["message_count"] == len(before)
        assert box.text == "" and not box.has_class("-note") and box.border_title is None
        await until(pilot, lambda: len(note_views(screen)) == 1)
        view = note_views(screen)[0]
        shown = str(view.render())
        assert shown.startswith("Note · You · ") and "Called her: lands at 23:00" in shown
        assert list(screen.conversation.views.values())[-1] is view  # the newest item: after the messages
        assert "only staff see it" in str(screen.status.query_one("#status-news").render())
        assert screen.conversation.older == 0


async def test_ctrl_n_again_writes_a_reply_and_a_blank_note_is_refused(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread_id = screen.conversation.thread["id"]
        await pilot.press("ctrl+n")
        await type_text(pilot, "  ")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert notes(engine, thread_id) == [] and "blank" in str(screen.status.query_one("#status-news").render())
        await pilot.press("ctrl+n")
        assert not screen.conversation.compose_box.has_class("-note")
        await type_text(pilot, "Sure!")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert messages(engine, thread_id)[0]["message"].strip() == "Sure!" and notes(engine, thread_id) == []


async def test_a_colleagues_note_shows_with_its_author(engine: Engine, make_app) -> None:
    colleague_notes(engine, "Emma Clarke", "VIP: upgrade if free")
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        shown = [str(view.render()) for view in note_views(screen)]
        assert len(shown) == 1 and shown[0].startswith("Note · anna@example.com · ")
        # Another thread has no note; back on Emma's, it is there again.
        select_row(screen, "Maya Lin")
        await settle(pilot)
        assert note_views(screen) == []


async def test_shift_u_marks_a_thread_unread(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)  # opening it read it
        thread_id = screen.conversation.thread["id"]
        assert engine.chat.thread(engine.identity.operator(), thread_id)["unread_count"] == 0
        await pilot.press("escape", "U")
        await settle(pilot)
        assert engine.chat.thread(engine.identity.operator(), thread_id)["unread_count"] == 1
        await until(pilot, lambda: screen.rows[thread_id]["unread_count"] == 1)
        await settle(pilot)
        # It stays unread: no longer the opened thread, which a refresh would read again.
        assert engine.chat.thread(engine.identity.operator(), thread_id)["unread_count"] == 1
        assert "Marked Emma Clarke's conversation unread" in str(screen.status.query_one("#status-news").render())
        await pilot.press("u")  # unread only: it is listed
        await settle(pilot)
        assert thread_id in screen.rows


async def test_the_inbox_opens_without_notes_or_unread_changes(engine: Engine, make_app) -> None:
    """The demo's threads hold no notes: nothing of them shows until written."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        assert note_views(screen) == []


async def test_a_note_with_a_card_written_any_way_shows_masked(engine: Engine, make_app) -> None:
    colleague_notes(engine, "Emma Clarke", "Her card: 4111.1111.1111.1111, exp 12/31")
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        shown = [str(view.render()) for view in note_views(screen)]
        assert len(shown) == 1 and "Her card: 411111******1111, exp 12/31" in shown[0]
