"""One way to type a date in every console form (backend/core/typed_dates.py), and after a refused date the focus
stays on its field: never on a dropdown or a table, where typed digits would switch areas."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from textual.widgets import Input

from backend.engine import Engine
from console.inventory.jump import JumpDialog
from console.inventory.range_dialog import RangeEditDialog
from console.shopping.screen import ShoppingScreen
from tests.console.helpers import SIZE, fill, frozen_clock, press_for, save_refused, settle, type_text
from tests.console.test_inventory import DOUBLE, ids, open_inventory, open_range

pytestmark = pytest.mark.anyio
CONSOLE = Path(__file__).resolve().parents[2] / "console"
# An Input that takes a date: its id, classes or placeholder say so.
DATE_INPUT = re.compile(r'Input\([^\n]*(id="[^"]*\b(date|checkin|checkout|arrival|departure|from|to)\b|date-input'
                        r'|placeholder="(from|to)"|EXAMPLES|DATE_HINT)', re.IGNORECASE)


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # today is 2026-11-22


def test_every_date_field_of_the_console_goes_through_typed_dates() -> None:
    modules = {path: path.read_text() for path in CONSOLE.rglob("*.py")}
    dated = [path for path, text in modules.items() if DATE_INPUT.search(text)]
    assert len(dated) >= 4  # the calendar's jump and range editor, Bookings' arrival filter, Shopping's stay
    assert [path.relative_to(CONSOLE).as_posix() for path in dated if "backend.core.typed_dates" not in modules[path]
            ] == []
    assert [path.name for path, text in modules.items() if "YYYY" in text] == []
    assert [path.name for path, text in modules.items() if re.search(r"fromisoformat\([^)]*\.value", text)] == []


async def shopping(pilot) -> ShoppingScreen:
    await settle(pilot)
    return await press_for(pilot, "4", ShoppingScreen)


async def test_shopping_takes_dates_as_staff_type_them(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shopping(pilot)
        screen.query_one("#shop-checkin", Input).value = "5 Dec"
        screen.query_one("#shop-checkout", Input).value = "+16"
        screen.query_one("#shop-checkin", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert (screen.stay.checkin, screen.stay.checkout) == ("2026-12-05", "2026-12-08")
        assert screen.query_one("#shop-checkout", Input).value == "2026-12-08"


async def test_a_refused_date_keeps_the_focus_in_shopping(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shopping(pilot)
        before = screen.stay
        field = screen.query_one("#shop-checkout", Input)
        field.value = "31/02"
        field.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert screen.stay == before and app.focused is field
        assert str(screen.query_one("#status-news").render()) == "There is no 31 Feb 2026"
        await type_text(pilot, "1")  # digits go on into the field, not to the area keys
        assert app.screen is screen and app.focused is field and field.value.endswith("1")


async def test_a_refused_date_keeps_the_focus_in_the_range_editor(make_app, engine: Engine) -> None:
    app = make_app()
    plan = ids(engine)[f"{DOUBLE} / Best Available Rate"]
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_range(pilot, f"rate:{plan}", "2026-11-24")
        fill(dialog, {"date_to": "31/02", "rate": "301"})
        await save_refused(pilot, dialog)
        assert app.focused is dialog.fields["date_to"].control


async def test_a_refused_date_keeps_the_focus_in_the_jump(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_inventory(pilot, "calendar")
        jump = await press_for(pilot, "j", JumpDialog)
        await type_text(pilot, "32 Dec")
        await press_for(pilot, "enter", JumpDialog)
        assert app.focused is jump.field.control
        assert not isinstance(app.screen, RangeEditDialog)
