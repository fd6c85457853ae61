"""The inbox's ages follow the clock while nothing changes: an hour on, "now" is no longer "now"."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from textual.coordinate import Coordinate

from console.inbox.screen import AGE_COLUMN, InboxScreen
from console.inbox.text import age
from tests.console.helpers import NOW, SIZE, settle

pytestmark = pytest.mark.anyio


class MovingClock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return MovingClock()


async def test_ages_tick_while_nothing_changes(make_app, clock) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        first = next(iter(screen.rows.values()))
        shown = str(screen.table.get_cell_at(Coordinate(0, AGE_COLUMN))).split("\n")[0]
        assert shown == age(first["last_message_received_at"], NOW)
        clock.now = NOW + timedelta(hours=5)
        screen.tick_ages()  # what the screen's timer does every 30 s
        await pilot.pause()
        later = str(screen.table.get_cell_at(Coordinate(0, AGE_COLUMN))).split("\n")[0]
        assert later == age(first["last_message_received_at"], clock.now) != shown
