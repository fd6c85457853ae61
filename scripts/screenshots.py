"""Regenerate screenshots/*.svg: every console screen at 120x40, over a fresh database of demo data.

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.demo import load_demo  # noqa: E402
from backend.engine import Engine  # noqa: E402
from console.app import FrontdeskApp  # noqa: E402

SIZE = (120, 40)
OUT = ROOT / "screenshots"

Steps = Callable[[Pilot], Awaitable[None]]


async def settle(pilot: Pilot) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*("space" if char == " " else char for char in text))


async def select(pilot: Pilot, title: str) -> None:
    screen = pilot.app.screen
    row_id = next(key for key, row in screen.rows.items() if row["title"] == title)
    screen.table.move_cursor(row=screen.table.get_row_index(row_id))
    await pilot.pause()


async def properties(pilot: Pilot) -> None:
    await select(pilot, "Hotel Edelweiss")


async def property_editor(pilot: Pilot) -> None:
    await select(pilot, "Hotel Edelweiss")
    await pilot.press("e")


async def property_editor_content(pilot: Pilot) -> None:
    await property_editor(pilot)
    await settle(pilot)
    editor = pilot.app.screen
    editor.query_one("#form").scroll_to_widget(editor.fields["content.description"], top=True, animate=False)


async def property_editor_errors(pilot: Pilot) -> None:
    await pilot.press("n")
    await settle(pilot)
    editor = pilot.app.screen
    await type_text(pilot, "Villa Aurora")
    editor.fields["currency"].value = "EURO"
    editor.fields["settings.state_length"].value = "50"
    await pilot.press("ctrl+s")


async def property_channels(pilot: Pilot) -> None:
    await select(pilot, "Northern Lights Hostel")
    await pilot.press("c")
    await settle(pilot)
    await pilot.press("down", "space")


async def confirm_delete(pilot: Pilot) -> None:
    await select(pilot, "Riad Yasmine")
    await pilot.press("d")


async def channels(pilot: Pilot) -> None:
    await pilot.press("2")


async def channel_new(pilot: Pilot) -> None:
    await pilot.press("2")
    await settle(pilot)
    await pilot.press("n")
    await type_text(pilot, "Expedia")


async def channel_inbound_key(pilot: Pilot) -> None:
    await channel_new(pilot)
    await pilot.press("ctrl+s")


async def help_screen(pilot: Pilot) -> None:
    await pilot.press("f1")


async def command_palette(pilot: Pilot) -> None:
    await pilot.press("ctrl+p")
    await type_text(pilot, "ho")
    await pilot.pause(0.5)


SHOTS: dict[str, Steps] = {
    "properties": properties,
    "property-editor": property_editor,
    "property-editor-content": property_editor_content,
    "property-editor-errors": property_editor_errors,
    "property-channels": property_channels,
    "confirm-delete": confirm_delete,
    "channels": channels,
    "channel-new": channel_new,
    "channel-inbound-key": channel_inbound_key,
    "help": help_screen,
    "command-palette": command_palette,
}


async def shoot(engine: Engine, name: str, steps: Steps) -> None:
    app = FrontdeskApp(engine, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)
        app.save_screenshot(f"{name}.svg", str(OUT))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # so that the app bar shows a short database path
        for name, steps in SHOTS.items():
            engine = Engine.open("frontdesk.db")
            if engine.is_empty():
                load_demo(engine)
            await shoot(engine, name, steps)
            engine.store.close()
            for leftover in Path(folder).glob("frontdesk.db*"):
                leftover.unlink()  # every shot starts from the demo data as loaded


if __name__ == "__main__":
    asyncio.run(main())
