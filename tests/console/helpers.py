"""Helpers for driving the console in tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from console.screens.area import AreaScreen

SIZE = (120, 40)


async def settle(pilot: Pilot) -> None:
    """Let every worker finish and its messages land; a message that lands may start another worker."""
    while True:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if all(worker.is_finished for worker in pilot.app.workers):
            return


async def until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not met in time")


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*("space" if char == " " else char for char in text))


def select_row(screen: AreaScreen, title: str) -> dict[str, Any]:
    """Put the list's cursor on the row with this title and return that row."""
    row_id = next(key for key, row in screen.rows.items() if row["title"] == title)
    screen.table.move_cursor(row=screen.table.get_row_index(row_id))
    return screen.rows[row_id]


def titles(screen: AreaScreen) -> list[str]:
    return [row["title"] for row in screen.rows.values()]
