"""The inbox while guests write: the list holds still under the cursor and says what arrived above it, scrolls by
whole rows, goes to its ends with Home/End and g/G; the Inbox tab counts unread conversations from every area,
whichever process writes them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from textual.pilot import Pilot

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.tools.demo import load_demo
from console.inbox.screen import InboxScreen
from tests.console.helpers import SIZE, SteadyApp, frozen_clock, select_row, settle, tab_count, until
from tests.console.test_inbox import OPEN_THREADS, UNREAD, add_inquiries, add_inquiry, guest_writes

pytestmark = pytest.mark.anyio


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


async def open_inbox(pilot: Pilot) -> InboxScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, InboxScreen)
    return screen


def writes(engine: Engine, thread: dict, text: str) -> None:
    """The guest of any thread writes, through its own channel."""
    channel = engine.store.one("SELECT * FROM channels WHERE id = ?", (thread["channel_id"],))
    engine.chat.receive(channel, {"thread_id": thread["id"], "message": text})


def on_screen(screen: InboxScreen) -> int:
    """How far below the top of the list's view the cursor's row starts."""
    table = screen.table
    return table.cursor_row * screen.ROW_HEIGHT - round(table.scroll_y)


def marker(screen: InboxScreen) -> str:
    shown = screen.query_one("#new-above")
    return str(shown.render()) if shown.display and shown.region else ""


async def scrolled_down(pilot: Pilot, rows: int = 20) -> InboxScreen:
    screen = await open_inbox(pilot)
    for _ in range(rows):
        await pilot.press("down")
    await settle(pilot)
    return screen


async def two_arrive_while_scrolled_down(pilot: Pilot) -> None:
    screen = await scrolled_down(pilot)
    add_inquiries(pilot.app.engine, 2)
    await until(pilot, lambda: screen.page.total == OPEN_THREADS + 2)
    await settle(pilot)


def test_snapshot_new_above(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=two_arrive_while_scrolled_down)


async def test_arrivals_above_keep_the_row_in_place_and_are_announced(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await scrolled_down(pilot)
        row, where = screen.current_id(), on_screen(screen)
        assert screen.table.scroll_y > 0 and not marker(screen)
        add_inquiries(engine, 2)
        await until(pilot, lambda: screen.page.total == OPEN_THREADS + 2)
        await settle(pilot)
        assert screen.current_id() == row and on_screen(screen) == where
        assert screen.table.scroll_y % screen.ROW_HEIGHT == 0
        assert marker(screen) == "↑ 2 new conversations above · Home"
        await pilot.press("home")
        await settle(pilot)
        assert screen.table.scroll_y == 0 and screen.current_row()["title"] == "Guest 01" and not marker(screen)


async def test_a_message_in_a_thread_below_the_view_is_announced_when_it_comes_above(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await scrolled_down(pilot)
        last = list(screen.rows.values())[-1]
        row, where = screen.current_id(), on_screen(screen)
        writes(engine, last, "Still there?")
        await until(pilot, lambda: next(iter(screen.rows)) == last["id"])
        await settle(pilot)
        assert screen.current_id() == row and on_screen(screen) == where
        assert marker(screen) == "↑ 1 new conversation above · Home"
        await pilot.press("up")  # moving up to it, row by row, until it is in view
        while screen.table.scroll_y > 0:
            await pilot.press("up")
        await settle(pilot)
        assert not marker(screen)


async def test_rows_never_show_half_scrolled(make_app) -> None:
    """The list's view holds 33 lines at 120×40: two-line rows scroll by whole rows all the same."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        assert (screen.table.scrollable_content_region.height - screen.table.header_height) % 2 == 1
        for _ in range(26):
            await pilot.press("down")
            await settle(pilot)
            assert screen.table.scroll_y % 2 == 0
        assert screen.table.scroll_y == screen.table.max_scroll_y > 0
        for _ in range(26):
            await pilot.press("up")
            await settle(pilot)
            assert screen.table.scroll_y % 2 == 0


async def test_home_end_g_and_G(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        table = screen.table
        last = OPEN_THREADS - 1
        for key, row in (("end", last), ("home", 0), ("G", last), ("g", 0)):
            await pilot.press(key)
            await settle(pilot)
            assert table.cursor_row == row
            assert table.scroll_y == (table.max_scroll_y if row else 0)
        # With the conversation in focus, they go to its start and end.
        select_row(screen, "Emma Clarke")
        await settle(pilot)
        for n in range(30):
            guest_writes(app.engine, screen.current_row(), f"Message {n}")
        await until(pilot, lambda: len(screen.conversation.shown) > 30)
        await settle(pilot)
        box = screen.conversation.box
        box.focus()
        await pilot.press("g")
        await settle(pilot)
        assert box.scroll_y == 0 and table.cursor_row == 0
        await pilot.press("G")
        await settle(pilot)
        assert box.scroll_y == box.max_scroll_y > 0
        await pilot.press("home")
        await settle(pilot)
        assert box.scroll_y == 0


async def test_the_inbox_tab_counts_unread_conversations(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        assert tab_count(pilot, "0 Inbox") == UNREAD
        select_row(screen, "Emma Clarke")
        await pilot.press("enter")  # opening reads it
        await settle(pilot)
        assert tab_count(pilot, "0 Inbox") == UNREAD - 1


async def test_the_badge_follows_another_process_from_another_area(engine: Engine, make_app) -> None:
    """A message written by another process (the simulator, `serve`): the console sees it through data_version,
    on whatever area it shows."""
    app = make_app(mode="properties")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert tab_count(pilot, "0 Inbox") == UNREAD
        other = Engine.open(engine.location, engine.config)
        operator = other.identity.operator()
        emma = next(t for t in other.chat.threads(operator, ListQuery(limit=50))[0] if t["title"] == "Emma Clarke")
        other.chat.mark_read(operator, emma["id"])
        await until(pilot, lambda: tab_count(pilot, "0 Inbox") == UNREAD - 1)
        guest_writes(other, emma, "Hello again")
        await until(pilot, lambda: tab_count(pilot, "0 Inbox") == UNREAD)


async def test_the_console_follows_another_process_on_each_store(new_db, clock) -> None:
    """`frontdesk --db postgresql://…` as well as on a SQLite file: what another process writes reaches the console
    by the store's change stamp (PostgreSQL: its write-ahead log's position)."""
    database = new_db()
    engine = database.engine(Config(clock=clock))
    load_demo(engine)
    async with SteadyApp(engine, poll_interval=0.1, mode="properties").run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert tab_count(pilot, "0 Inbox") == UNREAD
        other = database.engine(Config(clock=clock))
        emma = next(t for t in other.chat.threads(other.identity.operator(), ListQuery(limit=50))[0]
                    if t["title"] == "Emma Clarke")
        other.chat.mark_read(other.identity.operator(), emma["id"])
        await until(pilot, lambda: tab_count(pilot, "0 Inbox") == UNREAD - 1)
        guest_writes(other, emma, "Hello again")
        await until(pilot, lambda: tab_count(pilot, "0 Inbox") == UNREAD)


def arrives(engine: Engine, n: int) -> None:
    """One more Airbnb inquiry, newer than any before it (add_inquiries' guests are a second apart from :00)."""
    add_inquiry(engine, f"Newcomer {n}", f"2026-11-22T08:59:{30 + n:02d}Z")


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_arrivals_one_after_another_are_all_counted(engine: Engine, make_app, size) -> None:
    """Each arrival is its own refresh: the earlier ones stay counted (the refill once forgot them all)."""
    app = make_app(mode="inbox")
    async with app.run_test(size=size) as pilot:
        screen = await scrolled_down(pilot, rows=6)
        total = screen.page.total
        for n in range(1, 5):
            arrives(engine, n)
            await until(pilot, lambda n=n: screen.page.total == total + n)
            await settle(pilot)
            assert marker(screen) == f"↑ {n} new conversation{'s' if n > 1 else ''} above · Home"
        await pilot.press("home")
        await settle(pilot)
        assert screen.current_row()["title"] == "Newcomer 4" and not marker(screen)
