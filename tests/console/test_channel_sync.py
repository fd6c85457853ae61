"""A channel's sync in the Channels area: its state in the list, `f` full sync, `r` resume, `l` its delivery log,
and turning a channel to push in its dialog. The deliverer runs for real, to a receiver on loopback."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest

from backend.engine import Engine
from backend.outbox.signing_secrets import unseal
from console.channels.delivery_log import DeliveryLogDialog
from console.channels.dialogs import AriSecretDialog, ChannelDialog
from console.channels.screen import ChannelsScreen
from console.kit.confirm import ConfirmDialog
from storage.reads import ReadStore
from storage.replicas import Replica
from tests.console.helpers import SIZE, frozen_clock, press_for, select_row, settle, until
from tests.receiver import Receiver

pytestmark = pytest.mark.anyio


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the log's dates are said against it


@pytest.fixture
def config_options() -> dict[str, Any]:
    return {"delivery_max_attempts": 2, "delivery_backoff": 0.01}  # a channel that answers 503 fails at once


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    yield made
    made.close()


def channel_id(engine: Engine, title: str) -> str:
    return engine.store.scalar("SELECT id FROM channels WHERE title = ?", (title,))


def push_to(engine: Engine, title: str, url: str) -> str:
    channel = channel_id(engine, title)
    settings = {"ari_distribution": "push", "ari_url": url}
    engine.channels.update(engine.identity.operator(), channel, {"settings": settings})
    return channel


def raise_rates(engine: Engine) -> None:
    """A rate change of Hotel Edelweiss, which Booking.com sells: one ARI event for it (no plan follows this one)."""
    plan = engine.store.one("SELECT p.id, p.property_id FROM rate_plans p JOIN room_types r ON r.id = p.room_type_id "
                            "WHERE r.title = 'Junior Suite' AND p.title = 'Best Available Rate'")
    engine.inventory.ari.set_restrictions(engine.identity.operator(), [{
        "property_id": plan["property_id"], "rate_plan_id": plan["id"], "date_from": "2027-02-01",
        "date_to": "2027-02-07", "rate": "210.00"}])


def sync_cell(screen: ChannelsScreen, title: str) -> str:
    row = select_row(screen, title)
    return str(screen.table.get_row(row["id"])[1].main)


def news(screen: ChannelsScreen) -> str:
    return str(screen.status.query_one("#status-news").render())


async def open_channels(pilot) -> ChannelsScreen:
    await settle(pilot)
    return await press_for(pilot, "2", ChannelsScreen)


async def test_full_sync_queues_every_mapped_range_after_asking(make_app, engine: Engine) -> None:
    channel = push_to(engine, "Booking.com", "https://ota.example.com/ari")  # no deliverer runs: they stay queued
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        assert not screen.query_one("#channels-replicas").display  # SQLite: no read replica, no line about them
        assert sync_cell(screen, "Booking.com") == "up to date"
        assert sync_cell(screen, "OpenShopping") == "—"
        select_row(screen, "Booking.com")
        await press_for(pilot, "f", ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        queued = engine.store.scalar("SELECT count(*) FROM events WHERE event = 'ari' AND channel_id = ?", (channel,))
        mapped = engine.store.scalar("SELECT count(*) FROM channel_rate_plans WHERE channel_id = ?", (channel,))
        assert queued > mapped  # every mapped rate plan, and their room types
        assert news(screen) == \
            f"Full sync of “Booking.com”: {queued} ranges queued"
        await until(pilot, lambda: sync_cell(screen, "Booking.com") == f"{queued} changes waiting")


async def test_full_sync_and_resume_say_why_a_channel_without_ari_has_none(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        select_row(screen, "OpenShopping")
        for key in ("f", "r"):
            await pilot.press(key)
            await settle(pilot)
            assert app.screen is screen  # nothing asked, nothing done
            assert news(screen) == \
                "“OpenShopping” gets no ARI: choose push or pull in its dialog (e) first"
    assert engine.store.scalar("SELECT count(*) FROM events WHERE channel_id IS NOT NULL") == 0


async def test_a_failing_channel_shows_why_resumes_and_logs_its_deliveries(make_app, engine: Engine,
                                                                          receiver: Receiver) -> None:
    receiver.status, receiver.body = 503, b"down for maintenance"
    channel = push_to(engine, "Booking.com", receiver.url)
    app = make_app()
    with engine.delivering("console"):  # as the console runs it: no server holds the database
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_channels(pilot)
            select_row(screen, "Booking.com")
            await pilot.press("r")
            assert news(screen) == "“Booking.com” is not failing: nothing to resume"
            raise_rates(engine)
            await until(pilot, lambda: sync_cell(screen, "Booking.com").startswith("failing since"))
            receiver.status = 200
            await pilot.press("r")
            await until(pilot, lambda: sync_cell(screen, "Booking.com") == "up to date")
            assert engine.distribution.state(engine.identity.operator(), channel)["failing_since"] is None
            assert len(receiver.received) == 3  # two refused, then, resumed, taken

            log = await press_for(pilot, "l", DeliveryLogDialog)
            [entry] = log.entries.values()  # one row per event, updated by each attempt
            assert (entry.status, entry.attempts, entry.error) == ("delivered", 1, None)
            assert str(entry.what.main) == "1 Feb–7 Feb 2027 Best Available Rate, Junior Suite"
            about = str(log.query_one("#log-about").render())
            assert f"Frontdesk pushes ARI to {receiver.url} as JSON." in about and "Up to date. Last sent" in about


async def test_the_log_shows_the_error_of_a_failed_delivery(make_app, engine: Engine, receiver: Receiver) -> None:
    receiver.status, receiver.body = 503, b"down for maintenance"
    push_to(engine, "Booking.com", receiver.url)
    app = make_app()
    with engine.delivering("console"):  # as the console runs it: no server holds the database
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_channels(pilot)
            raise_rates(engine)
            await until(pilot, lambda: sync_cell(screen, "Booking.com").startswith("failing since"))
            log = await press_for(pilot, "l", DeliveryLogDialog)
            assert [(e.status, e.attempts, e.error) for e in log.entries.values()] == [
                ("failed", 2, "answered 503: down for maintenance")]
            assert "answered 503: down for maintenance" in str(log.query_one("#log-entry").render())
            assert "Failing since" in str(log.query_one("#log-about").render())


async def test_the_log_shows_what_a_channel_warned_of_when_it_took_a_delivery(make_app, engine: Engine,
                                                                              receiver: Receiver) -> None:
    receiver.content_type = "application/xml"
    receiver.body = (b'<OTA_HotelRateAmountNotifRS xmlns="http://www.opentravel.org/OTA/2003/05"><Success/><Warnings>'
                     b'<Warning Type="3" Code="97" ShortText="rate plan inactive"/></Warnings>'
                     b'</OTA_HotelRateAmountNotifRS>')
    channel = channel_id(engine, "Booking.com")
    engine.channels.update(engine.identity.operator(), channel, {"settings": {
        "ari_distribution": "push", "ari_url": receiver.url, "ari_format": "ota"}})
    app = make_app()

    def last_delivered() -> str | None:
        return engine.distribution.sync_of(engine.channels.get(engine.identity.operator(), channel))["last_delivered_at"]

    before = last_delivered()  # the demo's Booking.com read its ARI (pull) up to the start
    with engine.delivering("console"):
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_channels(pilot)
            raise_rates(engine)
            await until(pilot, lambda: sync_cell(screen, "Booking.com").startswith("up to date")
                        and last_delivered() not in (None, before))
            select_row(screen, "Booking.com")
            log = await press_for(pilot, "l", DeliveryLogDialog)
            await until(pilot, lambda: bool(log.entries))
            [entry] = log.entries.values()
            said = "Taken with warnings: 97: rate plan inactive; 97: rate plan inactive"  # both calls said it
            assert (entry.status, entry.error, entry.warning) == ("delivered", None, said)
            assert said in str(log.query_one("#log-entry").render())


async def test_the_log_of_a_pulling_channel_and_of_one_without_ari(make_app, events_out) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        assert sync_cell(screen, "Airbnb") == "2 changes waiting"  # Casa do Mar's new rates, not read yet
        log = await press_for(pilot, "l", DeliveryLogDialog)
        assert log.entries == {}
        assert str(log.query_one("#log-about").render()).splitlines() == [
            "Its adapter pulls ARI from Frontdesk and acknowledges what it applied.",
            "2 changes waiting. Last read 22 Nov 08:41."]
        assert str(log.query_one("#log-entry").render()) == \
            "Nothing is pushed to a channel that pulls: its adapter reads the changes itself."
        await pilot.press("escape")
        select_row(screen, "OpenShopping")
        log = await press_for(pilot, "l", DeliveryLogDialog)
        assert str(log.query_one("#log-about").render()) == \
            "“OpenShopping” gets no ARI: choose push or pull in its dialog (e) first."


async def test_turning_a_channel_to_push_shows_its_signing_secret_once(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        row = select_row(screen, "Airbnb")
        dialog = await press_for(pilot, "e", ChannelDialog)
        assert not dialog.fields["settings.ari_url"].display
        dialog.fields["settings.ari_distribution"].value = "push"
        await settle(pilot)
        assert dialog.fields["settings.ari_url"].display
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is dialog
        assert str(dialog.fields["settings.ari_url"].error.render()) == "is required when ari_distribution is push"
        dialog.fields["settings.ari_url"].value = "https://airbnb.example.com/ari"
        dialog.fields["settings.ari_format"].value = "ota"
        shown = await press_for(pilot, "ctrl+s", AriSecretDialog)
        secret = str(shown.query_one("#ari-secret").render())
        stored = engine.store.scalar("SELECT ari_secret FROM channels WHERE id = ?", (row["id"],))
        assert secret.startswith("whsec_") and secret == unseal(engine.keys, stored, row["id"])  # kept sealed
        await pilot.press("escape")
        await settle(pilot)
        assert sync_cell(screen, "Airbnb") == "up to date"
    settings = engine.channels.get(engine.identity.operator(), row["id"])["settings"]
    assert settings == {"ari_distribution": "push", "ari_url": "https://airbnb.example.com/ari", "ari_format": "ota"}


# --- snapshots: the channels of tests/console/outbox_scene.py, in every sync state ---------------------------------


async def open_failing_channels_log(pilot) -> None:
    select_row(await open_channels(pilot), "Booking.com")
    await press_for(pilot, "l", DeliveryLogDialog)


def test_snapshot_channels_with_their_sync(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_channels)


def test_snapshot_channels_with_their_sync_80x24(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_channels)


def test_snapshot_channels_with_their_sync_200x60(snap_compare, make_app, events_out) -> None:
    """The line above the list says how far behind deliveries are: Booking.com's changes since 08:02."""
    assert snap_compare(make_app(), terminal_size=(200, 60), run_before=open_channels)


@pytest.fixture
def replica_down(engine: Engine) -> Iterator[None]:
    """A read replica that does not answer, watched as `serve --read-db` watches one. Replicas are PostgreSQL's, but
    the line is the same over the demo's SQLite file, whose snapshots keep every other text fixed; a real standby's
    line is tested in tests/shopping/test_read_replicas.py."""
    replica = Replica("postgresql://frontdesk:s3cret@127.0.0.1:1/frontdesk", "postgresql://127.0.0.1:1/frontdesk",
                      (0, 0))
    replica.start()
    engine.reads = ReadStore(engine.store, [replica])
    yield
    replica.close()


def test_snapshot_channels_with_a_read_replica_down(snap_compare, make_app, events_out, replica_down) -> None:
    """Below the outbox's line, the replica's: not used, down, by its address without user or password."""
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_channels)


def test_snapshot_channels_with_a_read_replica_down_80x24(snap_compare, make_app, events_out, replica_down) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_channels)


def test_snapshot_a_failing_channels_log(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_failing_channels_log)


def test_snapshot_a_failing_channels_log_80x24(snap_compare, make_app, events_out) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_failing_channels_log)
