"""The status line at 80 columns: where you are and what happened never run together, what happened goes after a
while, and toasts stand above it."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from textual.widgets._toast import Toast

import console.kit.status_line
from console.channels.screen import ChannelsScreen
from tests.console.helpers import press_for, settle, until

pytestmark = pytest.mark.anyio

NARROW = (80, 24)
LONG_NEWS = "“Airbnb” gets no ARI from Frontdesk: it reads availability and rates from its own calendar sync"


def shown(widget: Static) -> str:
    return "".join(widget.render_line(y).text for y in range(widget.size.height)).rstrip()


async def test_where_you_are_and_what_happened_keep_apart_and_a_long_message_is_cut(make_app) -> None:
    async with make_app().run_test(size=NARROW) as pilot:
        await settle(pilot)
        screen = await press_for(pilot, "2", ChannelsScreen)
        screen.status.news(LONG_NEWS)
        await settle(pilot)
        where, news = screen.query_one("#status-where", Static), screen.query_one("#status-news", Static)
        assert news.region.x - where.region.right >= 2  # a gap, whatever the two say
        assert shown(news).endswith("…") and shown(news).startswith("“Airbnb” gets no ARI")
        assert news.region.height == 1 and news.region.right <= NARROW[0]


async def test_what_happened_goes_after_a_while(make_app, monkeypatch) -> None:
    monkeypatch.setattr(console.kit.status_line, "NEWS_KEPT", 0.2)
    async with make_app().run_test(size=NARROW) as pilot:
        await settle(pilot)
        screen = await press_for(pilot, "2", ChannelsScreen)
        screen.status.news("Channel paused")
        news = screen.query_one("#status-news", Static)
        await until(pilot, lambda: "Channel paused" in shown(news))
        await until(pilot, lambda: shown(news) == "")


async def test_a_toast_stands_above_the_status_line(make_app) -> None:
    async with make_app().run_test(size=NARROW, notifications=True) as pilot:
        await settle(pilot)
        screen = await press_for(pilot, "2", ChannelsScreen)
        pilot.app.notify("Something went wrong with a channel", severity="error")
        await until(pilot, lambda: bool(pilot.app.screen.query(Toast)))
        await settle(pilot)
        toast = pilot.app.screen.query_one(Toast)
        assert toast.region.bottom <= screen.status.region.y
