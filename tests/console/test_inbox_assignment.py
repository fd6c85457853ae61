"""Assignment in the console: a picks who answers a thread among the users of its property's group, m shows your
threads, then nobody's, then everyone's; `frontdesk --as EMAIL` runs the console as that user, named in the bar,
so that "mine" means theirs (the local operator has none unless assigned)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from datetime import datetime

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from backend.engine import Engine
from console.inbox.assign import AssignDialog
from console.inbox.screen import InboxScreen
from console.kit.app_bar import AppBar
from tests.console.helpers import SIZE, SteadyApp, frozen_clock, press_for, select_row, settle
from tests.console.test_inbox import OPEN_THREADS, guests_listed, open_inbox

pytestmark = pytest.mark.anyio
SMALL = (80, 24)
ANNA = "anna@example.com"


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


@pytest.fixture
def anna(engine: Engine) -> str:
    """A front-desk colleague in the demo portfolio's group (Emma Clarke's hotel is in it); her id."""
    actor, _ = engine.identity.add_user(ANNA)
    portfolio = engine.store.scalar("SELECT group_id FROM properties WHERE title = 'Hotel Edelweiss'")
    with engine.store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (portfolio, actor.user_id))
    return actor.user_id


def assignee(engine: Engine, guest: str) -> str | None:
    return engine.store.scalar("SELECT assignee_id FROM message_threads WHERE title = ?", (guest,))


async def open_picker(pilot: Pilot) -> AssignDialog:
    screen = await open_inbox(pilot)
    select_row(screen, "Emma Clarke")
    await settle(pilot)
    return await press_for(pilot, "a", AssignDialog)


async def picker_with_a_colleague(pilot: Pilot) -> None:
    engine = pilot.app.engine
    actor, _ = engine.identity.add_user(ANNA)
    portfolio = engine.store.scalar("SELECT group_id FROM properties WHERE title = 'Hotel Edelweiss'")
    with engine.store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (portfolio, actor.user_id))
    await open_picker(pilot)


def test_snapshot_assignment_picker(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=picker_with_a_colleague)


def test_snapshot_assignment_picker_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=picker_with_a_colleague)


async def test_assign_to_a_colleague_then_to_yourself_then_nobody(engine: Engine, make_app, anna: str) -> None:
    operator = engine.identity.operator()
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_picker(pilot)
        options = picker.query_one("#assign-options", OptionList)
        labels = [str(options.get_option_at_index(i).prompt).strip() for i in range(options.option_count)]
        # Nobody (the current one, marked), you, then the group's other users by email.
        assert labels == ["● Nobody (unassigned)", "operator@frontdesk.example (you)", ANNA, "integrator@example.com"]
        options.highlighted = 2
        await pilot.press("enter")
        await settle(pilot)
        assert assignee(engine, "Emma Clarke") == anna
        screen = app.screen
        assert "Emma Clarke's conversation is assigned to anna@example.com" in str(
            screen.status.query_one("#status-news").render())
        assert str(screen.conversation.query_one("#conv-header").render()).splitlines()[-1] == f"→ {ANNA}"

        picker = await press_for(pilot, "a", AssignDialog)
        options = picker.query_one("#assign-options", OptionList)
        assert str(options.get_option_at_index(options.highlighted).prompt).strip() == f"● {ANNA}"
        options.highlighted = 1
        await pilot.press("enter")
        await settle(pilot)
        assert assignee(engine, "Emma Clarke") == operator.user_id

        picker = await press_for(pilot, "a", AssignDialog)
        picker.query_one("#assign-options", OptionList).highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert assignee(engine, "Emma Clarke") is None
        assert "Emma Clarke's conversation is unassigned" in str(screen.status.query_one("#status-news").render())


async def test_escape_leaves_the_assignment_as_it_was(engine: Engine, make_app, anna: str) -> None:
    engine.chat.update_thread(engine.identity.operator(), engine.store.scalar(
        "SELECT id FROM message_threads WHERE title = 'Emma Clarke'"), {"assignee_id": anna})
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_picker(pilot)
        await press_for(pilot, "escape", InboxScreen)
        assert assignee(engine, "Emma Clarke") == anna


async def test_m_shows_mine_then_unassigned_then_everyone(engine: Engine, make_app, anna: str) -> None:
    operator = engine.identity.operator()
    ids = {guest: engine.store.scalar("SELECT id FROM message_threads WHERE title = ?", (guest,))
           for guest in ("Emma Clarke", "Maya Lin")}
    engine.chat.update_thread(operator, ids["Emma Clarke"], {"assignee_id": operator.user_id})
    engine.chat.update_thread(operator, ids["Maya Lin"], {"assignee_id": anna})
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        where = screen.status.query_one("#status-where")
        await pilot.press("m")
        await settle(pilot)
        assert guests_listed(screen) == ["Emma Clarke"] and "mine" in str(where.render())
        assert str(screen.query_one("#ib-assigned").render()).startswith("mine")
        await pilot.press("m")
        await settle(pilot)
        assert screen.page.total == OPEN_THREADS - 2 and "nobody's" in str(where.render())
        assert str(screen.query_one("#ib-assigned").render()).startswith("nobody's")
        assert not {"Emma Clarke", "Maya Lin"} & set(guests_listed(screen))
        await pilot.press("m")
        await settle(pilot)
        assert screen.page.total == OPEN_THREADS and "mine" not in str(where.render())
        assert str(screen.query_one("#ib-assigned").render()).startswith("everyone's")


async def test_as_a_named_user_the_bar_names_them_and_mine_is_theirs(engine: Engine, anna: str) -> None:
    operator = engine.identity.operator()
    emma = engine.store.scalar("SELECT id FROM message_threads WHERE title = 'Emma Clarke'")
    engine.chat.update_thread(operator, emma, {"assignee_id": anna})
    app = SteadyApp(engine, poll_interval=0.1, mode="inbox", user=ANNA)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        assert f" {ANNA[:8]}" in str(screen.query_one(AppBar).render())  # at 120 columns, "anna@exa…"
        # The console acts as Anna, with her groups (her own and the portfolio), not as the operator of them all.
        actor = app.actor()
        assert actor.email == ANNA and actor.user_id == anna and len(actor.group_ids) == 2
        await pilot.press("m")
        await settle(pilot)
        assert guests_listed(screen) == ["Emma Clarke"]
        # As her, she is "you" in the picker.
        select_row(screen, "Emma Clarke")
        await settle(pilot)
        picker = await press_for(pilot, "a", AssignDialog)
        options = picker.query_one("#assign-options", OptionList)
        assert str(options.get_option_at_index(options.highlighted).prompt).strip() == f"● {ANNA} (you)"


async def test_the_operator_has_no_threads_of_its_own_unless_assigned(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert screen.page.total == 0


def test_an_unknown_user_is_a_clear_error_and_exit_1(tmp_path) -> None:
    db = tmp_path / "as.db"
    result = subprocess.run([sys.executable, "-m", "console", "--as", "nobody@example.com", "--db", str(db)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip() == "error: there is no user nobody@example.com; `frontdesk users list` shows them"
    assert "Traceback" not in result.stderr


LONG = "reception.desk@hotel-edelweiss.example"


def assign_some(engine: Engine) -> None:
    """Emma Clarke's thread to a colleague with a long address, Maya Lin's to the operator; the rest nobody's."""
    actor, _ = engine.identity.add_user(LONG)
    portfolio = engine.store.scalar("SELECT group_id FROM properties WHERE title = 'Hotel Edelweiss'")
    with engine.store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (portfolio, actor.user_id))
    operator = engine.identity.operator()
    for guest, user_id in (("Emma Clarke", actor.user_id), ("Maya Lin", operator.user_id)):
        thread_id = engine.store.scalar("SELECT id FROM message_threads WHERE title = ?", (guest,))
        engine.chat.update_thread(operator, thread_id, {"assignee_id": user_id})


async def reloaded_on(pilot: Pilot, guest: str = "Emma Clarke") -> None:
    """The inbox read again after the test wrote to the engine behind it, the cursor on a guest's thread."""
    screen = await open_inbox(pilot)
    screen.reload()
    await settle(pilot)
    select_row(screen, guest)
    await settle(pilot)


async def assigned_and_opened(pilot: Pilot) -> None:
    assign_some(pilot.app.engine)
    await reloaded_on(pilot)


def test_snapshot_assignees_listed(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=assigned_and_opened)


def test_snapshot_assignees_listed_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=assigned_and_opened)


def assignee_cells(screen: InboxScreen) -> dict[str, str]:
    table = screen.table
    return {row["title"]: str(table.get_cell(row_id, "Assignee")) for row_id, row in screen.rows.items()}


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_every_row_says_whose_it_is_and_the_filter_bar_whose_are_shown(engine: Engine, make_app, size) -> None:
    assign_some(engine)
    app = make_app(mode="inbox")
    async with app.run_test(size=size) as pilot:
        screen = await open_inbox(pilot)
        cells = assignee_cells(screen)
        assert cells["Emma Clarke"] == "reception.desk" and cells["Maya Lin"] == "you"
        assert cells["Sofía López"] == "nobody"
        assert "Assignee" not in screen.table.hidden  # kept at 80 columns
        assert str(screen.query_one("#ib-assigned").render()).startswith("everyone's")
        await pilot.press("m")
        await settle(pilot)
        assert str(screen.query_one("#ib-assigned").render()).startswith("mine")
        assert set(assignee_cells(screen).values()) == {"you"}


async def test_the_header_keeps_the_assignee_whole_at_120_columns(engine: Engine, make_app) -> None:
    assign_some(engine)
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        select_row(screen, "Emma Clarke")
        await settle(pilot)
        header = screen.conversation.query_one("#conv-header")
        lines = ["".join(segment.text for segment in header.render_line(y)).rstrip()
                 for y in range(header.size.height)]
        assert lines[-1] == f"→ {LONG}" and not lines[1].endswith("→")
