"""Channels: connecting a property (and being refused), and the channels area itself."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from backend.core.errors import ValidationFailed
from backend.engine import Engine
from backend.identity.service import hash_secret
from console.channels.dialogs import ChannelDialog, InboundKeyDialog, id_line
from console.channels.screen import ChannelsScreen
from console.kit.confirm import ConfirmDialog
from console.properties.channels_dialog import PropertyChannelsDialog
from tests.console.helpers import (
    SIZE,
    add_hostel_channel,
    error_text,
    press_for,
    save_refused,
    select_row,
    settle,
    titles,
    type_text,
)

pytestmark = pytest.mark.anyio
FIXED_ID = "5f0c2a9e-3b1d-4c7a-9e21-8d4f6b0a7c13"


def connected(engine: Engine, property_id: str) -> list[str]:
    return [c["title"] for c in engine.channels.for_property(engine.identity.operator(), property_id) if c["connected"]]


async def test_connects_and_disconnects_a_channel(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        row = select_row(app.screen, "Pension Alpenrose")
        assert connected(engine, row["id"]) == ["Booking.com"]
        await pilot.press("c")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, PropertyChannelsDialog)
        assert list(dialog.channels) and dialog.query_one("DataTable").cursor_row == 0  # Airbnb, by title
        await pilot.press("space")
        await settle(pilot)
        assert connected(engine, row["id"]) == ["Airbnb", "Booking.com"]
        assert str(dialog.query_one("#connect-problems").render()) == "Connected to Airbnb"
        await pilot.press("enter")
        await settle(pilot)
        assert connected(engine, row["id"]) == ["Booking.com"]
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.rows[row["id"]]["acc_cannels_count"] == 1


def group_of(engine: Engine, title: str) -> str:
    return engine.store.scalar("SELECT id FROM groups WHERE title = ?", (title,))


async def test_a_property_lists_only_the_channels_of_its_group(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        select_row(app.screen, "Northern Lights Hostel")
        dialog = await press_for(pilot, "c", PropertyChannelsDialog)
        assert dialog.channels == {}
        assert str(dialog.query_one("#connect-problems").render()).startswith("No channel sells this property's group")
        await pilot.press("escape")
        add_hostel_channel(engine)
        select_row(app.screen, "Pension Alpenrose")
        dialog = await press_for(pilot, "c", PropertyChannelsDialog)
        assert [c["title"] for c in dialog.channels.values()] == ["Airbnb", "Booking.com", "OpenShopping"]


async def test_a_refused_connect_names_the_missing_contact_fields(make_app, engine: Engine) -> None:
    add_hostel_channel(engine)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        row = select_row(app.screen, "Northern Lights Hostel")
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("space")  # the one channel of its group
        await settle(pilot)
        problems = str(app.screen.query_one("#connect-problems").render())
        assert problems.startswith("Not connected to Hostelworld via Booking.com:\n")
        for label in ("E-mail", "Phone", "ZIP / postal code", "State / region", "Address", "Longitude", "Latitude"):
            assert f"• {label} is required to connect 'Northern Lights Hostel' to a channel" in problems
        assert "City" not in problems  # the hostel has a city
    assert connected(engine, row["id"]) == []


async def open_channels(pilot) -> ChannelsScreen:
    await settle(pilot)
    return await press_for(pilot, "2", ChannelsScreen)


async def test_a_new_channels_inbound_key_is_shown_once(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        assert titles(screen) == ["Airbnb", "Booking.com", "OpenShopping"]
        await pilot.press("n")
        assert isinstance(app.screen, ChannelDialog)
        await type_text(pilot, "Expedia")
        await pilot.press("ctrl+s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, InboundKeyDialog)
        key = str(dialog.query_one("#inbound-key").render())
        stored = engine.store.one("SELECT channel_code, inbound_key_hash FROM channels WHERE title = 'Expedia'")
        assert stored["channel_code"] == "BookingCom"
        assert stored["inbound_key_hash"] == hash_secret(key)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert "Expedia" in titles(screen)
        # Nowhere else does the key show again: not in the list, not when editing the channel.
        select_row(screen, "Expedia")
        await pilot.press("e")
        assert isinstance(app.screen, ChannelDialog)
        assert key not in app.export_screenshot()


async def test_edits_a_channels_title_and_active_flag(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        row = select_row(screen, "Airbnb")
        await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, ChannelDialog)
        dialog.fields["title"].value = ""
        await save_refused(pilot, dialog)
        assert error_text(dialog, "title") == "can't be blank"
        await type_text(pilot, "Airbnb EU")
        dialog.query_one("#channel-active").toggle()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is screen
    channel = engine.channels.get(engine.identity.operator(), row["id"])
    assert (channel["title"], channel["is_active"], channel["channel"]) == ("Airbnb EU", False, "AirBNB")
    assert len(channel["properties"]) == 3


async def test_deletes_a_channel_after_asking(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        select_row(screen, "OpenShopping")
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert titles(screen) == ["Airbnb", "Booking.com"]
    assert engine.store.scalar("SELECT count(*) FROM channels") == 2


async def test_sets_and_clears_a_shopping_channels_provider_key(make_app, engine: Engine) -> None:
    """The channels list warns about a public shopping channel; the dialog makes it keyed, and public again."""
    app = make_app()
    operator = engine.identity.operator()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        row = select_row(screen, "OpenShopping")
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, ChannelDialog)
        dialog.query_one("#channel-keyed").toggle()
        await save_refused(pilot, dialog)  # switched on without a key
        assert error_text(dialog, "provider_api_key") == "must be at least 8 characters"
        dialog.fields["provider_api_key"].value = "meta-partner-key-1"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is screen
        assert engine.channels.get(operator, row["id"])["has_provider_api_key"]
        assert engine.shopping.channels("OpenShopping", "meta-partner-key-1") == [row["id"]]
        assert "meta-partner-key-1" not in engine.store.path.read_bytes().decode("latin-1")
        # Editing the title keeps the key; switching it off makes the channel public again.
        select_row(screen, "OpenShopping")
        await pilot.press("e")
        dialog = app.screen
        assert not dialog.query_one("#channel-key").value
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert engine.channels.get(operator, row["id"])["has_provider_api_key"]
        select_row(screen, "OpenShopping")
        await pilot.press("e")
        app.screen.query_one("#channel-keyed").toggle()
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert not engine.channels.get(operator, row["id"])["has_provider_api_key"]
    assert engine.shopping.channels("OpenShopping", None) == [row["id"]]


async def test_the_key_fields_show_only_for_shopping_channels(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        select_row(screen, "Airbnb")
        await pilot.press("e")
        await settle(pilot)
        assert not app.screen.fields["provider_api_key"].display
        await pilot.press("escape")
        select_row(screen, "OpenShopping")
        await pilot.press("e")
        await settle(pilot)
        assert app.screen.fields["provider_api_key"].display


async def test_a_new_channel_goes_to_the_group_chosen(make_app, engine: Engine) -> None:
    """The New channel dialog asks for the group; a property of another group can't be connected to it."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        await pilot.press("n")
        dialog = app.screen
        assert isinstance(dialog, ChannelDialog)
        assert dialog.fields["group_id"].value == engine.identity.operator().default_group_id
        await type_text(pilot, "Hostelworld")
        dialog.fields["group_id"].value = group_of(engine, "New openings")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InboundKeyDialog)
        await pilot.press("escape")
        await settle(pilot)
        row = select_row(screen, "Hostelworld")
    operator = engine.identity.operator()
    assert engine.channels.get(operator, row["id"])["group_id"] == group_of(engine, "New openings")
    alpenrose = engine.store.scalar("SELECT id FROM properties WHERE title = 'Pension Alpenrose'")
    with pytest.raises(ValidationFailed) as refused:
        engine.channels.connect(operator, row["id"], alpenrose)
    assert refused.value.details == {"properties.0.group_id": [
        "of 'Pension Alpenrose' is 'Sea & Mountain Stays', not this channel's group 'New openings': a channel takes "
        "properties of its own group only"]}


async def test_moving_a_channel_to_another_group_is_refused_while_it_sells_this_ones(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        row = select_row(screen, "Airbnb")
        await pilot.press("e")
        dialog = app.screen
        assert dialog.fields["group_id"].value == group_of(engine, "Sea & Mountain Stays")
        dialog.fields["group_id"].value = group_of(engine, "New openings")
        await save_refused(pilot, dialog)
        problems = str(dialog.query_one("#channel-problems").render())
        assert ("Group of 'Casa do Mar' is 'Sea & Mountain Stays', not this channel's group 'New openings': a channel "
                "takes properties of its own group only") in problems
    channel = engine.channels.get(engine.identity.operator(), row["id"])
    assert channel["group_id"] == group_of(engine, "Sea & Mountain Stays")


async def test_a_shopping_channel_says_what_its_booking_engine_shows(make_app, engine: Engine) -> None:
    """The facilities as a list or grouped by kind, and whether guests are asked for a card: the channel's settings,
    whose other keys stay; Channex's booking engine reads them from property_info."""
    operator = engine.identity.operator()
    shopping = engine.store.scalar("SELECT id FROM channels WHERE title = 'OpenShopping'")
    engine.channels.update(operator, shopping, {"settings": {"theme": "dark"}})
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_channels(pilot)
        select_row(screen, "OpenShopping")
        dialog = await press_for(pilot, "e", ChannelDialog)
        assert (dialog.fields["settings.facilities_format"].value, dialog.fields["settings.request_credit_card"].value
                ) == ("list", True)
        dialog.fields["settings.facilities_format"].value = "grouped"
        dialog.query_one("#channel-card").toggle()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is screen
        select_row(screen, "Airbnb")
        dialog = await press_for(pilot, "e", ChannelDialog)
        assert not dialog.fields["settings.request_credit_card"].display  # an OTA has no booking engine of ours
    settings = engine.channels.get(operator, shopping)["settings"]
    assert settings == {"theme": "dark", "facilities_format": "grouped", "request_credit_card": False}
    edelweiss = engine.store.scalar("SELECT id FROM properties WHERE title = 'Hotel Edelweiss'")
    info = engine.shopping.property_info(shopping, edelweiss)
    assert info["request_credit_card"] is False and info["facilities"][0].keys() == {"category_code", "facilities"}


async def open_shopping_channel(pilot) -> None:
    """Its dialog, on its last field: at 80×24 the fields scroll, the buttons stay in view."""
    screen = await open_channels(pilot)
    select_row(screen, "OpenShopping")
    dialog = await press_for(pilot, "e", ChannelDialog)
    dialog.fields["settings.request_credit_card"].control.focus()
    dialog.query_one("#channel-id", Static).update(id_line(FIXED_ID))  # the engine's ids are random
    await settle(pilot)


def test_snapshot_shopping_channel(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_shopping_channel)


def test_snapshot_shopping_channel_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_shopping_channel)


async def open_inbound_key(pilot) -> None:
    """The new channel's key, shown once (a fixed one: the engine's are random)."""
    await open_channels(pilot)
    pilot.app.push_screen(InboundKeyDialog("Expedia", "fdi_" + "7Kq2" * 10))
    await settle(pilot)


def test_snapshot_inbound_key(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_inbound_key)


def test_snapshot_inbound_key_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_inbound_key)


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_a_channels_id_is_shown_and_copied(make_app, monkeypatch, size) -> None:
    """y in the list copies the id of the channel under the cursor and the status line says so; its dialog shows the
    id, and ctrl+y copies it there."""
    app = make_app()
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=size) as pilot:
        screen = await open_channels(pilot)
        row = select_row(screen, "Airbnb")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert copied == [row["id"]]
        assert str(screen.status.query_one("#status-news").render()).startswith(
            "Copied the id of “Airbnb” to the clipboard")
        dialog = await press_for(pilot, "e", ChannelDialog)
        line = dialog.query_one("#channel-id", Static)
        assert str(line.render()) == f"ID {row['id']} · ctrl+y copies it" and line.region.height
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert copied == [row["id"], row["id"]]
        assert str(line.render()) == f"ID {row['id']} · copied to the clipboard"
        assert dialog.fields["title"].value == "Airbnb"  # typed nowhere: the title keeps what it had
