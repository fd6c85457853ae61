"""The console shell: areas, help, command palette, themes, and a small terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette

from console.app import FrontdeskApp
from console.bookings.screen import BookingsScreen
from console.channels.screen import ChannelsScreen
from console.help import HelpScreen
from console.kit.app_bar import AppBar, fit_label
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from console.kit.toggles import Checkbox
from console.properties.editor import PropertyEditor
from console.properties.screen import PropertiesScreen
from console.settings import settings_path
from tests.console.helpers import SIZE, press_for, run_command, settle, type_text

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
        bar = app.screen.query_one(AppBar)
        await pilot.click(AppBar, offset=(str(bar.render()).index("2 Channels"), 0))
        assert isinstance(app.screen, ChannelsScreen)


@pytest.mark.parametrize("room, shown", [
    (70, "anna@example.com · /home/anna/.local/share/frontdesk/frontdesk.db"),
    (40, "anna@example.com · …ontdesk/frontdesk.db"),
    (12, "anna@exampl…"),  # too short for the path: the name first
])
def test_the_bar_shortens_the_database_from_its_start_and_keeps_the_user(room, shown) -> None:
    assert fit_label("anna@example.com · /home/anna/.local/share/frontdesk/frontdesk.db", room) == shown
    assert len(shown) <= room


async def test_at_80_columns_the_bar_shows_every_area_and_the_current_one_whole(make_app) -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        shown = str(pilot.app.screen.query_one(AppBar).render())
        assert "1 Properties" in shown and "2 Cha…" in shown and "7 Rev…" in shown and len(shown) <= 80


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


@pytest.fixture
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's config directory (where platformdirs looks on Linux), in the test's own folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


async def test_the_theme_is_remembered_between_runs(make_app, config_home: Path) -> None:
    assert settings_path().is_relative_to(config_home)
    async with make_app(settings=settings_path()).run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "frontdesk"
        pilot.app.theme = "frontdesk-light"
    async with make_app(settings=settings_path()).run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "frontdesk-light"
    settings_path().write_text("not json")
    async with make_app(settings=settings_path()).run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "frontdesk"  # an unreadable file: the defaults


async def test_has_its_own_themes(make_app) -> None:
    app: FrontdeskApp = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "frontdesk" and app.screen.styles.background.hex == "#15181D"
        app.theme = "frontdesk-light"
        await settle(pilot)  # the CSS parsed again with the light theme's colours (console/stylesheet.py)
        assert app.current_theme.dark is False and app.screen.styles.background.hex == "#F4F5F7"
        app.theme = "frontdesk"
        await settle(pilot)
        assert app.screen.styles.background.hex == "#15181D"


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


async def test_digits_switch_areas_only_from_a_list(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        editor = await press_for(pilot, "e", PropertyEditor)
        for kind in (Choice, Checkbox):  # fields of a form that take no text
            editor.query(kind).first().focus()
            await pilot.press("2", "0")
            assert app.screen is editor
        await pilot.press("alt+5")  # from anywhere
        await settle(pilot)
        bookings = app.screen
        assert isinstance(bookings, BookingsScreen)
        for widget in ("#bk-status", "#bk-unacked"):  # the filter bar
            bookings.query_one(widget).focus()
            await pilot.press("2", "1")
            assert app.screen is bookings
        await run_command(pilot, "channels")  # the palette, from the filter bar
        assert isinstance(app.screen, ChannelsScreen) and app.focused is app.screen.table
        await pilot.press("1")  # from an area's list
        assert app.screen is editor  # Properties, where the editor is still open
        await pilot.press("ctrl+p")
        await pilot.press("2")  # typed into the palette's search
        assert isinstance(app.screen, CommandPalette)
        await settle(pilot)  # its search done before the app stops (a search cut short looks for a list gone)
        await pilot.press("escape")


async def test_quit_asks_while_an_editor_holds_changes(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press_for(pilot, "e", PropertyEditor)
        await pilot.press("ctrl+q")  # nothing changed: quits at once
        assert not app.is_running
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        editor = await press_for(pilot, "e", PropertyEditor)
        await type_text(pilot, "x")
        await pilot.press("alt+2")  # the editor stays open in Properties while Channels is shown
        question = await press_for(pilot, "ctrl+q", ConfirmDialog)
        assert question.question == "Quit and lose your changes?"
        await pilot.press("n")
        assert app.is_running and editor.has_changes()
        await pilot.press("ctrl+q", "y")
        assert not app.is_running


async def test_checkboxes_show_their_state_in_the_glyph(make_app) -> None:
    app = make_app(mode="bookings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        checkbox = app.screen.query_one("#bk-unacked", Checkbox)
        assert checkbox.render().plain.startswith("▐ ▌")
        checkbox.value = True
        assert checkbox.render().plain.startswith("▐✓▌")
        await pilot.press("alt+2")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        active = app.screen.query_one("#channel-active", Checkbox)  # a form's: its label beside the glyph
        assert active.value and active.render().plain.startswith("▐✓▌ Active")
        active.value = False
        assert active.render().plain.startswith("▐ ▌ Active")
