"""Snapshots of the Properties area, the channels list, help and the command palette at 120×40, at 80×24 (the least
we design for: columns give way and the status line says which, forms close up) and, where a screen lays itself
out anew for the room, at 200×60. Nothing shown depends on the clock or on IDs: the lists show no IDs or
timestamps, the database path is relative, and cursors don't blink.

Update with `pytest tests/console --snapshot-update`, then look at the SVGs under __snapshots__."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.console.helpers import SIZE, add_hostel_channel, select_row, settle, type_text

NARROW = (80, 24)
WIDE = (200, 60)


async def open_editor_with_errors(pilot: Pilot) -> None:
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)
    editor = pilot.app.screen
    await type_text(pilot, "Nowhere Inn")
    editor.fields["currency"].value = "EURO"
    editor.fields["settings.state_length"].value = "50"
    await pilot.press("ctrl+s")
    await settle(pilot)


async def open_refused_connect(pilot: Pilot) -> None:
    add_hostel_channel(pilot.app.engine)
    await settle(pilot)
    select_row(pilot.app.screen, "Northern Lights Hostel")
    await pilot.press("c")
    await settle(pilot)
    await pilot.press("space")
    await settle(pilot)


async def open_new(pilot: Pilot) -> None:
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)


async def open_casa_do_mar(pilot: Pilot) -> None:
    await settle(pilot)
    select_row(pilot.app.screen, "Casa do Mar")
    await pilot.press("e")
    await settle(pilot)


async def open_settings_and_content(pilot: Pilot) -> None:
    """The editor's lower sections: the settings' switches, one a line at 80 columns, and the content."""
    await open_casa_do_mar(pilot)
    pilot.app.screen.fields["settings.min_stay_type"].control.focus()
    await settle(pilot)


async def open_palette(pilot: Pilot) -> None:
    await settle(pilot)
    await pilot.press("ctrl+p")
    await settle(pilot)


async def open_help(pilot: Pilot) -> None:
    await settle(pilot)
    await pilot.press("f1")
    await settle(pilot)


async def open_new_channel(pilot: Pilot) -> None:
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)
    await type_text(pilot, "Expedia")


def test_properties_list(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=settle)


def test_properties_list_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=settle)


def test_properties_list_200x60(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=WIDE, run_before=settle)


def test_property_editor_new(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_new)


def test_property_editor_new_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_new)


def test_property_editor_settings_and_content(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_settings_and_content)


def test_property_editor_settings_and_content_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_settings_and_content)


def test_property_editor_200x60(snap_compare, make_app) -> None:
    """Two sections a row, facilities across: the whole property on one screen."""
    assert snap_compare(make_app(), terminal_size=WIDE, run_before=open_casa_do_mar)


def test_property_editor_with_errors(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_editor_with_errors)


def test_property_channels_refused(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_refused_connect)


def test_property_channels_refused_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_refused_connect)


def test_channels(snap_compare, make_app) -> None:
    async def open_channels(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_channels)


def test_channel_new(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_new_channel)


def test_channel_new_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_new_channel)


def test_help(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_help)


def test_help_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_help)


def test_help_200x60(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=WIDE, run_before=open_help)


def test_command_palette(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_palette)


def test_command_palette_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_palette)
