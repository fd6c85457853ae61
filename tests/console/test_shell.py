"""The console shell: areas, help, command palette, themes, and a small terminal."""

from __future__ import annotations

import pytest

from console.app import FrontdeskApp
from console.screens.channels import ChannelsScreen
from console.screens.help import HelpScreen
from console.screens.properties import PropertiesScreen
from console.screens.property_editor import PropertyEditor
from console.widgets.app_bar import AreaTab
from tests.console.helpers import SIZE, run_command, settle

pytestmark = pytest.mark.anyio


async def test_help_opens_with_f1_or_question_mark(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for key in ("f1", "question_mark"):
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert isinstance(app.screen, PropertiesScreen)


async def test_areas_by_key_and_by_click(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, ChannelsScreen) and app.screen.table.row_count == 3
        await pilot.press("1")
        assert isinstance(app.screen, PropertiesScreen)
        tab = next(t for t in app.screen.query(AreaTab) if t.mode == "channels")
        await pilot.click(tab)
        assert isinstance(app.screen, ChannelsScreen)


async def test_the_palette_goes_to_properties_and_areas(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await run_command(pilot, "edelw")
        editor = app.screen
        assert isinstance(editor, PropertyEditor)
        assert editor.fields["title"].value == "Hotel Edelweiss"
        await pilot.press("escape")  # nothing changed: closes without asking
        assert isinstance(app.screen, PropertiesScreen)
        await run_command(pilot, "channels")
        assert isinstance(app.screen, ChannelsScreen)


async def test_has_its_own_themes(make_app) -> None:
    app: FrontdeskApp = make_app()
    async with app.run_test(size=SIZE):
        assert app.theme == "frontdesk"
        app.theme = "frontdesk-light"
        assert app.current_theme.dark is False


async def test_still_works_in_80_by_24(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.table.row_count == 8
        assert screen.table.size.height >= 8  # every demo property fits
        await pilot.press("e")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, PropertyEditor)
        assert editor.fields["title"].control.size.width >= 15
