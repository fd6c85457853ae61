"""Drafts across restarts (console/inbox/drafts.py over backend/chat/drafts.py): what is typed in the reply box is
saved as typing settles, and at once when quitting, which asks first while replies are unsent; the next start puts
each draft back in its thread's box, a note as a note."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from textual.pilot import Pilot

from backend.engine import Engine
from console.kit.confirm import ConfirmDialog
from tests.console.helpers import SIZE, frozen_clock, press_for, settle, type_text, until
from tests.console.test_inbox import open_thread

pytestmark = pytest.mark.anyio
SMALL = (80, 24)


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def kept(engine: Engine) -> list[tuple[str, str, str]]:
    return [(d["title"], d["text"], d["kind"]) for d in engine.drafts.mine(engine.identity.operator())]


async def ask_to_quit(pilot: Pilot) -> None:
    """A reply written to Emma Clarke, a note to Maya Lin, then ctrl+q."""
    await open_thread(pilot)
    await type_text(pilot, "See you at 9")
    await open_thread(pilot, "Maya Lin")
    await pilot.press("ctrl+n")
    await type_text(pilot, "Wants a cot")
    await press_for(pilot, "ctrl+q", ConfirmDialog)


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_snapshot_quit_with_unsent_replies(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=size, run_before=ask_to_quit)


async def test_a_draft_is_back_after_a_crash(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread(pilot)
        await type_text(pilot, "Your room is ready")
        await until(pilot, lambda: kept(engine) == [("Emma Clarke", "Your room is ready", "reply")])
    # The app ended without quitting (as a crash or a closed terminal would): the next start has the draft.
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        await settle(pilot)
        assert screen.conversation.compose_box.text == "Your room is ready"
        await pilot.press("ctrl+s")  # sent from the draft: the draft goes
        await settle(pilot)
        await until(pilot, lambda: kept(engine) == [])


async def test_quitting_with_unsent_replies_asks_and_keeps_them(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread(pilot)
        await type_text(pilot, "See you at 9")
        await open_thread(pilot, "Maya Lin")
        await pilot.press("ctrl+n")
        await type_text(pilot, "Wants a cot")  # a note, typed just before quitting: saved by the quit itself
        question = await press_for(pilot, "ctrl+q", ConfirmDialog)
        assert question.question == "Quit with 1 reply and 1 note unsent?"
        assert question.detail.startswith("1 reply and 1 note not sent yet (")
        assert "Emma Clarke" in question.detail and "Maya Lin" in question.detail
        assert sorted(kept(engine)) == [("Emma Clarke", "See you at 9", "reply"), ("Maya Lin", "Wants a cot", "note")]
        await pilot.press("n")  # stays
        assert app.is_running
        await pilot.press("ctrl+q")
        await settle(pilot)
        await pilot.press("ctrl+q")  # a second ctrl+q on the question quits
        assert not app.is_running

    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot, "Maya Lin")
        await settle(pilot)
        assert screen.conversation.compose_box.text == "Wants a cot"
        assert screen.conversation.writing_note  # back as the note it was
        screen = await open_thread(pilot)
        assert screen.conversation.compose_box.text == "See you at 9"
        assert not screen.conversation.writing_note


async def test_nothing_written_quits_at_once(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread(pilot)
        await type_text(pilot, "x")
        await pilot.press("backspace")
        await pilot.press("ctrl+q")
        assert not app.is_running
    assert kept(engine) == []
