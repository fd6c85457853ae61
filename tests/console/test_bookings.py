"""Bookings: the list and its filters (today's arrivals, departures and guests in house; a search by number or
guest), the flags of bookings taken as sent, one booking in detail (card masked, notes, guests, reports to the
channel), acknowledging revisions, reporting a no-show or an invalid card; every screen at 120×40 and 80×24."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from backend.bookings.cards import Reveal
from backend.core.dates import local_now
from backend.core.listing import Filter, ListQuery
from backend.engine import Engine
from backend.tools.demo import TEST_CARD as CARD
from backend.tools.demo_chat import GUESTS
from console.bookings.detail import BookingDetailScreen
from console.bookings.reports import NoShowDialog
from console.bookings.screen import BookingsScreen
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from tests.console import bookings_scene as scene
from tests.console.helpers import SIZE, frozen_clock, press_for, settle, type_text

NARROW = (80, 24)

pytestmark = pytest.mark.anyio

# The demo's bookings from Booking.com and OpenShopping, oldest last; the demo's conversations come after them.
DEMO = ["BDC-40061187", "BDC-40051187", "BDC-40041187", "OSH-MS-7304", "OSH-MS-7303", "OSH-MS-7302", "OSH-MS-7301"]
DEMO_DAY = 6  # the demo's day at Hotel Edelweiss: bookings made after the conversations', so listed first
DECLINED = "BDC-40041187"  # whose card the demo hotel has reported invalid
CONVERSATIONS = len(GUESTS)  # each with a booking of its own


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the demo builds its dates from the clock: frozen, the snapshots' dates keep still


def words(screen, selector: str) -> str:
    """A section's words as the console prints them."""
    console = Console(width=SIZE[0], record=True)
    console.print(screen.query_one(selector, Static).content)
    return console.export_text()


def numbers(screen: BookingsScreen) -> list[str]:
    return [row["unique_id"] for row in screen.rows.values()]


async def open_bookings(pilot: Pilot) -> BookingsScreen:
    await settle(pilot)
    return await press_for(pilot, "5", BookingsScreen)


async def open_booking(pilot: Pilot, unique_id: str = "OSH-MS-7301") -> BookingDetailScreen:
    screen = await open_bookings(pilot)
    row_id = next(key for key, row in screen.rows.items() if row["unique_id"] == unique_id)
    screen.table.move_cursor(row=screen.table.get_row_index(row_id))
    return await press_for(pilot, "enter", BookingDetailScreen)


def test_snapshot_bookings(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_bookings)


def test_snapshot_booking_detail(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_booking)


async def open_declined(pilot: Pilot) -> None:
    await open_booking(pilot, DECLINED)


def test_snapshot_a_reported_booking(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_declined)


def test_snapshot_a_reported_booking_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_declined)


def family_booking(engine: Engine) -> None:
    """A family's booking as Channex's booking engine pushes it: its guests as `guest`, the children's ages (one
    left blank), a special request as notes."""
    operator = engine.identity.operator()
    alpenrose = engine.store.scalar("SELECT id FROM properties WHERE title = 'Pension Alpenrose'")
    room, plan = engine.store.one("SELECT r.id, p.id FROM room_types r JOIN rate_plans p ON p.room_type_id = r.id "
                                  "WHERE r.title = 'Family Room' ORDER BY p.title LIMIT 1")
    arrival = engine.config.clock().date() + timedelta(days=40)
    engine.bookings.take(operator, {
        "property_id": alpenrose, "status": "new", "reservation_id": "FAMILY-1", "currency": "EUR",
        "arrival_date": arrival.isoformat(), "departure_date": (arrival + timedelta(days=2)).isoformat(),
        "customer": {"name": "Léa", "surname": "Dubois", "country": "FR", "state": "Île-de-France"},
        "notes": "A cot for the baby, please",
        "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2, "children": 2},
                   "guest": [{"name": "Léa", "surname": "Dubois"}, {"name": "Tom", "surname": "Dubois"}],
                   "guests_ages": [7, None]}]}, secure=False)


async def open_family_booking(pilot: Pilot) -> BookingDetailScreen:
    family_booking(pilot.app.engine)
    return await open_booking(pilot, "OFL-FAMILY-1")


async def test_the_detail_shows_the_childrens_ages(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_family_booking(pilot)
        rooms = words(detail, "#bk-rooms")
        assert "Guests Léa Dubois, Tom Dubois" in rooms and "Children's ages 7, not given" in rooms
        assert words(detail, "#bk-notes").strip() == "A cot for the baby, please"


def test_snapshot_a_family_booking(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_family_booking)


def test_snapshot_a_family_booking_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_family_booking)


async def test_the_detail_shows_notes_guests_and_reports(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_booking(pilot, DECLINED)
        assert words(detail, "#bk-notes").strip() == "Travelling with a small dog."
        assert "Guests Marco Rossi" in words(detail, "#bk-rooms")
        reports = words(detail, "#bk-reports")
        assert "Card invalid" in reports and "waiting for Booking.com" in reports


async def test_staff_report_to_the_channel_and_hear_why_not(make_app, engine: Engine) -> None:
    actor = engine.identity.operator()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_booking(pilot, DECLINED)
        await pilot.press("x")  # the guest still has time to send another card
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert "the guest may send another card until" in str(detail.query_one("#status-news").render())
        assert engine.bookings.get(actor, detail.booking_id)["status"] == "new"
        await pilot.press("n")  # arriving in nine days: no no-show yet
        assert isinstance(app.screen, NoShowDialog)
        await pilot.press("w")
        await settle(pilot)
        news = str(detail.query_one("#status-news").render())
        assert news == "A no-show can be marked from the arrival day on"  # a sentence, not a form's heading
        assert list(app._notifications)[-1].title == "Not reported"
        await pilot.press("escape")
        await settle(pilot)
        other = await open_booking(pilot, "BDC-40051187")  # no card: nothing to report, said in plain words
        await pilot.press("i", "y")
        await settle(pilot)
        assert "Guarantee holds no card to report" in str(other.query_one("#status-news").render())
        await pilot.press("n", "escape")  # changed one's mind: nothing is reported
        await settle(pilot)
        assert engine.bookings.get(actor, other.booking_id)["reports"] == []


async def test_staff_report_a_no_show_and_a_declined_card(make_app, engine: Engine) -> None:
    actor = engine.identity.operator()
    riad = engine.bookings.get(actor, engine.store.scalar("SELECT id FROM bookings WHERE unique_id = 'BDC-40051187'"))
    today = local_now(engine.properties.get(actor, riad["property_id"])["timezone"], frozen_clock()).date()
    room = riad["rooms"][0]
    engine.bookings.inbound(engine.store.one("SELECT * FROM channels WHERE id = ?", (riad["channel_id"],)), {
        "status": "new", "reservation_id": "NOSHOW", "property_id": riad["property_id"], "currency": riad["currency"],
        "arrival_date": today.isoformat(), "departure_date": (today + timedelta(days=2)).isoformat(),
        "customer": {"name": "Ines", "surname": "Alaoui"}, "guarantee": CARD,
        "rooms": [{"room_type_code": room["room_type_code"], "rate_plan_code": room["rate_plan_code"],
                   "occupancy": {"adults": 2}}]}, secure=False)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_booking(pilot, "BDC-NOSHOW")
        await pilot.press("n")
        assert "Ines Alaoui did not arrive?" in str(app.screen.query_one(".dialog-title").render())
        await pilot.press("c")
        await settle(pilot)
        assert "Reported: No-show" in str(detail.query_one("#status-news").render())
        await pilot.press("i", "y")
        await settle(pilot)
        reports = words(detail, "#bk-reports")
        assert "No-show, fee charged" in reports and "Card invalid" in reports
    made = engine.bookings.get(actor, detail.booking_id)["reports"]
    assert [(r["report"], r["waived_fees"]) for r in made] == [("no_show", False), ("invalid_card", None)]


async def test_filters_the_list(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bookings(pilot)
        every = numbers(screen)
        assert every[-len(DEMO):] == DEMO and len(every) == len(DEMO) + CONVERSATIONS + DEMO_DAY  # newest first
        assert all(row["pending"] for row in screen.rows.values())
        screen.query_one("#bk-status").value = "cancelled"
        await settle(pilot)
        assert numbers(screen) == ["OSH-MS-7304"]
        screen.query_one("#bk-status").clear()
        screen.query_one("#bk-from").value = "2026-12-01"
        screen.query_one("#bk-to").value = "2026-12-07"
        screen.query_one("#bk-from").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert numbers(screen) == ["BDC-40051187", "BDC-40041187", "OSH-MS-7302"]
        edelweiss = next(pid for pid, title in screen.property_titles.items() if title == "Hotel Edelweiss")
        screen.query_one("#bk-from").value = screen.query_one("#bk-to").value = ""
        screen.query_one("#bk-property").value = edelweiss
        await settle(pilot)
        assert [n for n in numbers(screen) if n.startswith("OSH")] == ["OSH-MS-7304", "OSH-MS-7301"]
        screen.query_one("#bk-property").clear()
        await pilot.press("slash")
        await type_text(pilot, "bdc")
        await pilot.press("enter")
        await settle(pilot)
        assert numbers(screen) == [n for n in every if n.startswith("BDC")]
        assert "number or guest containing “bdc”" in str(screen.query_one("#status-where").render())


async def test_acknowledging_clears_the_pending_revisions(make_app, engine: Engine) -> None:
    actor = engine.identity.operator()

    def pending(booking_id: str) -> int:
        query = ListQuery(filters=[Filter("booking_id", "eq", booking_id)])
        return engine.bookings.revisions(actor, query, feed=True)[1]["total"]

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_booking(pilot, "OSH-MS-7304")  # new, then cancelled: two revisions
        assert pending(detail.booking_id) == 2
        await pilot.press("a")
        await settle(pilot)
        assert pending(detail.booking_id) == 0
        assert "all acknowledged" in str(detail.query_one("#status-where").render())
        await pilot.press("escape")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BookingsScreen)
        assert not screen.rows[detail.booking_id]["pending"]
        await pilot.press("u")  # unacknowledged only
        await settle(pilot)
        assert "OSH-MS-7304" not in numbers(screen) and len(numbers(screen)) == len(DEMO) + CONVERSATIONS + DEMO_DAY - 1
    assert engine.bookings.revisions(actor, ListQuery(), feed=True)[1]["total"] == 6 + CONVERSATIONS + DEMO_DAY


async def test_the_detail_never_shows_the_card_number(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_booking(pilot)
        shown = app.export_screenshot()
        assert "411111******1111" in shown
        assert "4111111111111111" not in shown and "123" not in str(detail.query_one("#bk-guarantee").render())
        assert detail.view is not None and detail.view.booking["guarantee"]["cvv"] == "***"
    # The card is there, sealed: only a reveal could show it, and the console never asks for one.
    booking = engine.bookings.get(engine.identity.operator(), detail.booking_id, reveal=Reveal("tests"))
    assert booking["guarantee"]["card_number"] == "4111111111111111"


async def test_a_date_that_is_not_one_says_so_instead_of_showing_nothing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bookings(pilot)
        shown = numbers(screen)
        screen.query_one("#bk-from").value = "next week"
        screen.query_one("#bk-from").focus()
        await pilot.press("enter")
        await settle(pilot)
        said = str(screen.query_one("#status-news").render())
        assert said == "“next week” is not a date: type 2026-12-24, 24 Dec, 24/12 or +7"
        assert numbers(screen) == shown  # the list as it was, not an empty one
        assert app.focused is screen.query_one("#bk-from")  # the focus stays on the field with the error
        await pilot.press(*"2026-12-01")  # digits are text here, not a switch to another area
        await settle(pilot)
        assert app.screen is screen and screen.query_one("#bk-from").value.endswith("2026-12-01")


async def test_the_arrival_filter_takes_dates_as_staff_type_them(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bookings(pilot)
        screen.query_one("#bk-from").value = "1 Dec"
        screen.query_one("#bk-to").value = "7 dec"
        screen.query_one("#bk-from").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert numbers(screen) == ["BDC-40051187", "BDC-40041187", "OSH-MS-7302"]
        assert "arriving from 2026-12-01 · arriving until 2026-12-07" in status_where(screen).replace(", ", " · ")


# --- today, guests' names, flags; 80 columns -------------------------------------------------------------------


def status_where(screen) -> str:
    return str(screen.query_one("#status-where").render())


async def open_today(pilot: Pilot) -> BookingsScreen:
    scene.stage_today(pilot.app.engine)
    return await open_bookings(pilot)


async def arrivals_today(pilot: Pilot) -> None:
    await open_today(pilot)
    await pilot.press("a")
    await settle(pilot)


async def open_flagged(pilot: Pilot) -> None:
    scene.stage_today(pilot.app.engine)
    await open_booking(pilot, scene.OVERBOOKED)


async def no_show_question(pilot: Pilot) -> None:
    scene.stage_today(pilot.app.engine)
    await open_booking(pilot, scene.ARRIVING[1])
    await press_for(pilot, "n", NoShowDialog)


def test_snapshot_bookings_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_bookings)


def test_snapshot_arrivals_today(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=arrivals_today)


def test_snapshot_arrivals_today_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=arrivals_today)


def test_snapshot_a_flagged_booking(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_flagged)


def test_snapshot_a_flagged_booking_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_flagged)


def test_snapshot_the_no_show_question(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=no_show_question)


def test_snapshot_the_no_show_question_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=no_show_question)


async def search(pilot: Pilot, screen: BookingsScreen, words: str) -> list[str]:
    screen.query_one("#bk-search", Input).value = ""
    await pilot.press("slash")
    await type_text(pilot, words)
    await pilot.press("enter")
    await settle(pilot)
    return numbers(screen)


async def test_staff_find_a_booking_by_any_guests_name(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_today(pilot)
        assert await search(pilot, screen, "jonas") == ["BDC-5550101"]  # a guest of the room, not the customer
        assert "number or guest containing “jonas”" in status_where(screen)
        # Anna Müller, three times: in the demo's day at Hotel Edelweiss too
        assert await search(pilot, screen, "MULLER") == ["BDC-40122290", "BDC-40061187", "OSH-MS-7301"]
        assert await search(pilot, screen, "inês ferr") == [scene.IN_HOUSE]
        assert await search(pilot, screen, "5550103") == [scene.LEAVING]  # the number still finds it
        assert await search(pilot, screen, "nobody") == []


async def test_a_search_too_long_says_so_in_plain_words(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bookings(pilot)
        shown = numbers(screen)
        screen.query_one("#bk-search", Input).value = "x" * 201
        screen.query_one("#bk-search", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        said = str(screen.query_one("#status-news").render())
        assert said == "Search must be at most 200 characters"
        assert numbers(screen) == shown


async def test_todays_arrivals_departures_and_guests_in_house_by_key(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_today(pilot)
        every = numbers(screen)
        stay = screen.query_one("#bk-stay", Choice)
        await pilot.press("a")
        await settle(pilot)
        assert numbers(screen) == scene.ARRIVING + scene.DEMO_ARRIVING  # not the arrival that was cancelled
        assert stay.value == "arriving_today" and "arriving today" in status_where(screen)
        await pilot.press("a")  # again: every booking
        await settle(pilot)
        assert numbers(screen) == every and stay.value is None
        await pilot.press("d")
        await settle(pilot)
        assert numbers(screen) == [scene.LEAVING, *scene.DEMO_LEAVING]
        await pilot.press("h")
        await settle(pilot)
        assert numbers(screen) == [*scene.ARRIVING, scene.IN_HOUSE, *scene.DEMO_IN_HOUSE]
        assert "in house tonight" in status_where(screen)
        await pilot.press("t")  # the next view in turn: after in house, every booking
        await settle(pilot)
        assert numbers(screen) == every
        await pilot.press("t")
        await settle(pilot)
        assert numbers(screen) == scene.ARRIVING + scene.DEMO_ARRIVING
        screen.query_one("#bk-status", Choice).value = "cancelled"  # filters add up
        await settle(pilot)
        assert numbers(screen) == []


async def test_overbooked_and_unmapped_bookings_are_marked_and_explained(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_today(pilot)
        status = {row["unique_id"]: screen.table.get_row(key)[0].plain for key, row in screen.rows.items()}
        assert status[scene.OVERBOOKED] == "● new ⚠?" and status[scene.UNMAPPED] == "● new ?"
        assert status[scene.ARRIVING[1]] == "● new" and status[scene.CANCELLED] == "✕ cancelled"
        assert "42 bookings · ⚠ overbooked · ? unmapped" in status_where(screen)  # what the marks mean
        detail = await open_booking(pilot, scene.OVERBOOKED)
        overview = words(detail, "#bk-overview")
        assert "⚠ overbooked: sold with no room free for it" in overview
        assert "? unmapped: a room or rate matches nothing here" in overview
        assert "Family Room · ? unmapped code BDC-WINTER-2025" in words(detail, "#bk-rooms")
        await pilot.press("escape")
        await settle(pilot)
        detail = await open_booking(pilot, scene.ARRIVING[1])
        assert "Flags" not in words(detail, "#bk-overview") and "unmapped" not in words(detail, "#bk-rooms")


async def test_every_filter_and_the_columns_that_matter_fit_80_columns(make_app) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_bookings(pilot)
        for control in ("#bk-stay", "#bk-status", "#bk-property", "#bk-from", "#bk-to", "#bk-unacked", "#bk-search"):
            region = screen.query_one(control).region
            assert region.width >= 6 and region.height == 1 and region.right <= NARROW[0], control
        assert [str(column.label) for column in screen.table.columns.values()] == [
            "Status", "Booking", "Guest", "Arrival", "Departure"]
        assert "not shown: Channel, Acked, Amount, Property" in status_where(screen)
        assert screen.table.region.height >= 12  # the list keeps most of the window
