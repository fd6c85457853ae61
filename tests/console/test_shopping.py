"""Shopping preview: the offers of a shopping channel, one property's calendar and rooms, a test booking."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import datetime

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from backend.core.listing import Filter, ListQuery
from backend.engine import Engine
from console.shopping.booking import BookStayDialog
from console.shopping.property import ShoppingPropertyScreen
from console.shopping.screen import ShoppingScreen
from tests.console.helpers import SIZE, frozen_clock, press_for, select_row, settle, titles, type_text

pytestmark = pytest.mark.anyio


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the demo's dates keep still, and the default stay is 2026-12-01 → 2026-12-04


def months(calendar: Static) -> list[str]:
    """The titles of the month grids shown, left to right."""
    return re.findall(r"[A-Z][a-z]+ \d{4}", calendar.render().plain.splitlines()[0])


async def open_shopping(pilot: Pilot) -> ShoppingScreen:
    await settle(pilot)
    return await press_for(pilot, "4", ShoppingScreen)


async def open_property(pilot: Pilot, title: str = "Casa do Mar") -> ShoppingPropertyScreen:
    screen = await open_shopping(pilot)
    select_row(screen, title)
    return await press_for(pilot, "enter", ShoppingPropertyScreen)


async def open_booking_with_error(pilot: Pilot) -> None:
    await open_property(pilot)
    await pilot.press("b")
    await settle(pilot)
    await type_text(pilot, "x")
    await pilot.press("tab")
    await pilot.press("tab")
    await type_text(pilot, "not-an-address")
    await pilot.press("ctrl+s")
    await settle(pilot)


def test_snapshot_offers(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_shopping)


def test_snapshot_property(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_property)


def test_snapshot_booking_error(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_booking_with_error)


def test_snapshot_offers_80x24(snap_compare, make_app) -> None:
    """The stay on one line and the party on the next; the property's city before its country."""
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_shopping)


def test_snapshot_property_80x24(snap_compare, make_app) -> None:
    """One month, its legend beside it, and the rooms keep their rows."""
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_property)


def test_snapshot_property_200x60(snap_compare, make_app) -> None:
    """Four months side by side."""
    assert snap_compare(make_app(), terminal_size=(200, 60), run_before=open_property)


def test_snapshot_booking_error_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=open_booking_with_error)


async def test_lists_offers_and_filters_the_available(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_shopping(pilot)
        assert titles(screen) == ["Casa do Mar", "Harbour Lights Apartments", "Hotel Edelweiss"]
        assert screen.rows[select_row(screen, "Casa do Mar")["id"]]["best_offer"] == "585.00"
        # Casa do Mar (one villa) is booked from 2026-12-04: a stay across it has no offer there.
        screen.query_one("#shop-checkin").value = "2026-12-05"
        screen.query_one("#shop-checkout").value = "2026-12-08"
        screen.query_one("#shop-checkin").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert select_row(screen, "Casa do Mar")["best_offer"] is None
        screen.query_one("#shop-available").toggle()
        await settle(pilot)
        assert titles(screen) == ["Harbour Lights Apartments", "Hotel Edelweiss"]


async def test_a_wrong_stay_is_refused_by_name(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_shopping(pilot)
        screen.query_one("#shop-checkout").value = "2026-11-30"
        screen.query_one("#shop-checkout").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert str(screen.query_one("#status-news").render()) == "checkout_date must be after checkin_date"


async def test_books_a_test_stay(make_app, engine: Engine) -> None:
    actor = engine.identity.operator()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        page = await open_property(pilot)
        assert "2026-12-01" not in page.page.closed["closed"]
        room, plan = next(iter(page.plans.values()))
        assert (room["title"], plan["title"], plan["price"]) == ("Whole Villa", "Best Available Rate", "780.00")
        await pilot.press("enter")
        dialog = app.screen
        assert isinstance(dialog, BookStayDialog)
        await type_text(pilot, "Pereira")
        await pilot.press("tab")
        await type_text(pilot, "Ana")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert dialog.booking is not None
        unique_id = dialog.booking["unique_id"]
        assert str(dialog.query_one("#booking-result").render()).startswith(f"Booked: {unique_id} · 780.00 EUR")
        await pilot.press("enter")  # Done
        await settle(pilot)
        assert app.screen is page
        # The only villa is taken for those nights: the calendar closes them, and the offer is gone.
        assert {"2026-12-01", "2026-12-02", "2026-12-03"} <= set(page.page.closed["closed"])
        assert page.plans == {}
    found, _ = engine.bookings.list(actor, ListQuery(filters=[Filter("unique_id", "eq", unique_id)]))
    assert [(b["status"], b["customer"]["surname"], b["arrival_date"], b["departure_date"], b["amount"])
            for b in found] == [("new", "Pereira", "2026-12-01", "2026-12-04", "780.00")]
    room_type_id = found[0]["rooms"][0]["room_type_id"]
    query = ListQuery.from_params([("filter[property_id]", found[0]["property_id"]),
                                   ("filter[date][gte]", "2026-12-01"), ("filter[date][lte]", "2026-12-04")])
    assert engine.inventory.ari.availability(actor, query)[room_type_id] == {
        "2026-12-01": 0, "2026-12-02": 0, "2026-12-03": 0, "2026-12-04": 0}  # the 4th: the demo booking's


async def test_a_refused_test_booking_shows_the_problems_beside_the_fields(make_app, engine: Engine) -> None:
    def bookings() -> int:
        return engine.bookings.list(engine.identity.operator(), ListQuery())[1]["total"]

    before = bookings()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_booking_with_error(pilot)
        dialog = app.screen
        assert isinstance(dialog, BookStayDialog)
        assert dialog.booking is None
        assert dialog.fields["customer.mail"].has_errors
        assert not dialog.fields["customer.surname"].has_errors
    assert bookings() == before  # refused: nothing booked


async def test_the_page_shows_as_many_months_as_the_window_holds_and_keeps_the_rooms_in_view(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_property(pilot)
        calendar = screen.query_one("#shop-calendar", Static)
        assert months(calendar) == ["December 2026"]
        assert "× closed" in calendar.render().plain.splitlines()[2]  # the legend beside the month
        rooms = screen.query_one("#shop-rooms", DataTable)
        assert rooms.row_count == 2 and rooms.size.height >= 1 + rooms.row_count  # header and both offers
        assert "not shown: Cancellation, Meal" in screen.query_one("#status-where", Static).render().plain
        plan = Console(width=76, file=io.StringIO())
        plan.print(screen.query_one("#shop-plan", Static).content)
        assert "Room only" in plan.file.getvalue()  # the meal, spelt out below the table

        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        assert months(calendar) == ["December 2026", "January 2027", "February 2027", "March 2027"]
        assert "not shown" not in screen.query_one("#status-where", Static).render().plain
