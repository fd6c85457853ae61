"""Beside the conversation: the booking's stay with a key to the booking (and from the booking a key back to its
conversation), an inquiry's price today as the shopping API answers it; at 80×24, 120×40 and 200×60."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from rich.console import Console
from textual.pilot import Pilot

from backend.core.listing import ListQuery
from backend.engine import Engine
from console.bookings.detail import BookingDetailScreen
from console.inbox.screen import InboxScreen
from console.inbox.stay_panel import StayPanel
from tests.console.helpers import SIZE, frozen_clock, press_for, select_row, settle, until

pytestmark = pytest.mark.anyio

NARROW, WIDE = (80, 24), (200, 60)


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def panel_text(panel: StayPanel) -> str:
    console = Console(width=200, record=True)
    console.print(panel.content)
    return " ".join(f"{panel.border_title}\n{console.export_text()}\n{panel.border_subtitle}".split())


async def open_inbox(pilot: Pilot, guest: str | None = None) -> InboxScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, InboxScreen)
    if guest:
        select_row(screen, guest)
        await settle(pilot)
    return screen


async def on_emma(pilot: Pilot) -> None:
    await open_inbox(pilot, "Emma Clarke")


async def on_maya(pilot: Pilot) -> None:
    await open_inbox(pilot, "Maya Lin")


async def reading_emma_with_her_stay(pilot: Pilot) -> None:
    """At 80×24: Emma's conversation opened in the list's place, her stay shown over it with i."""
    await open_inbox(pilot, "Emma Clarke")
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("escape")  # from the reply box (where i is text) to the conversation
    await settle(pilot)
    await pilot.press("i")
    await settle(pilot)


# --- snapshots ------------------------------------------------------------------------------------

def test_snapshot_booking_beside_the_conversation(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=on_emma)


def test_snapshot_booking_beside_the_conversation_200x60(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=WIDE, run_before=on_emma)


def test_snapshot_inquiry_priced_today(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=on_maya)


def test_snapshot_the_list_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=NARROW, run_before=on_emma)


def test_snapshot_reading_with_the_stay_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=NARROW, run_before=reading_emma_with_her_stay)


# --- the panel ------------------------------------------------------------------------------------

async def test_a_booking_thread_shows_its_booking(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot, "Emma Clarke")
        thread = screen.conversation.thread
        booking = engine.bookings.get(engine.identity.operator(), thread["booking_id"])
        assert screen.stay.display and screen.stay.region.height > 0
        shown = panel_text(screen.stay)
        for words in (f"Booking {booking['unique_id']}", "Status new", "5 Feb 2027 → 7 Feb 2027 · 2 nights",
                      "Double Room Matterhorn View · Best Available Rate", "Guests 2 adults",
                      f"Amount {booking['amount']} {booking['currency']}", "Channel Booking.com", "b opens it"):
            assert words in shown


async def test_titles_show_as_typed(engine: Engine, make_app) -> None:
    """A room type named with brackets is shown as its name, never read as markup."""
    operator = engine.identity.operator()
    thread = next(t for t in engine.chat.threads(operator, ListQuery(limit=50))[0] if t["title"] == "Emma Clarke")
    room = engine.bookings.get(operator, thread["booking_id"])["rooms"][0]
    engine.inventory.room_types.update(operator, room["room_type_id"], {"title": "[bold]Suite[/bold] [red"})
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot, "Emma Clarke")
        assert "[bold]Suite[/bold] [red · Best Available Rate" in panel_text(screen.stay)


async def test_the_panel_shows_notes_and_follows_a_changed_booking(engine: Engine, make_app) -> None:
    """A modification from the channel reaches the panel: the new dates, the notes."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot, "Emma Clarke")
        thread = screen.conversation.thread
        booking = engine.bookings.get(engine.identity.operator(), thread["booking_id"])
        channel = engine.store.one("SELECT * FROM channels WHERE id = ?", (booking["channel_id"],))
        room = booking["rooms"][0]
        engine.bookings.inbound(channel, {
            "status": "modified", "reservation_id": booking["reservation_id"], "property_id": booking["property_id"],
            "arrival_date": "2027-02-06", "departure_date": "2027-02-09", "currency": booking["currency"],
            "payment_collect": "ota", "notes": "Late arrival, around 23:00", "customer": booking["customer"],
            "rooms": [{"room_type_code": room["room_type_code"], "rate_plan_code": room["rate_plan_code"],
                       "occupancy": {"adults": 2}}]}, secure=False)
        await settle(pilot)
        shown = panel_text(screen.stay)
        assert "6 Feb 2027 → 9 Feb 2027 · 3 nights" in shown and "Notes Late arrival, around 23:00" in shown
        assert "modified" in shown


async def test_an_inquiry_shows_its_price_today_as_the_shopping_api_answers(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot, "Maya Lin")  # 2 adults and a child, quoted a 1240.00 AUD payout
        thread = screen.conversation.thread
        stay = screen.stay.stay
        offer = engine.shopping.best_offer(thread["channel_id"], thread["property_id"], {
            "checkin_date": stay["checkin_date"], "checkout_date": stay["checkout_date"], "adults": "2",
            "children": "1"})
        shown = panel_text(screen.stay)
        assert f"Today {offer['offer']} {offer['currency']}" in shown
        assert "Quoted 1240.00 AUD payout" in shown and "above the payout" in shown
        assert "b opens it" not in shown and "open_booking" not in {b.binding.action
                                                                    for b in screen.active_bindings.values()}


async def test_an_inquiry_that_cant_be_sold_says_why(engine: Engine, make_app) -> None:
    operator = engine.identity.operator()
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot, "Tom Becker")  # Casa do Mar, 2 adults
        stay = screen.stay.stay
        for room in engine.inventory.room_types.for_property(operator, screen.conversation.thread["property_id"]):
            engine.inventory.ari.set_availability(operator, [{
                "property_id": room["property_id"], "room_type_id": room["id"], "date": stay["checkin_date"],
                "availability": 0}])
        await settle(pilot)
        shown = panel_text(screen.stay)
        assert "can't be sold now" in shown and f"no availability on {stay['checkin_date']}" in shown


# --- keys between the inbox and bookings ----------------------------------------------------------

async def test_b_opens_the_booking_and_m_comes_back_to_its_conversation(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot, "Emma Clarke")
        thread = inbox.conversation.thread
        page = await press_for(pilot, "b", BookingDetailScreen)
        assert app.current_mode == "bookings" and page.booking_id == thread["booking_id"]
        assert page.view is not None and page.view.booking["message_thread_id"] == thread["id"]
        select_row(inbox, "Maya Lin")  # the inbox moved on meanwhile
        await press_for(pilot, "m", InboxScreen)
        assert app.current_mode == "inbox"
        assert inbox.current_id() == thread["id"] and inbox.opened_id == thread["id"]
        assert app.focused is inbox.conversation.compose_box
        assert engine.chat.thread(engine.identity.operator(), thread["id"])["unread_count"] == 0  # opened: read


async def test_m_opens_the_conversation_on_the_inbox_first_visit(engine: Engine, make_app) -> None:
    """From Bookings before the inbox was ever shown: the inbox is made, then the conversation opened in it."""
    operator = engine.identity.operator()
    emma = next(t for t in engine.chat.threads(operator, ListQuery(limit=50))[0] if t["title"] == "Emma Clarke")
    app = make_app()  # on the properties list
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_booking(emma["booking_id"])
        await settle(pilot)
        assert isinstance(app.screen, BookingDetailScreen)
        inbox = await press_for(pilot, "m", InboxScreen)
        await until(pilot, lambda: app.focused is inbox.conversation.compose_box)
        assert inbox.current_id() == emma["id"] and inbox.opened_id == emma["id"]


async def test_m_finds_the_conversation_behind_filters_that_hide_it(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        inbox = await open_inbox(pilot, "Emma Clarke")
        thread = inbox.conversation.thread
        await press_for(pilot, "b", BookingDetailScreen)
        inbox.query_one("#ib-provider").value = "AirBNB"  # Emma wrote through Booking.com
        await settle(pilot)
        assert thread["id"] not in inbox.rows
        await press_for(pilot, "m", InboxScreen)
        assert inbox.current_id() == thread["id"] and inbox.opened_id == thread["id"]
        assert inbox.filters == [] and inbox.query_one("#ib-provider").value is None


async def test_a_booking_without_a_conversation_has_no_m(engine: Engine, make_app) -> None:
    operator = engine.identity.operator()
    quiet = next(b for b in engine.bookings.list(operator, ListQuery(limit=100))[0] if b["message_thread_id"] is None)
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_booking(quiet["id"])
        await settle(pilot)
        page = app.screen
        assert isinstance(page, BookingDetailScreen) and page.booking_id == quiet["id"]
        assert "open_thread" not in {b.binding.action for b in page.active_bindings.values()}
        await pilot.press("m")
        await settle(pilot)
        assert app.screen is page


# --- 80 columns -----------------------------------------------------------------------------------

async def test_at_80_columns_enter_reads_full_width_and_esc_goes_back(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_inbox(pilot, "Emma Clarke")
        reading, listing = screen.query_one("#reading"), screen.query_one("#ib-list-pane")
        search = screen.query_one("#ib-search")
        assert listing.region.width >= 76 and not reading.region  # the list alone, the whole width
        assert search.region.width >= 12 and search.region.right <= 80  # the search box on screen
        await pilot.press("enter")
        await settle(pilot)
        assert not listing.region and reading.region.width >= 76
        assert app.focused is screen.conversation.compose_box
        assert not screen.stay.region  # hidden until asked for at this width
        await pilot.press("escape")  # from writing to reading
        await settle(pilot)
        assert not listing.region and app.focused is screen.conversation.box
        await pilot.press("escape")
        await settle(pilot)
        assert listing.region.width >= 76 and not reading.region and app.focused is screen.table


async def test_at_80_columns_i_shows_the_stay_over_the_conversation(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_inbox(pilot)
        await reading_emma_with_her_stay(pilot)
        panel, messages = screen.stay, screen.conversation.box
        assert panel.region.height > 3 and messages.region.height > 3
        assert panel.region.bottom <= messages.region.y
        await pilot.press("i")
        await settle(pilot)
        assert not panel.region
