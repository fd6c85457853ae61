"""A change about one thread reloads that thread alone: its row in the list (moved as the list's order says), and the
conversation only when it is the one shown; whatever is typed in the reply box stays. A change that names no
thread reloads the list and the conversation, as every change once did. The engine's reads are counted here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from textual.pilot import Pilot

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inbox.screen import InboxScreen
from console.kit.messages import DataChanged
from tests.console.helpers import SIZE, frozen_clock, settle, type_text, until
from tests.console.test_inbox import guest_writes, guests_listed, open_thread
from tests.console.test_inbox_live import writes

pytestmark = pytest.mark.anyio

DRAFT = "Your room is ready from"


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def count_reads(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the console reads a page of the list ("page"), chosen rows of it ("rows"), and a conversation's
    messages ("conversation") from here on."""
    reads: Counter[str] = Counter()
    chat = engine.chat
    threads, thread_messages = chat.threads, chat.thread_messages

    def counted_threads(actor: Any, query: ListQuery) -> Any:
        reads["rows" if any(f.field == "id" for f in query.filters) else "page"] += 1
        return threads(actor, query)

    def counted_messages(*args: Any, **options: Any) -> Any:
        reads["conversation"] += 1
        return thread_messages(*args, **options)

    monkeypatch.setattr(chat, "threads", counted_threads)
    monkeypatch.setattr(chat, "thread_messages", counted_messages)
    return reads


async def writing_to_emma(pilot: Pilot) -> InboxScreen:
    """Emma Clarke's conversation open, a reply half written, the conversation scrolled up from its end."""
    screen = await open_thread(pilot)
    await type_text(pilot, DRAFT)
    screen.conversation.box.scroll_to(y=0, animate=False)
    await settle(pilot)
    return screen


def other_thread(screen: InboxScreen) -> dict[str, Any]:
    """A thread below Emma's."""
    return list(screen.rows.values())[list(screen.rows).index(screen.conversation.thread["id"]) + 1]


def unchanged(screen: InboxScreen, pilot: Pilot, emma: str, scroll: float) -> None:
    conversation = screen.conversation
    assert conversation.thread["id"] == emma and screen.current_id() == emma
    assert conversation.compose_box.text == DRAFT and pilot.app.focused is conversation.compose_box
    assert conversation.box.scroll_y == scroll


async def test_a_message_in_another_thread_moves_its_row_and_leaves_the_conversation_alone(
        engine: Engine, make_app, monkeypatch) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await writing_to_emma(pilot)
        emma, scroll, other = screen.conversation.thread["id"], screen.conversation.box.scroll_y, other_thread(screen)
        reads = count_reads(engine, monkeypatch)
        writes(engine, other, "Can we check in early?")
        await until(pilot, lambda: guests_listed(screen)[0] == other["title"])
        await settle(pilot)
        assert screen.rows[other["id"]]["last_message"]["message"] == "Can we check in early?"
        assert reads == {"rows": 1}  # that thread's row alone: neither the page nor Emma's conversation again
        unchanged(screen, pilot, emma, scroll)


async def test_a_message_in_the_open_thread_reloads_it_and_its_row_alone(engine: Engine, make_app,
                                                                         monkeypatch) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await writing_to_emma(pilot)
        thread = screen.conversation.thread
        reads = count_reads(engine, monkeypatch)
        message = guest_writes(engine, thread, "We land at six.")
        await until(pilot, lambda: screen.conversation.shown[-1][0] == message["id"])
        await settle(pilot)
        assert guests_listed(screen)[0] == "Emma Clarke" and screen.current_id() == thread["id"]
        assert reads["page"] == 0 and reads["rows"] >= 1
        assert screen.conversation.compose_box.text == DRAFT and pilot.app.focused is screen.conversation.compose_box


async def test_another_process_s_message_reloads_its_thread_alone(engine: Engine, make_app, monkeypatch) -> None:
    """The subject comes through the database too: the outbox's event of a guest's message, the changes feed's row
    of a reply."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await writing_to_emma(pilot)
        emma, scroll, other = screen.conversation.thread["id"], screen.conversation.box.scroll_y, other_thread(screen)
        reads = count_reads(engine, monkeypatch)
        elsewhere = Engine.open(engine.location, Config(clock=frozen_clock))
        writes(elsewhere, other, "Is there parking?")
        await until(pilot, lambda: guests_listed(screen)[0] == other["title"])
        elsewhere.chat.reply(elsewhere.identity.operator(), other["id"], {"message": "Yes, in the courtyard."})
        await until(pilot, lambda: screen.rows[other["id"]]["last_message"]["message"] == "Yes, in the courtyard.")
        await settle(pilot)
        assert reads["page"] == reads["conversation"] == 0
        unchanged(screen, pilot, emma, scroll)


async def test_a_change_that_names_no_thread_reloads_the_list_and_the_conversation(engine: Engine, make_app,
                                                                                    monkeypatch) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await writing_to_emma(pilot)
        reads = count_reads(engine, monkeypatch)
        app.post_message(DataChanged("user.changed"))
        await until(pilot, lambda: reads["page"] == 1 and reads["conversation"] >= 1)
        await settle(pilot)
        assert screen.conversation.compose_box.text == DRAFT


async def test_a_burst_over_more_threads_than_a_page_reads_the_page_once(engine: Engine, make_app,
                                                                         monkeypatch) -> None:
    """Changes of fifty threads are fifty rows looked for and no page read; of fifty-one at once (before any row is
    read back), the page, read once, with what is typed kept."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await writing_to_emma(pilot)
        reads = count_reads(engine, monkeypatch)
        for n in range(50):
            screen.post_message(DataChanged("message.received", f"elsewhere-{n}"))
        await settle(pilot)
        assert reads["page"] == 0 and reads["rows"] >= 1
        for n in range(51):
            screen.post_message(DataChanged("message.received", f"burst-{n}"))
        await until(pilot, lambda: reads["page"] == 1)
        await settle(pilot)
        assert reads["page"] == 1 and screen.conversation.compose_box.text == DRAFT
