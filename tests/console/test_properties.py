"""The properties list: paging, search, chat app, delete, and live refresh."""

from __future__ import annotations

import pytest

from backend.engine import Engine
from console.kit.area import PAGE_SIZE
from console.kit.confirm import ConfirmDialog
from console.properties.screen import PropertiesScreen
from tests.console.helpers import SIZE, select_row, settle, titles, type_text, until

pytestmark = pytest.mark.anyio

DEMO_TITLES = ["Casa do Mar", "Chalet Les Aiguilles", "Harbour Lights Apartments", "Hotel Edelweiss",
               "Northern Lights Hostel", "Pension Alpenrose", "Riad Yasmine", "Ryokan Hanabi"]


def status(screen: PropertiesScreen) -> str:
    return str(screen.query_one("#status-where").render())


async def test_lists_the_first_page_with_a_count(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PropertiesScreen)
        assert titles(screen) == DEMO_TITLES
        assert screen.table.row_count == 8
        assert status(screen) == "Page 1 of 1 · 8 properties"


async def test_pages_through_the_database(make_app, engine: Engine) -> None:
    actor = engine.identity.operator()
    for n in range(PAGE_SIZE + 2):
        engine.properties.create(actor, {"title": f"Zimmer {n:03d}", "currency": "EUR"})
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.table.row_count == PAGE_SIZE
        assert status(screen) == "Page 1 of 2 · 60 properties"
        await pilot.press("pagedown")
        await settle(pilot)
        assert titles(screen) == [f"Zimmer {n:03d}" for n in range(42, 52)]
        assert status(screen) == "Page 2 of 2 · 60 properties"
        await pilot.press("pagedown")  # already on the last page
        await settle(pilot)
        assert screen.page.number == 2
        await pilot.press("pageup")
        await settle(pilot)
        assert screen.page.number == 1 and titles(screen)[0] == "Casa do Mar"


async def test_search_filters_by_title(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        select_row(screen, "Riad Yasmine")
        await pilot.press("slash")
        assert app.focused.id == "search"
        await type_text(pilot, "lights")
        await pilot.pause(0.4)  # the search waits for typing to pause
        await settle(pilot)
        assert titles(screen) == ["Harbour Lights Apartments", "Northern Lights Hostel"]
        assert status(screen) == "Page 1 of 1 · 2 properties · title contains “lights”"
        assert screen.current_row()["title"] == "Harbour Lights Apartments"  # the first result
        await pilot.press("enter")
        assert app.focused is screen.table
        await pilot.press("slash", "ctrl+u", "enter")
        await settle(pilot)
        assert titles(screen) == DEMO_TITLES


async def test_a_toggles_the_chat_app(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        row = select_row(screen, "Pension Alpenrose")
        assert not engine.applications.is_installed(row["id"], "chat")
        await pilot.press("a")
        await settle(pilot)
        assert engine.applications.is_installed(row["id"], "chat")
        assert screen.rows[row["id"]]["chat"] is True
        await pilot.press("a")
        await settle(pilot)
        assert not engine.applications.is_installed(row["id"], "chat")


async def test_delete_asks_first(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        row = select_row(screen, "Riad Yasmine")
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert "Riad Yasmine" in titles(screen)
        await pilot.press("d", "y")
        await settle(pilot)
        assert "Riad Yasmine" not in titles(screen)
        assert engine.store.one("SELECT 1 FROM properties WHERE id = ?", (row["id"],)) is None
        assert str(screen.query_one("#status-news").render()) == "Deleted “Riad Yasmine”"


async def test_refreshes_when_the_engine_changes_a_property(make_app, engine: Engine) -> None:
    app = make_app(poll_interval=60)  # only the in-process event can tell the screen
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine.properties.create(engine.identity.operator(), {"title": "Apex Lodge", "currency": "NZD"})
        await until(pilot, lambda: "Apex Lodge" in titles(app.screen))


async def test_refreshes_when_another_connection_commits(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        other = Engine.open("frontdesk.db")  # its own connection and its own event bus, like another process
        other.properties.create(other.identity.operator(), {"title": "Apex Lodge", "currency": "NZD"})
        await until(pilot, lambda: "Apex Lodge" in titles(app.screen))
        other.store.close()


async def test_reloads_for_the_kinds_it_shows_alone(make_app, engine: Engine) -> None:
    """Another process's saved reply is nothing the properties list shows: it stays as it was, unread again; its
    property renamed there is shown at once."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen, fetched = app.screen, []
        read = screen.fetch
        screen.fetch = lambda number: fetched.append(number) or read(number)
        other = Engine.open("frontdesk.db")  # its own connection and its own event bus, like another process
        operator, hotel = other.identity.operator(), other.properties.options(other.identity.operator())[0]
        other.message_templates.create(operator, {"title": "Late arrival", "message": "We wait for you.",
                                                  "property_id": hotel["id"]})
        await until(pilot, lambda: "saved_reply.changed" in app.kind_generations)
        await settle(pilot)
        assert fetched == []
        other.properties.update(operator, hotel["id"], {"title": "Renamed Elsewhere"})
        await until(pilot, lambda: "Renamed Elsewhere" in titles(app.screen))
        assert fetched
        other.store.close()
