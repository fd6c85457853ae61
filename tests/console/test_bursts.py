"""ctrl+s after a burst of typing (a paste, a text expander, a laggy SSH session) sends or saves exactly what was
typed before it: keys bound with priority wait behind the keys the focused box has still to take (kit/app.py)."""

from __future__ import annotations

import pytest

from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inbox.saved_replies import TemplateDialog
from tests.console.helpers import SIZE, burst, press_for, settle, type_text
from tests.console.test_inbox import open_thread
from tests.console.test_saved_replies import open_manager, templates

pytestmark = pytest.mark.anyio

LONG = ("Dear Emma, your room is ready from 2 o'clock; a cot is in it and the parking space is yours. "
        "Breakfast runs until ten. We look forward to seeing you tomorrow!")  # 158 characters


def replies(engine: Engine, thread_id: str) -> list[str]:
    """The staff's messages of the thread as the database holds them, oldest first (the real clock: each its time)."""
    rows, _ = engine.chat.thread_messages(engine.identity.operator(), thread_id, ListQuery(limit=100))
    return [row["message"] for row in reversed(rows) if row["sender"] == "property"]


async def test_a_long_burst_then_ctrl_s_sends_every_character(make_app, engine: Engine) -> None:
    assert len(LONG) == 158
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread_id, before = screen.opened_id, replies(engine, screen.opened_id)
        await burst(pilot, LONG, "ctrl+s")
        assert screen.conversation.compose_box.text == ""
    assert replies(engine, thread_id) == [*before, LONG]


async def test_a_short_burst_is_sent_alone_before_the_next_reply(make_app, engine: Engine) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread_id, before = screen.opened_id, replies(engine, screen.opened_id)
        await burst(pilot, "Short one.", "ctrl+s")
        await burst(pilot, "Thanks, see you soon!", "ctrl+s")
    assert replies(engine, thread_id) == [*before, "Short one.", "Thanks, see you soon!"]


async def test_a_saved_reply_typed_in_a_burst_is_stored_whole(make_app, engine: Engine) -> None:
    message = "Dear {guest_first_name}, checkout is until {checkout_time} on {departure_date}; we hope {arrival_date} went well."
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_manager(pilot)
        await press_for(pilot, "n", TemplateDialog)
        await type_text(pilot, "Checkout")
        await pilot.press("tab", "tab")  # past the scope, into the reply
        await burst(pilot, message, "ctrl+s")
        await settle(pilot)
    assert [t["message"] for t in templates(engine) if t["title"] == "Checkout"] == [message]
