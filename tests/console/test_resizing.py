"""Every area, and the main dialogs, survive any resize down to 40×12 with what staff had typed or chosen: the
window is shrunk and grown again through the sizes that crashed the inbox (the reply box drawn at no width)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from console.kit.choice import Choice
from tests.console.helpers import frozen_clock, settle, type_text
from tests.console.test_inbox import open_thread
from tests.console.test_inventory import HOTEL, ids
from tests.console.test_reviews import open_reviews

pytestmark = pytest.mark.anyio

# 200 → 120, 170 → 120, 160 → 100 and 200 → 80 ended the app; 40×12 is the least it must live through.
SIZES = ((200, 60), (120, 40), (80, 24), (40, 12), (160, 50), (100, 30), (170, 45), (120, 40), (200, 60), (80, 24))

State = Callable[[], Any]


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def second_row(pilot: Pilot) -> State:
    """An area's list with its cursor moved off the first row: the selection is the state kept."""
    table = pilot.app.screen.table
    table.focus()
    table.move_cursor(row=min(1, table.row_count - 1))
    return lambda: (pilot.app.screen.current_id(), pilot.app.focused is table)


async def inbox(pilot: Pilot) -> State:
    screen = await open_thread(pilot)
    await type_text(pilot, "A cot is ready in your room.")
    box = screen.conversation.compose_box
    return lambda: (box.text, screen.opened_id, pilot.app.focused is box)


async def inbox_with_a_draft(pilot: Pilot) -> State:
    """A draft left in one thread while another is read: the reply box is empty, its placeholder shown."""
    screen = await open_thread(pilot)
    await type_text(pilot, "A cot is ready in your room.")
    drafted = screen.opened_id
    await pilot.press("escape", "down")
    await settle(pilot)
    return lambda: (screen.conversation.drafts.get(drafted), screen.current_id())


async def area(pilot: Pilot, key: str) -> State:
    await settle(pilot)
    await pilot.press(key)
    await settle(pilot)
    return second_row(pilot)


async def inventory(pilot: Pilot) -> State:
    await area(pilot, "3")
    pilot.app.screen.query_one("#inventory-property", Choice).value = ids(pilot.app.engine)[HOTEL]
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)
    grid = pilot.app.focused
    await pilot.press("down", "right", "right")
    return lambda: (grid.cursor_coordinate, pilot.app.focused is grid)


async def reviews(pilot: Pilot) -> State:
    await settle(pilot)
    await pilot.press("7")
    screen = await open_reviews(pilot)
    screen.table.move_cursor(row=1)
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    await type_text(pilot, "Thank you for staying with us.")
    box = screen.pane.reply_box
    return lambda: (box.text, screen.current_id(), pilot.app.focused is box)


async def property_editor(pilot: Pilot) -> State:
    await settle(pilot)
    await pilot.press("1", "n")
    await settle(pilot)
    await type_text(pilot, "Nowhere Inn")
    editor = pilot.app.screen
    return lambda: (editor.fields["title"].value, pilot.app.screen is editor)


async def saved_reply_editor(pilot: Pilot) -> State:
    await settle(pilot)
    await pilot.press("0", "t", "n")
    await settle(pilot)
    await type_text(pilot, "Towels")
    await pilot.press("tab", "tab")  # past the scope, into the reply
    await type_text(pilot, "Fresh towels every day.")
    dialog = pilot.app.screen
    message = dialog.fields["message"].control
    assert isinstance(message, TextArea)
    return lambda: (dialog.fields["title"].value, message.text, pilot.app.screen is dialog)


async def message_rule_editor(pilot: Pilot) -> State:
    await settle(pilot)
    await pilot.press("0", "R", "n")
    await settle(pilot)
    await type_text(pilot, "Arrival details")
    dialog = pilot.app.screen
    return lambda: (dialog.fields["title"].value, pilot.app.screen is dialog)


async def range_editor(pilot: Pilot) -> State:
    await inventory(pilot)
    await pilot.press("e")
    await settle(pilot)
    dialog = pilot.app.screen
    await type_text(pilot, "5")
    focused = pilot.app.focused
    return lambda: (getattr(focused, "value", None), pilot.app.screen is dialog)


async def help_screen(pilot: Pilot) -> State:
    await settle(pilot)
    await pilot.press("f1")
    await settle(pilot)
    screen = pilot.app.screen
    return lambda: pilot.app.screen is screen


SCENES: dict[str, Callable[[Pilot], Awaitable[State]]] = {
    "inbox": inbox,
    "inbox, a draft on another thread": inbox_with_a_draft,
    "properties": lambda pilot: area(pilot, "1"),
    "channels": lambda pilot: area(pilot, "2"),
    "inventory": inventory,
    "shopping": lambda pilot: area(pilot, "4"),
    "bookings": lambda pilot: area(pilot, "5"),
    "tokenisation": lambda pilot: area(pilot, "6"),
    "reviews": reviews,
    "property editor": property_editor,
    "saved reply editor": saved_reply_editor,
    "message rule editor": message_rule_editor,
    "range editor": range_editor,
    "help": help_screen,
}


@pytest.mark.parametrize("scene", SCENES)
async def test_every_area_lives_through_any_resize_with_what_was_typed(make_app, scene: str) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZES[0]) as pilot:
        state = await SCENES[scene](pilot)
        await settle(pilot)
        before = state()
        for size in SIZES[1:]:
            await pilot.resize_terminal(*size)
            await settle(pilot)
            await pilot.pause()
            assert app.is_running, f"ended at {size}"
            assert state() == before, f"lost at {size}"
