"""Message rules in the console (shift+r in the Inbox, or "Message rules" in the palette): the list says in plain
words when each rule sends, which saved reply, for whom, how many it sent and whether it is paused; n, e, d, p and v
write, change, delete, pause and preview them. The bookings, saved replies and rules are the test's own, on fixed
dates: nothing here hangs on today or on the demo's dates."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from textual.pilot import Pilot

from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inbox.screen import InboxScreen
from console.kit.confirm import ConfirmDialog
from console.message_rules.editor import RuleDialog
from console.message_rules.preview import RulePreview
from console.message_rules.screen import MessageRulesScreen
from console.message_rules.words import sends_when
from tests.console.helpers import SIZE, frozen_clock, press_for, settle, type_text, until
from tests.console.test_inbox import open_inbox

pytestmark = pytest.mark.anyio
SMALL = (80, 24)
HOTEL = "Hotel Edelweiss"  # has the chat app, and Booking.com sells it
ARRIVAL, DEPARTURE = "2027-03-10", "2027-03-13"
DUE = datetime(2027, 3, 7, 17, 0, tzinfo=UTC)  # 3 days before arrival at 18:00 in Zurich (CET)


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # a rule is active from the clock's now: before the test's booking's moments


def property_id(engine: Engine, title: str = HOTEL) -> str:
    return engine.store.scalar("SELECT id FROM properties WHERE title = ?", (title,))


def book(engine: Engine, reservation: str = "7770001", guest: tuple[str, str] = ("Jane", "Doe")) -> str:
    """A Booking.com booking at the hotel, for the test's dates."""
    hotel = property_id(engine)
    room, plan = engine.store.one("SELECT r.id, p.id FROM room_types r JOIN rate_plans p ON p.room_type_id = r.id "
                                  "WHERE r.property_id = ? ORDER BY r.title, p.title LIMIT 1", (hotel,))
    channel = engine.store.one("SELECT * FROM channels WHERE channel_code = 'BookingCom'")
    nights = {f"2027-03-{night}": "120.00" for night in (10, 11, 12)}
    booking, _ = engine.bookings.inbound(channel, {
        "status": "new", "reservation_id": reservation, "property_id": hotel, "currency": "EUR",
        "arrival_date": ARRIVAL, "departure_date": DEPARTURE, "arrival_hour": "15:00",
        "customer": {"name": guest[0], "surname": guest[1], "country": "GB"},
        "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2},
                   "guests": [{"name": guest[0], "surname": guest[1]}], "days": nights}]}, secure=False)
    return booking["id"]


def save_replies(engine: Engine) -> dict[str, str]:
    """Saved replies of the hotel and of its group: their ids by title."""
    operator, hotel = engine.identity.operator(), property_id(engine)
    group = engine.store.scalar("SELECT group_id FROM properties WHERE id = ?", (hotel,))
    made = [engine.message_templates.create(operator, {"title": "Directions", "message": "Dear {guest_first_name}, "
                                                       "the way to {property} for {arrival_date}.",
                                                       "property_id": hotel}),
            engine.message_templates.create(operator, {"title": "Breakfast", "message": "Breakfast is from 7.",
                                                       "property_id": hotel}),
            engine.message_templates.create(operator, {"title": "Thank you", "message": "Thanks, {guest_name}!",
                                                       "group_id": group})]
    return {t["title"]: t["id"] for t in made}


def make_rules(engine: Engine) -> dict[str, str]:
    """One rule of each trigger, one of them paused, one for every property of the group: their ids by title."""
    operator, hotel, replies = engine.identity.operator(), property_id(engine), save_replies(engine)
    group = engine.store.scalar("SELECT group_id FROM properties WHERE id = ?", (hotel,))
    rules = [("Directions", "before_arrival", 3, "18:00", "Directions", {"property_id": hotel}),
             ("Breakfast", "arrival_day", 0, "08:00", "Breakfast", {"property_id": hotel}),
             ("Goodbye", "after_departure", 2, "10:00", "Thank you", {"group_id": group}),
             ("Welcome", "booking_confirmed", 0, None, "Thank you", {"group_id": group, "is_paused": True})]
    return {title: engine.message_rules.create(operator, {
        "title": title, "trigger": trigger, "days": days, "send_at": at, "message_template_id": replies[reply],
        **scope})["id"] for title, trigger, days, at, reply, scope in rules}


def rules(engine: Engine) -> list[dict[str, Any]]:
    rows, _ = engine.message_rules.list(engine.identity.operator(), ListQuery(limit=100))
    return rows


async def open_rules(pilot: Pilot) -> MessageRulesScreen:
    await open_inbox(pilot)
    return await press_for(pilot, "R", MessageRulesScreen)


async def open_list(pilot: Pilot) -> None:
    make_rules(pilot.app.engine)
    await open_rules(pilot)


async def open_new_rule(pilot: Pilot) -> None:
    save_replies(pilot.app.engine)
    await open_rules(pilot)
    await press_for(pilot, "n", RuleDialog)
    await type_text(pilot, "Directions")


async def open_preview(pilot: Pilot) -> None:
    made, jane = make_rules(pilot.app.engine), book(pilot.app.engine)
    screen = await open_rules(pilot)
    screen.table.move_cursor(row=screen.table.get_row_index(made["Directions"]))
    preview = await press_for(pilot, "v", RulePreview)
    preview.booking.control.value = jane
    await settle(pilot)


# --- snapshots ------------------------------------------------------------------------------------

def test_snapshot_rules(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_list)


def test_snapshot_rules_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=open_list)


def test_snapshot_rule_editor(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_new_rule)


def test_snapshot_rule_editor_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=open_new_rule)


def test_snapshot_preview(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_preview)


def test_snapshot_preview_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SMALL, run_before=open_preview)


# --- the words ------------------------------------------------------------------------------------

@pytest.mark.parametrize("trigger, days, at, words", [
    ("booking_confirmed", 0, None, "On confirmation"),
    ("before_arrival", 3, "18:00", "3 days before arrival at 18:00"),
    ("before_arrival", 1, "18:00", "1 day before arrival at 18:00"),
    ("before_arrival", 0, "18:00", "Day of arrival at 18:00"),
    ("arrival_day", 0, "08:00", "Morning of arrival at 08:00"),
    ("arrival_day", 0, "14:00", "Day of arrival at 14:00"),
    ("after_departure", 2, "10:00", "2 days after departure at 10:00"),
])
def test_when_a_rule_sends_reads_as_staff_say_it(trigger: str, days: int, at: str | None, words: str) -> None:
    assert sends_when({"trigger": trigger, "days": days, "send_at": at}) == words


# --- the list -------------------------------------------------------------------------------------

async def test_the_list_says_when_what_for_whom_how_many_and_paused(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        made = make_rules(engine)
        booking = book(engine)
        screen = await open_rules(pilot)
        cells = {row_id: [str(cell) for cell in screen.table.get_row(row_id)] for row_id in screen.rows}
        assert cells[made["Directions"]] == ["Directions", "3 days before arrival at 18:00", "Directions",
                                             HOTEL, "0", "On"]
        assert cells[made["Welcome"]] == ["Welcome", "On confirmation", "Thank you",
                                          "Every property of Sea & Mountain Stays", "0", "Paused"]
        # The sweep sends the rule's message at its moment: the row counts it, live.
        assert engine.message_rules.sweep(engine.store, DUE) == 1
        await until(pilot, lambda: str(screen.table.get_row(made["Directions"])[4]) == "1")
        assert engine.store.scalar("SELECT count(*) FROM message_rule_sends WHERE booking_id = ?", (booking,)) == 1


async def test_a_rule_written_in_the_dialog_is_the_engines(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        replies = save_replies(engine)
        screen = await open_rules(pilot)
        assert screen.page.total == 0
        dialog = await press_for(pilot, "n", RuleDialog)
        await type_text(pilot, "Directions")
        dialog.fields["scope"].control.value = "property:" + property_id(engine)
        dialog.fields["reply"].control.value = replies["Directions"]
        assert dialog.fields["trigger"].value == "before_arrival"
        dialog.fields["days"].value = "3"
        dialog.fields["send_at"].control.focus()
        await type_text(pilot, "18:00")
        await press_for(pilot, "ctrl+s", MessageRulesScreen)
        saved = rules(engine)
        assert [(r["title"], r["trigger"], r["days"], r["send_at"], r["message_template_id"], r["property_id"],
                 r["is_paused"]) for r in saved] == [("Directions", "before_arrival", 3, "18:00",
                                                      replies["Directions"], property_id(engine), False)]
        assert list(screen.rows) == [saved[0]["id"]]
        assert "message_rule.changed" in app.kind_generations  # for consoles of other processes too

        # Changed to the morning of arrival: days go, the time stays.
        dialog = await press_for(pilot, "e", RuleDialog)
        dialog.fields["trigger"].control.value = "arrival_day"
        await settle(pilot)
        assert dialog.fields["days"].control.disabled and not dialog.fields["send_at"].control.disabled
        dialog.fields["send_at"].value = "08:00"
        await press_for(pilot, "ctrl+s", MessageRulesScreen)
        assert [(r["trigger"], r["days"], r["send_at"]) for r in rules(engine)] == [("arrival_day", 0, "08:00")]
        assert str(screen.table.get_row(saved[0]["id"])[1]) == "Morning of arrival at 08:00"


async def test_a_refused_rule_shows_why_and_saves_nothing(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        replies = save_replies(engine)
        await open_rules(pilot)
        dialog = await press_for(pilot, "n", RuleDialog)
        await type_text(pilot, "Late")
        dialog.fields["scope"].control.value = "property:" + property_id(engine)
        dialog.fields["reply"].control.value = replies["Directions"]
        dialog.fields["send_at"].value = "25:00"
        await press_for(pilot, "ctrl+s", RuleDialog)
        assert "HH:MM" in str(dialog.fields["send_at"].error.render())
        assert rules(engine) == []
        # A saved reply of the group is not the hostel's, of another group.
        dialog.fields["send_at"].value = "18:00"
        dialog.fields["scope"].control.value = "property:" + property_id(engine, "Northern Lights Hostel")
        await press_for(pilot, "ctrl+s", RuleDialog)
        assert "is not a saved reply of the rule's property or group" in str(dialog.fields["reply"].error.render())
        assert not dialog.fields["send_at"].has_errors
        assert rules(engine) == []


async def test_p_pauses_and_resumes_and_d_deletes_after_asking(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        made = make_rules(engine)
        screen = await open_rules(pilot)
        screen.table.move_cursor(row=screen.table.get_row_index(made["Directions"]))
        await pilot.press("p")
        await settle(pilot)
        assert engine.message_rules.get(engine.identity.operator(), made["Directions"])["is_paused"] is True
        assert str(screen.table.get_row(made["Directions"])[5]) == "Paused"
        await pilot.press("p")
        await settle(pilot)
        assert engine.message_rules.get(engine.identity.operator(), made["Directions"])["is_paused"] is False
        assert str(screen.table.get_row(made["Directions"])[5]) == "On"

        dialog = await press_for(pilot, "d", ConfirmDialog)
        assert "Directions" in dialog.question
        await press_for(pilot, "n", MessageRulesScreen)  # no: it stays
        assert made["Directions"] in {r["id"] for r in rules(engine)}
        await press_for(pilot, "d", ConfirmDialog)
        await press_for(pilot, "y", MessageRulesScreen)
        assert made["Directions"] not in {r["id"] for r in rules(engine)} and made["Directions"] not in screen.rows
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, InboxScreen)


async def test_v_previews_the_message_filled_for_a_chosen_booking(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        made = make_rules(engine)
        jane, tom = book(engine), book(engine, "7770002", ("Tom", "Berg"))
        screen = await open_rules(pilot)
        screen.table.move_cursor(row=screen.table.get_row_index(made["Directions"]))
        preview = await press_for(pilot, "v", RulePreview)
        choice = preview.booking.control
        assert {value for _, value in choice.options} >= {jane, tom}
        hotel = property_id(engine)  # the hotel's own bookings alone
        assert all(engine.store.scalar("SELECT property_id FROM bookings WHERE id = ?", (booking,)) == hotel
                   for _, booking in choice.options)
        choice.value = jane
        await settle(pilot)
        assert str(preview.query_one("#preview-message").render()) == (
            "Dear Jane, the way to Hotel Edelweiss for 10 Mar 2027.")
        assert str(preview.query_one("#preview-when").render()) == "Sends on Sun 7 Mar 2027 at 18:00, the property's time"
        choice.value = tom
        await settle(pilot)
        assert str(preview.query_one("#preview-message").render()).startswith("Dear Tom,")
        await press_for(pilot, "escape", MessageRulesScreen)

        # A paused rule of the group: its message, and why it would not be sent.
        screen.table.move_cursor(row=screen.table.get_row_index(made["Welcome"]))
        preview = await press_for(pilot, "v", RulePreview)
        preview.booking.control.value = jane
        await settle(pilot)
        assert str(preview.query_one("#preview-message").render()) == "Thanks, Jane Doe!"
        assert str(preview.query_one("#preview-when").render()).startswith("Not sent: the rule is paused")


async def test_the_palette_opens_the_rules_from_another_area(engine: Engine, make_app) -> None:
    app = make_app()  # Properties
    async with app.run_test(size=SIZE) as pilot:
        make_rules(engine)
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await type_text(pilot, "Message rules")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MessageRulesScreen) and app.current_mode == "inbox"
        assert len(app.screen.rows) == 4
