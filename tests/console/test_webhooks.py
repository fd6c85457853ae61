"""The integrators' webhooks, opened from the Channels area with `w`: pause and unpause, resume a failing one, send a
test event to a real receiver on loopback, read the delivery log, delete."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

import pytest

from backend.engine import Engine
from console.channels.delivery_log import DeliveryLogDialog
from console.channels.screen import ChannelsScreen
from console.channels.webhooks import WebhooksScreen
from console.kit.confirm import ConfirmDialog
from tests.console.helpers import SIZE, frozen_clock, press_for, run_command, settle
from tests.console.outbox_scene import HOOK_DOWN
from tests.receiver import Receiver

pytestmark = pytest.mark.anyio


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the staged webhooks' times are said against it


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    yield made
    made.close()


def add_webhook(engine: Engine, url: str, mask: str = "*") -> str:
    hotel = engine.store.scalar("SELECT id FROM properties WHERE title = 'Hotel Edelweiss'")
    return engine.webhooks.create(engine.identity.operator(), {"property_id": hotel, "callback_url": url,
                                                                "event_mask": mask})["id"]


def webhook(engine: Engine, webhook_id: str) -> dict:
    return engine.webhooks.get(engine.identity.operator(), webhook_id)


def select(screen: WebhooksScreen, url: str) -> dict:
    row_id = next(key for key, row in screen.rows.items() if row["callback_url"] == url)
    screen.table.move_cursor(row=screen.table.get_row_index(row_id))
    return screen.rows[row_id]


def cells(screen: WebhooksScreen, row_id: str) -> list[str]:
    return [str(getattr(cell, "main", cell)) for cell in screen.table.get_row(row_id)]


def news(screen: WebhooksScreen) -> str:
    return str(screen.status.query_one("#status-news").render())


async def open_webhooks(pilot) -> WebhooksScreen:
    await settle(pilot)
    await press_for(pilot, "2", ChannelsScreen)
    return await press_for(pilot, "w", WebhooksScreen)


async def test_lists_webhooks_and_goes_back_to_the_channels(make_app, engine: Engine) -> None:
    hook = add_webhook(engine, "https://pms.example.com/hooks", "booking,message,ari:rate:*:*")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_webhooks(pilot)
        assert cells(screen, hook) == ["Hotel Edelweiss", "up to date", "active", "https://pms.example.com/hooks",
                                       "bookings, messages, rates"]
        assert screen.where() == "Page 1 of 1 · 1 webhook"
        await pilot.press("escape")
        assert isinstance(app.screen, ChannelsScreen)


async def test_the_palette_opens_the_webhooks(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await run_command(pilot, "webhooks")
        assert isinstance(app.screen, WebhooksScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, ChannelsScreen)


async def test_pauses_and_unpauses_a_webhook(make_app, engine: Engine) -> None:
    hook = add_webhook(engine, "https://pms.example.com/hooks")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_webhooks(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert not webhook(engine, hook)["is_active"]
        assert news(screen) == "Paused the webhook to pms.example.com/hooks"
        assert cells(screen, hook)[2] == "paused"
        await pilot.press("p")
        await settle(pilot)
        assert webhook(engine, hook)["is_active"]
        assert news(screen) == "Unpaused the webhook to pms.example.com/hooks"


async def test_sends_a_test_event_and_says_what_the_receiver_answered(make_app, engine: Engine,
                                                                      receiver: Receiver) -> None:
    add_webhook(engine, receiver.url + "/hooks")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_webhooks(pilot)
        await pilot.press("t")
        await settle(pilot)
        [arrived] = receiver.wait_for(1)
        assert arrived.path == "/hooks" and arrived.json()["event"] == "test"
        assert news(screen) == f"Test event taken: 127.0.0.1:{receiver.port} answered 200"
        receiver.status, receiver.body = 500, b"no such tenant"
        await pilot.press("t")
        await settle(pilot)
        assert news(screen) == "Callback address did not take the test event: the endpoint answered 5xx"
    assert len(receiver.received) == 2


async def test_resumes_a_failing_webhook_and_shows_its_log(make_app, engine: Engine, events_out) -> None:
    """The staged webhook to crm.example.org failed for good at 08:40."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_webhooks(pilot)
        row = select(screen, "https://pms.example.com/frontdesk/hooks")
        await pilot.press("r")
        assert news(screen) == "The webhook to pms.example.com/frontdesk/hooks is not failing: nothing to resume"
        row = select(screen, "https://crm.example.org/events")
        assert cells(screen, row["id"])[1].startswith("failing since")

        log = await press_for(pilot, "l", DeliveryLogDialog)
        assert [(str(e.what.main), e.status, e.error) for e in log.entries.values()] == [
            ("guest message", "failed", HOOK_DOWN), ("guest message", "delivered", None),
            ("new booking", "delivered", None)]
        about = str(log.query_one("#log-about").render())
        assert "Sends bookings, messages to https://crm.example.org/events." in about
        await pilot.press("escape")

        await pilot.press("r")
        await settle(pilot)
        assert webhook(engine, row["id"])["state"]["failing_since"] is None
        assert news(screen) == "Resumed the webhook to crm.example.org/events: it is tried again now"


async def test_deletes_a_webhook_after_asking(make_app, engine: Engine) -> None:
    add_webhook(engine, "https://pms.example.com/hooks")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_webhooks(pilot)
        await press_for(pilot, "d", ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert len(screen.rows) == 1
        await press_for(pilot, "d", ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert screen.rows == {} and news(screen) == "Deleted the webhook to pms.example.com/hooks"
    assert engine.store.scalar("SELECT count(*) FROM webhooks") == 0


# --- snapshots: the webhooks of tests/console/outbox_scene.py -------------------------------------------------------


async def open_failing_webhooks_log(pilot) -> None:
    select(await open_webhooks(pilot), "https://crm.example.org/events")
    await press_for(pilot, "l", DeliveryLogDialog)


def test_snapshot_webhooks(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_webhooks)


def test_snapshot_webhooks_80x24(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_webhooks)


def test_snapshot_a_failing_webhooks_log(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_failing_webhooks_log)


def test_snapshot_a_failing_webhooks_log_80x24(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_failing_webhooks_log)
