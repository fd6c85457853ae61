"""The status line at 80 columns: where you are and what happened never run together (what happened comes first,
where you are gives way with an ellipsis), a message goes by itself, and toasts stay clear of the line."""

from __future__ import annotations

import pytest

from console.channels.screen import ChannelsScreen
from console.kit.status_line import StatusLine
from tests.console.helpers import press_for, select_row, settle, until

pytestmark = pytest.mark.anyio
NARROW = (80, 24)


def line_text(app, y: int) -> str:
    return "".join(segment.text for segment in app.screen._compositor.render_full_update().strips[y])  # type: ignore[attr-defined]


async def say_no_ari(pilot) -> ChannelsScreen:
    await settle(pilot)
    screen = await press_for(pilot, "2", ChannelsScreen)
    select_row(screen, "OpenShopping")
    await pilot.press("f")
    await settle(pilot)
    return screen


async def test_the_halves_of_the_status_line_stand_apart_at_80_columns(make_app) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        screen = await say_no_ari(pilot)
        where, news = screen.status.query_one("#status-where"), screen.status.query_one("#status-news")
        assert news.region.x >= where.region.right + 2
        assert news.region.height == 2  # the message whole, over two lines
        shown = line_text(app, where.region.y)
        assert "…" in shown[:where.region.right] and "“OpenShopping” gets no ARI" in shown


async def test_a_message_goes_by_itself(make_app, monkeypatch) -> None:
    monkeypatch.setattr(StatusLine, "news_seconds", 0.2)
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        screen = await press_for(pilot, "2", ChannelsScreen)
        screen.status.news("Saved “Expedia”")
        news = screen.status.query_one("#status-news")
        assert str(news.render()) == "Saved “Expedia”"
        await until(pilot, lambda: str(news.render()) == "")
        assert not screen.status.has_class("-news")


async def test_toasts_leave_the_status_line_in_view(make_app) -> None:
    app = make_app()
    async with app.run_test(size=NARROW, notifications=True) as pilot:
        screen = await say_no_ari(pilot)
        app.notify("A toast with a long message that takes two lines or more at eighty columns", timeout=30)
        await until(pilot, lambda: bool(app.screen.query("Toast")))
        await settle(pilot)
        toast = app.screen.query_one("Toast")
        assert toast.region.bottom <= screen.status.region.y


def test_a_queued_reply_is_said_in_one_line_at_80_columns() -> None:
    from console.inbox.text import QUEUED_ROOM, queued_text
    assert queued_text("Emma Clarke", "BookingCom") == "Reply to Emma Clarke queued for Booking.com: ◷ waiting"
    long = queued_text("Maximilian Alexander von Hohenberg-Lichtenstein", "BookingCom")
    assert long == "Reply to Maximilian queued for Booking.com" and len(long) <= QUEUED_ROOM
