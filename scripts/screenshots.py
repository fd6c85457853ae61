"""Regenerate screenshots/*.svg: every console screen at 120x40 (the inbox at 80x24 and 200x60 too), over a fresh
database of demo data.

    .venv/bin/python scripts/screenshots.py [NAME ...]   # only those, e.g. tokenisation-tester
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.console.bookings_scene import OVERBOOKED, stage_today
from tests.console.helpers import SteadyApp, add_hostel_channel, frozen_clock, select_row, settle, type_text
from tests.console.outbox_scene import stage_events_out
from tests.console.test_reviews import chart_of_edelweiss, reading_emma, reviewing_lea

SIZE = (120, 40)
OUT = ROOT / "screenshots"

Steps = Callable[[Pilot], Awaitable[None]]


async def select(pilot: Pilot, title: str) -> None:
    select_row(pilot.app.screen, title)
    await pilot.pause()


async def open_thread(pilot: Pilot, guest: str) -> None:
    """Put the inbox's cursor on a guest's thread and open it."""
    await select(pilot, guest)
    await settle(pilot)
    await pilot.press("enter")


async def inbox(pilot: Pilot) -> None:
    await open_thread(pilot, "Emma Clarke")


async def inbox_narrow(pilot: Pilot) -> None:
    """At 80×24: Emma's conversation read in the list's place, her booking shown over it (i)."""
    await inbox(pilot)
    await settle(pilot)
    await pilot.press("escape", "i")


async def inbox_inquiry(pilot: Pilot) -> None:
    await open_thread(pilot, "Maya Lin")


async def inbox_reply(pilot: Pilot) -> None:
    await open_thread(pilot, "Camille Martin")
    await settle(pilot)
    await type_text(pilot, "Bonjour Camille, oui : le petit-déjeuner est inclus, de 7h à 10h30.")


async def properties(pilot: Pilot) -> None:
    await select(pilot, "Hotel Edelweiss")


async def property_editor(pilot: Pilot) -> None:
    await select(pilot, "Hotel Edelweiss")
    await pilot.press("e")


async def property_editor_content(pilot: Pilot) -> None:
    await property_editor(pilot)
    await settle(pilot)
    editor = pilot.app.screen
    editor.query_one("#form").scroll_to_widget(editor.fields["content.description"], top=True, animate=False)


async def property_editor_errors(pilot: Pilot) -> None:
    await pilot.press("n")
    await settle(pilot)
    editor = pilot.app.screen
    await type_text(pilot, "Villa Aurora")
    editor.fields["currency"].value = "EURO"
    editor.fields["settings.state_length"].value = "50"
    await pilot.press("ctrl+s")


async def property_channels(pilot: Pilot) -> None:
    add_hostel_channel(pilot.app.engine)
    await select(pilot, "Northern Lights Hostel")
    await pilot.press("c")
    await settle(pilot)
    await pilot.press("space")


async def confirm_delete(pilot: Pilot) -> None:
    await select(pilot, "Riad Yasmine")
    await pilot.press("d")


async def channels(pilot: Pilot) -> None:
    """Channels in every sync state, and webhooks, staged before the area first reads them."""
    stage_events_out(pilot.app.engine)
    await pilot.press("2")


async def channel_sync_log(pilot: Pilot) -> None:
    await channels(pilot)
    await settle(pilot)
    await select(pilot, "Booking.com")
    await pilot.press("l")


async def webhooks(pilot: Pilot) -> None:
    await channels(pilot)
    await settle(pilot)
    await pilot.press("w")


async def channel_new(pilot: Pilot) -> None:
    await pilot.press("2")
    await settle(pilot)
    await pilot.press("n")
    await type_text(pilot, "Expedia")


async def channel_inbound_key(pilot: Pilot) -> None:
    await channel_new(pilot)
    await pilot.press("ctrl+s")


async def help_screen(pilot: Pilot) -> None:
    await pilot.press("f1")


async def command_palette(pilot: Pilot) -> None:
    await pilot.press("ctrl+p")
    await type_text(pilot, "ho")
    await pilot.pause(0.5)


async def shopping(pilot: Pilot) -> None:
    await pilot.press("4")


async def shopping_property(pilot: Pilot) -> None:
    await pilot.press("4")
    await settle(pilot)
    await select(pilot, "Casa do Mar")
    await pilot.press("enter")


async def shopping_booking(pilot: Pilot) -> None:
    await shopping_property(pilot)
    await settle(pilot)
    await pilot.press("b")
    await settle(pilot)
    await type_text(pilot, "Pereira")
    await pilot.press("tab", "tab")
    await type_text(pilot, "ana@")
    await pilot.press("ctrl+s")


async def bookings(pilot: Pilot) -> None:
    await pilot.press("5")


async def bookings_today(pilot: Pilot) -> None:
    """Today's arrivals at Pension Alpenrose: one overbooked, on a rate the hotel no longer has."""
    stage_today(pilot.app.engine)
    await pilot.press("5")
    await settle(pilot)
    await pilot.press("a")


async def booking_flagged(pilot: Pilot) -> None:
    stage_today(pilot.app.engine)
    await pilot.press("5")
    await settle(pilot)
    screen = pilot.app.screen
    row = next(key for key, booking in screen.rows.items() if booking["unique_id"] == OVERBOOKED)
    screen.table.move_cursor(row=screen.table.get_row_index(row))
    await pilot.press("enter")


async def booking_detail(pilot: Pilot) -> None:
    """BDC-40041187: its notes, its guest by room, and its card reported invalid to Booking.com."""
    await pilot.press("5")
    await settle(pilot)
    screen = pilot.app.screen
    row = next(key for key, booking in screen.rows.items() if booking["unique_id"] == "BDC-40041187")
    screen.table.move_cursor(row=screen.table.get_row_index(row))
    await pilot.press("enter")


async def inventory(pilot: Pilot, tab: str = "r") -> None:
    """The Inventory area on Hotel Edelweiss, on the tab of key `tab` (r, p or c)."""
    await pilot.press("3")
    await settle(pilot)
    screen = pilot.app.screen
    picker = screen.query_one("#inventory-property")
    picker.value = next(p["id"] for p in screen.data.properties if p["title"] == "Hotel Edelweiss")
    await settle(pilot)
    await pilot.press(tab)


async def inventory_rate_plans(pilot: Pilot) -> None:
    await inventory(pilot, "p")


async def inventory_rate_plan_editor(pilot: Pilot) -> None:
    await inventory(pilot, "p")
    await settle(pilot)
    await pilot.press("e")


async def inventory_derived_rate_plan(pilot: Pilot) -> None:
    """The Member rate: 10% off the Best Available Rate, following its stop sell, arrivals and min stay."""
    await inventory(pilot, "p")
    await settle(pilot)
    screen = pilot.app.screen
    plan = next(p for p in screen.data.plans if p["title"] == "Member rate")
    screen.plans_table.move_cursor(row=screen.plans_table.get_row_index(plan["id"]))
    await pilot.press("e")
    await settle(pilot)
    editor = pilot.app.screen
    editor.query_one("#form").scroll_to_widget(editor.fields["rate_mode"], top=True, animate=False)


async def inventory_calendar(pilot: Pilot) -> None:
    """Three nights of the Double's rooms and flexible rate chosen with shift+arrows."""
    await inventory(pilot, "c")
    await settle(pilot)
    await pilot.press("right", "shift+right", "shift+right", "shift+down")


async def inventory_range(pilot: Pilot) -> None:
    await inventory_calendar(pilot)
    await settle(pilot)
    await pilot.press("e")
    await settle(pilot)
    await type_text(pilot, "310")


async def inventory_range_confirmation(pilot: Pilot) -> None:
    """Ten weeks at a rate less than half of the weekend's: summed up and asked about before anything is written."""
    await inventory_range(pilot)
    await settle(pilot)
    dialog = pilot.app.screen
    dialog.fields["rate"].value = "130"
    dialog.fields["date_to"].value = "2027-01-31"
    await pilot.press("ctrl+s")


async def tokenisation_editor(pilot: Pilot) -> None:
    """A new profile started from the OTA_ResRetrieveRS sample, with a typo in an XPath."""
    await pilot.press("6")
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)
    editor = pilot.app.screen
    editor.query_one("#profile-start").value = "ota_res_retrieve"
    await settle(pilot)
    editor.editor.load_text(editor.editor.text.replace('"ota:CardNumber/ota:PlainText"', '"ota:CardNumber/ota:PlainText["'))
    await pilot.pause(0.5)  # the editor checks 300 ms after the last change


async def tokenisation_tester(pilot: Pilot) -> None:
    """A dry run of the OTA_HotelResNotifRQ sample, both panes at its first card."""
    await pilot.press("6")
    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)
    await pilot.press("l", "down", "down", "down", "enter")
    await settle(pilot)
    await pilot.press("ctrl+r")
    await settle(pilot)
    tester = pilot.app.screen.tester
    for area in (tester.message_area, tester.result_area):
        lines = area.text.splitlines()
        area.move_cursor((next(n for n, line in enumerate(lines) if "<PaymentCard" in line), 0), center=True)


async def reviews(pilot: Pilot, then: Steps | None = None) -> None:
    """The Reviews area; then `then` there (one of the reviews tests' scenes)."""
    await pilot.press("7")
    await settle(pilot)
    if then is not None:
        await then(pilot)


async def reviews_reply(pilot: Pilot) -> None:
    await reviews(pilot, reading_emma)


async def reviews_guest_review(pilot: Pilot) -> None:
    await reviews(pilot, reviewing_lea)


async def reviews_scores(pilot: Pilot) -> None:
    await reviews(pilot, chart_of_edelweiss)


async def message_rules(pilot: Pilot) -> None:
    """Two rules of the portfolio's, sending its saved replies on their own: one paused."""
    engine = pilot.app.engine
    operator = engine.identity.operator()
    replies = {t["title"]: t for t in engine.message_templates.list(operator, ListQuery(limit=100))[0]}
    edelweiss = engine.store.scalar("SELECT id FROM properties WHERE title = 'Hotel Edelweiss'")
    for title, reply, rule in (
            ("Arrival details", "Check-in times", {"trigger": "before_arrival", "days": 2, "send_at": "10:00",
                                                   "property_id": edelweiss}),
            ("Thank you", "Booking confirmed", {"trigger": "booking_confirmed",
                                                "group_id": replies["Booking confirmed"]["group_id"]}),
            ("After the stay", "Thanks for staying", {"trigger": "after_departure", "days": 1, "send_at": "11:00",
                                                      "group_id": replies["Thanks for staying"]["group_id"],
                                                      "is_paused": True})):
        engine.message_rules.create(operator, {"title": title, "message_template_id": replies[reply]["id"], **rule})
    await settle(pilot)
    await pilot.press("R")  # shift+r


# Scenes in the inbox, where the console opens; every other scene starts on the properties list.
INBOX_SHOTS = {"inbox", "inbox-80x24", "inbox-200x60", "inbox-inquiry", "inbox-reply", "message-rules"}
SIZES = {"inbox-80x24": (80, 24), "inbox-200x60": (200, 60)}  # the others at SIZE

SHOTS: dict[str, Steps] = {
    "inbox": inbox,
    "inbox-80x24": inbox_narrow,
    "inbox-200x60": inbox,
    "inbox-inquiry": inbox_inquiry,
    "inbox-reply": inbox_reply,
    "message-rules": message_rules,
    "properties": properties,
    "property-editor": property_editor,
    "property-editor-content": property_editor_content,
    "property-editor-errors": property_editor_errors,
    "property-channels": property_channels,
    "confirm-delete": confirm_delete,
    "channels": channels,
    "channel-sync-log": channel_sync_log,
    "webhooks": webhooks,
    "channel-new": channel_new,
    "channel-inbound-key": channel_inbound_key,
    "help": help_screen,
    "command-palette": command_palette,
    "shopping": shopping,
    "shopping-property": shopping_property,
    "shopping-booking": shopping_booking,
    "bookings": bookings,
    "booking-detail": booking_detail,
    "bookings-today": bookings_today,
    "booking-flagged": booking_flagged,
    "inventory": inventory,
    "inventory-rate-plans": inventory_rate_plans,
    "inventory-rate-plan-editor": inventory_rate_plan_editor,
    "inventory-derived-rate-plan": inventory_derived_rate_plan,
    "inventory-calendar": inventory_calendar,
    "inventory-range": inventory_range,
    "inventory-range-confirmation": inventory_range_confirmation,
    "tokenisation-editor": tokenisation_editor,
    "tokenisation-tester": tokenisation_tester,
    "reviews": reviews,
    "reviews-reply": reviews_reply,
    "reviews-guest-review": reviews_guest_review,
    "reviews-scores": reviews_scores,
}


async def shoot(engine: Engine, name: str, steps: Steps) -> None:
    app = SteadyApp(engine, mode=None if name in INBOX_SHOTS else "properties")
    async with app.run_test(size=SIZES.get(name, SIZE)) as pilot:
        await settle(pilot)
        await steps(pilot)
        await settle(pilot)
        app.save_screenshot(f"{name}.svg", str(OUT))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    wanted = sys.argv[1:] or list(SHOTS)
    unknown = sorted(set(wanted) - set(SHOTS))
    if unknown:
        sys.exit(f"no such screenshot: {', '.join(unknown)}")
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # so that the app bar shows a short database path
        for name, steps in SHOTS.items():
            if name not in wanted:
                continue
            # Same dates on every run; the staged channels' and webhooks' example addresses are not looked up.
            engine = Engine.open("frontdesk.db", Config(clock=frozen_clock, fetch_private_addresses=True))
            if engine.is_empty():
                load_demo(engine)
            await shoot(engine, name, steps)
            engine.store.close()
            for leftover in Path(folder).glob("frontdesk.db*"):
                leftover.unlink()  # every shot starts from the demo data as loaded


if __name__ == "__main__":
    asyncio.run(main())
