"""Saved replies in the console: ctrl+r in the reply box picks one by a fuzzy match and puts it, filled in for the
guest, at the cursor; t in the Inbox lists them, and n, e and d write, change and delete them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inbox.saved_replies import SavedRepliesScreen, TemplateDialog
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from console.kit.reply_picker import ReplyPicker, ranked
from tests.console.helpers import SIZE, frozen_clock, press_for, settle, type_text
from tests.console.test_inbox import messages, open_inbox, open_thread

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("no_saved_replies")]
SMALL = (80, 24)


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the demo's bookings are dated from the clock: the filled dates keep still


def property_id(engine: Engine, title: str) -> str:
    return engine.store.scalar("SELECT id FROM properties WHERE title = ?", (title,))


def save_replies(engine: Engine) -> None:
    """Three for Hotel Edelweiss (Emma Clarke's), and one for a property of the other group."""
    operator, edelweiss = engine.identity.operator(), property_id(engine, "Hotel Edelweiss")
    portfolio = engine.store.scalar("SELECT group_id FROM properties WHERE id = ?", (edelweiss,))
    for title, message in (("Late arrival", "Dear {guest_first_name}, the night porter will let you in on "
                                            "{arrival_date}. Booking {booking_id}."),
                           ("Parking", "Parking at {property} is free for guests."),
                           ("Checkout reminder", "Checkout is until {checkout_time} on {departure_date}.")):
        engine.message_templates.create(operator, {"title": title, "message": message, "property_id": edelweiss})
    engine.message_templates.create(operator, {"title": "Thanks", "message": "Thank you, {guest_name}! Your "
                                               "booking {booking_id} is confirmed.", "group_id": portfolio})
    hostel = property_id(engine, "Northern Lights Hostel")
    engine.message_templates.create(operator, {"title": "Hostel rules", "message": "Quiet after 22:00.",
                                               "property_id": hostel})


def templates(engine: Engine) -> list[dict]:
    rows, _ = engine.message_templates.list(engine.identity.operator(), ListQuery(limit=100))
    return rows


async def open_picker(pilot: Pilot) -> ReplyPicker:
    save_replies(pilot.app.engine)
    await open_thread(pilot)
    return await press_for(pilot, "ctrl+r", ReplyPicker)


async def search_picker(pilot: Pilot) -> None:
    await open_picker(pilot)
    await type_text(pilot, "late")
    await settle(pilot)


async def open_manager(pilot: Pilot) -> SavedRepliesScreen:
    save_replies(pilot.app.engine)
    await open_inbox(pilot)
    return await press_for(pilot, "t", SavedRepliesScreen)


async def open_new_reply(pilot: Pilot) -> None:
    await open_manager(pilot)
    await press_for(pilot, "n", TemplateDialog)
    await type_text(pilot, "Towels")


# --- snapshots ------------------------------------------------------------------------------------

def test_snapshot_picker(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=search_picker)


def test_snapshot_picker_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=search_picker)


def test_snapshot_manager(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_manager)


def test_snapshot_manager_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=open_manager)


async def ask_to_send_unfilled(pilot: Pilot) -> None:
    """A saved reply with {booking_id} in the reply box of an inquiry, which has no booking to fill it; then ctrl+s."""
    save_replies(pilot.app.engine)
    await open_thread(pilot, "Maya Lin")
    await press_for(pilot, "ctrl+r", ReplyPicker)
    await type_text(pilot, "thanks")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    await press_for(pilot, "ctrl+s", ConfirmDialog)


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_snapshot_send_with_a_placeholder_unfilled(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=size, run_before=ask_to_send_unfilled)


def test_snapshot_editor(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_new_reply)


def test_snapshot_editor_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=open_new_reply)


# --- the picker -----------------------------------------------------------------------------------

def test_fuzzy_ranking_puts_title_matches_first() -> None:
    found = [{"title": "Parking", "filled_message": "Late check-out costs 20 EUR"},
             {"title": "Late arrival", "filled_message": "The porter lets you in"},
             {"title": "Towels", "filled_message": "Fresh towels daily"}]
    assert [t["title"] for t, _ in ranked(found, "late")] == ["Late arrival", "Parking"]
    assert [t["title"] for t, _ in ranked(found, "lta")] == ["Late arrival"]  # fuzzy: l…t…a in order
    assert [t["title"] for t, _ in ranked(found, "")] == ["Parking", "Late arrival", "Towels"]
    assert ranked(found, "zzz") == []


async def test_ctrl_r_inserts_the_chosen_reply_filled_in_at_the_cursor(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        picker = await open_picker(pilot)
        # The thread's property's replies and its group's, not the hostel's (another property).
        listed = picker.query_one("#picker-options", OptionList)
        assert listed.option_count == 4
        await type_text(pilot, "late")
        await settle(pilot)
        assert listed.option_count == 1
        preview = str(picker.query_one("#picker-preview").render())
        unique_id = engine.store.scalar("SELECT b.unique_id FROM bookings b JOIN message_threads t "
                                        "ON t.booking_id = b.id WHERE t.title = 'Emma Clarke'")
        assert "Dear Emma, the night porter will let you in on 5 Feb 2027." in preview and unique_id in preview
        await pilot.press("escape")
        await settle(pilot)
        box = app.screen.conversation.compose_box
        assert box.text == ""
        await type_text(pilot, "Hi! ")
        await press_for(pilot, "ctrl+r", ReplyPicker)
        await type_text(pilot, "late")
        await pilot.press("enter")
        await settle(pilot)
        assert box.text == f"Hi! Dear Emma, the night porter will let you in on 5 Feb 2027. Booking {unique_id}."
        assert app.focused is box


async def test_a_placeholder_with_nothing_to_fill_it_stays_for_staff_to_fill(make_app) -> None:
    """An inquiry has no booking: its number stays in braces, and the picker says so."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        save_replies(app.engine)
        await open_thread(pilot, "Maya Lin")  # an Airbnb inquiry at Harbour Lights Apartments, in the portfolio
        picker = await press_for(pilot, "ctrl+r", ReplyPicker)
        await type_text(pilot, "thanks")
        await settle(pilot)
        preview = str(picker.query_one("#picker-preview").render())
        assert "Thank you, Maya Lin! Your booking {booking_id} is confirmed." in preview
        assert "Nothing to fill {booking_id} from" in preview
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.conversation.compose_box.text == "Thank you, Maya Lin! Your booking {booking_id} is confirmed."

        # Sent as it is, the guest would read the braces: ctrl+s asks first, and Cancel keeps the text in the box.
        inbox, thread_id = app.screen, app.screen.conversation.thread["id"]
        question = await press_for(pilot, "ctrl+s", ConfirmDialog)
        assert question.question == "Send with {booking_id} in it?"
        await pilot.press("escape")
        await settle(pilot)
        assert inbox.conversation.compose_box.text.endswith("{booking_id} is confirmed.")
        assert app.focused is inbox.conversation.compose_box
        assert not [m for m in messages(app.engine, thread_id) if m["sender"] == "property"]
        await press_for(pilot, "ctrl+s", ConfirmDialog)
        await pilot.press("y")  # sent anyway, as written
        await settle(pilot)
        assert [m["message"] for m in messages(app.engine, thread_id) if m["sender"] == "property"] == [
            "Thank you, Maya Lin! Your booking {booking_id} is confirmed."]


async def test_without_saved_replies_the_picker_says_how_to_add_one(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread(pilot)
        picker = await press_for(pilot, "ctrl+r", ReplyPicker)
        assert "t in the inbox adds one" in str(picker.query_one("#picker-preview").render())


# --- the manager ----------------------------------------------------------------------------------

async def test_the_manager_lists_writes_changes_and_deletes(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread(pilot)  # Emma Clarke's, at Hotel Edelweiss
        await pilot.press("escape")
        manager = await press_for(pilot, "t", SavedRepliesScreen)
        assert manager.page.total == 0
        dialog = await press_for(pilot, "n", TemplateDialog)
        # A new one is for the property of the conversation on show.
        assert dialog.fields["scope"].value == "property:" + property_id(engine, "Hotel Edelweiss")
        await type_text(pilot, "Towels")
        dialog.fields["message"].control.focus()
        await type_text(pilot, "Fresh towels for {guest_name} daily")
        await press_for(pilot, "ctrl+s", SavedRepliesScreen)
        saved = templates(engine)
        assert [(t["title"], t["message"]) for t in saved] == [("Towels", "Fresh towels for {guest_name} daily")]
        assert list(manager.rows) == [saved[0]["id"]]
        assert "Hotel Edelweiss" in str(manager.table.get_row_at(0)[1])

        dialog = await press_for(pilot, "e", TemplateDialog)
        scope = dialog.fields["scope"].control
        group = next(value for name, value in scope.options if "Every property of" in str(name))
        dialog.fields["scope"].control.value = group
        await press_for(pilot, "ctrl+s", SavedRepliesScreen)
        changed = templates(engine)[0]
        assert changed["property_id"] is None and group == "group:" + changed["group_id"]

        await press_for(pilot, "d", ConfirmDialog)
        await press_for(pilot, "y", SavedRepliesScreen)
        assert templates(engine) == [] and manager.rows == {}
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.AREA == "inbox" and not isinstance(app.screen, SavedRepliesScreen)


async def test_the_editor_shows_what_the_engine_refuses_and_saves_nothing(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_manager(pilot)
        before = len(templates(engine))
        dialog = await press_for(pilot, "n", TemplateDialog)
        dialog.fields["message"].control.focus()
        await type_text(pilot, "See you {arival_date}")
        await press_for(pilot, "ctrl+s", TemplateDialog)
        assert "can't be blank" in str(dialog.fields["title"].error.render())
        assert "unknown placeholder {arival_date}" in str(dialog.fields["message"].error.render())
        assert len(templates(engine)) == before


async def test_the_scope_offers_every_property_of_each_group_then_each_property(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_manager(pilot)
        dialog = await press_for(pilot, "n", TemplateDialog)
        names = [str(name) for name, _ in dialog.fields["scope"].control.options]
        assert names[:2] == ["Every property of New openings", "Every property of Sea & Mountain Stays"]
        assert "Hotel Edelweiss" in names and isinstance(dialog.fields["scope"].control, Choice)
