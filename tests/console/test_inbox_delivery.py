"""A reply's delivery state is true: it waits for the channel (its adapter has not taken it from the outbox) until
the channel acknowledges it, here played by `frontdesk simulate`'s turn as the demo's channels; the status line says
the reply is queued, not sent."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

import pytest

from backend.engine import Engine
from backend.tools.simulate import EngineSink, Traffic
from tests.console.helpers import SIZE, frozen_clock, settle, type_text, until
from tests.console.test_inbox import open_thread
from tests.console.test_inbox_assignment import SMALL

pytestmark = pytest.mark.anyio


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def label(screen, message_id: str) -> str:
    return str(screen.conversation.views[message_id].render()).splitlines()[0]


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_a_reply_waits_for_the_channel_until_the_simulator_delivers_it(engine: Engine, make_app, size) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=size) as pilot:
        screen = await open_thread(pilot)
        await type_text(pilot, "A cot is ready.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        newest = engine.store.scalar("SELECT id FROM messages WHERE message = 'A cot is ready.'")
        await until(pilot, lambda: newest in screen.conversation.views)
        assert label(screen, newest).endswith("· ◷ waiting for the channel")
        assert "queued for Booking.com" in str(screen.status.query_one("#status-news").render())
        assert "sent" not in str(screen.status.query_one("#status-news").render())
        sink = EngineSink(engine)
        delivered = Traffic(sink.channels(), sink, engine.config.clock().date(), random.Random(1)).deliver()
        assert "BookingCom" in " ".join(delivered)
        await until(pilot, lambda: label(screen, newest).endswith("· ✓ delivered"))
        assert not [v for v in screen.conversation.views.values() if "waiting for the channel" in str(v.render())]
