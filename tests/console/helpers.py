"""Helpers for driving the console in tests."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from textual import events
from textual.keys import _character_to_key
from textual.pilot import Pilot
from textual.screen import Screen
from textual.worker import WorkerCancelled

from backend.engine import Engine
from console.app import FrontdeskApp
from console.kit.app_bar import AppBar
from console.kit.area import AreaScreen
from console.kit.field import Field

S = TypeVar("S", bound=Screen)


class Form(Protocol):
    fields: dict[str, Field]

SIZE = (120, 40)
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)  # where frozen_clock stands


def frozen_clock() -> datetime:
    return NOW


class SteadyApp(FrontdeskApp):
    """The console as tests and screenshots drive it: cursors that don't blink, so that every screenshot
    shows them alike."""

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if hasattr(event.widget, "cursor_blink"):
            event.widget.cursor_blink = False


async def settle(pilot: Pilot) -> None:
    """Let every worker finish and its messages land; a message that lands may start another worker."""
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:
            pass  # a newer load replaced an exclusive worker while we waited: wait for that one
        await pilot.pause()
        if all(worker.is_finished for worker in pilot.app.workers):
            return


async def press_for(pilot: Pilot, key: str, kind: type[S]) -> S:
    """Press a key, let what it starts finish, and return the screen then on top, which must be a `kind`."""
    await pilot.press(key)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


async def until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not met in time")


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*("space" if char == " " else char for char in text))


async def burst(pilot: Pilot, text: str, *keys: str) -> None:
    """Type `text`, then press `keys`, as fast as a terminal delivers a paste, a text expander or a laggy SSH
    session: every key reaches the app before it handles the first (pilot.press waits for the app after each)."""
    events_ = [events.Key(_character_to_key(char) if not char.isalnum() else char, char) for char in text]
    events_ += [events.Key(key, None) for key in keys]
    for event in events_:
        event.set_sender(pilot.app)
        pilot.app.post_message(event)
    await settle(pilot)


async def run_command(pilot: Pilot, text: str) -> None:
    """Type into the command palette and take its first hit."""
    await pilot.press("ctrl+p")
    await type_text(pilot, text)
    await pilot.pause(0.3)  # the palette searches as you type
    await pilot.press("enter")
    await settle(pilot)


def fill(form: Form, values: dict[str, Any]) -> None:
    """Put values into several fields at once, as a paste would; the tests type key by key where it matters."""
    for path, value in values.items():
        form.fields[path].value = value


async def save_refused(pilot: Pilot, form: Screen) -> None:
    """Save with ctrl+s; the engine refuses, so the form stays open with its messages."""
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert pilot.app.screen is form


def error_text(form: Form, path: str) -> str:
    """The message shown beside one field."""
    return str(form.fields[path].error.render())


def select_row(screen: AreaScreen, title: str) -> dict[str, Any]:
    """Put the list's cursor on the row with this title and return that row."""
    row_id = next(key for key, row in screen.rows.items() if row["title"] == title)
    screen.table.move_cursor(row=screen.table.get_row_index(row_id))
    return screen.rows[row_id]


def titles(screen: AreaScreen) -> list[str]:
    return [row["title"] for row in screen.rows.values()]


def add_hostel_channel(engine: Engine) -> None:
    """A channel in the demo hostel's group (New openings), as staff would add one in the Channels area: the
    only kind of channel the hostel can be connected to."""
    group = engine.store.scalar("SELECT id FROM groups WHERE title = 'New openings'")
    engine.channels.create(engine.identity.operator(), {"title": "Hostelworld via Booking.com", "channel": "BookingCom",
                                                        "group_id": group})


def tab_count(pilot: Pilot, tab: str) -> int:
    """The count a tab of the bar carries ("0 Inbox (18)", or "0 Inbox 18" where the bar is short); 0 for none."""
    shown = re.search(rf"{tab}(?: \(?(\d+)\)?)? ", str(pilot.app.screen.query_one(AppBar).render()))
    return int(shown[1] or 0)
