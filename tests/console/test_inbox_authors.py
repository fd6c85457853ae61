"""Staff names on replies and notes: "You" only for the signed-in user's own, a colleague by address, the API's
messages as the integration that sent them; the list's previews say the same, short."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

import pytest

from backend.engine import Engine
from console.inbox.conversation import MessageView
from tests.console.helpers import SIZE, frozen_clock, select_row, settle
from tests.console.test_inbox import open_inbox
from tests.console.test_inbox_assignment import ANNA, SMALL, reloaded_on

pytestmark = pytest.mark.anyio


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def replies_from_three(engine: Engine) -> str:
    """On Emma Clarke's thread: a reply from Anna at the console, one from the integrator through the API (its
    token), then a note from Anna; the operator's reply is the demo's. The thread's id."""
    anna, _ = engine.identity.add_user(ANNA)
    portfolio = engine.store.scalar("SELECT group_id FROM properties WHERE title = 'Hotel Edelweiss'")
    with engine.store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)", (portfolio, anna.user_id))
    anna = engine.identity.actor_for(ANNA)
    thread_id = engine.store.scalar("SELECT id FROM message_threads WHERE title = 'Emma Clarke'")
    integrator = engine.identity.actor_for("integrator@example.com")
    token = engine.store.scalar("SELECT id FROM api_tokens WHERE user_id = ?", (integrator.user_id,))
    written = [("messages", engine.chat.reply(anna, thread_id, {"message": "A cot is in the room."})),
               ("messages", engine.chat.reply(replace(integrator, token_id=token), thread_id,
                                              {"message": "Your booking is confirmed."})),
               ("thread_notes", engine.notes.add(anna, thread_id, {"message": "Cot from storage."}))]
    with engine.store.transaction() as conn:  # a second apart (the clock is frozen), so that their order is known
        for second, (table, item) in enumerate(written, start=1):
            conn.execute(f"UPDATE {table} SET inserted_at = ? WHERE id = ?", (f"2026-11-22T08:59:0{second}.000000",
                                                                             item["id"]))
    return thread_id


def labels(screen) -> list[str]:
    return [str(view.render()).splitlines()[0].split(" · ")[0] for view in screen.conversation.views.values()
            if isinstance(view, MessageView)]


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_each_reply_names_its_writer(engine: Engine, make_app, size) -> None:
    replies_from_three(engine)
    app = make_app(mode="inbox")
    async with app.run_test(size=size) as pilot:
        screen = await open_inbox(pilot)
        row = select_row(screen, "Emma Clarke")
        await settle(pilot)
        assert labels(screen) == ["Emma Clarke", "You", "Emma Clarke", ANNA, "Integration (API)", "Note"]
        shown = [str(view.render()) for view in screen.conversation.views.values()]
        assert shown[4].startswith("Integration (API) · integrator@example.com · ")
        assert shown[5].startswith(f"Note · {ANNA} · ")
        assert "API: Your booking is confirmed." in str(screen.table.get_cell(row["id"], "Conversation"))


async def test_as_anna_her_own_reply_is_yours_and_the_operators_is_not(engine: Engine) -> None:
    from tests.console.helpers import SteadyApp

    replies_from_three(engine)
    app = SteadyApp(engine, poll_interval=0.1, mode="inbox", user=ANNA)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        select_row(screen, "Emma Clarke")
        await settle(pilot)
        assert labels(screen) == ["Emma Clarke", "operator@frontdesk.example", "Emma Clarke", "You",
                                  "Integration (API)", "Note"]
        assert str(list(screen.conversation.views.values())[-1].render()).startswith("Note · You · ")


def test_snapshot_replies_by_name(snap_compare, make_app) -> None:
    async def shown(pilot) -> None:
        replies_from_three(pilot.app.engine)
        await reloaded_on(pilot)

    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=shown)
