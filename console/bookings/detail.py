"""One booking: its stay, rooms night by night with their guests and children's ages, notes, services, guest, masked
card, revisions and the reports made to its channel, which staff make here too (a no-show, an invalid card, a
cancellation for an invalid card: Booking.com's, under its rules, which the engine checks). `m` opens the guest's
conversation in the Inbox, when there is one.

The card shows as the engine stores it for display — first 6 and last 4 digits, CVV `***`. The
console never asks the engine to reveal a card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from backend.bookings.reports import NotYet
from backend.core.card_data import mask_number
from backend.core.listing import MAX_LIMIT, Filter, ListQuery
from console.bookings.flags import explained
from console.bookings.keys import BOOKING
from console.bookings.reports import WORDS, NoShowDialog, reports_view
from console.kit.app_bar import AppBar
from console.kit.confirm import ConfirmDialog
from console.kit.footer import Footer
from console.kit.labels import describe, title_for
from console.kit.messages import ActionDone, ActionFailed, DataChanged
from console.kit.screens import Screen
from console.kit.status_line import StatusLine
from console.kit.words import party
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp


@dataclass(frozen=True)
class BookingView:
    booking: dict[str, Any]
    revisions: list[dict[str, Any]]  # newest first
    property_title: str
    room_titles: dict[str, str]
    plan_titles: dict[str, str]

    @property
    def pending(self) -> list[str]:
        return [r["id"] for r in self.revisions if r["acked_at"] is None]


class BookingLoaded(Message):
    def __init__(self, view: BookingView) -> None:
        super().__init__()
        self.view = view


def pairs(rows: list[tuple[str, Any]]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, value in rows:
        grid.add_row(label, value if isinstance(value, Text) else Text(str(value if value is not None else "—")))
    return grid


def card_number(guarantee: dict[str, Any]) -> str:
    """As stored; should a clear number ever reach this screen, it is masked here all the same."""
    number = str(guarantee.get("card_number") or "")
    return mask_number(number) if number.isdigit() and len(number) > 10 else number


def overview(booking: dict[str, Any], property_title: str) -> Table:
    flags = explained(booking)
    payment = booking["payment_collect"] + (f", {booking['payment_type'].replace('_', ' ')}"
                                            if booking["payment_type"] else "")
    return pairs([
        ("Status", Text(booking["status"], style="bold")),
        *([("Flags", flags)] if flags else []),
        ("Booking", booking["unique_id"]),
        ("Channel", booking["ota_name"]),
        ("Property", property_title),
        ("Stay", f"{booking['arrival_date']} → {booking['departure_date']}"
                 + (f", arriving {booking['arrival_hour']}" if booking["arrival_hour"] else "")),
        ("Amount", f"{booking['amount']} {booking['currency']}"),
        ("Payment", f"collected by {payment}"),
    ])


def rooms_view(view: BookingView) -> RenderableType:
    parts: list[RenderableType] = []
    for room in view.booking["rooms"]:
        # Codes are the property's IDs: a known room's code names it even when the booking's rate maps to nothing.
        room_title = view.room_titles.get(room["room_type_id"] or room["room_type_code"],
                                          f"? unmapped code {room['room_type_code']}")
        plan_title = view.plan_titles.get(room["rate_plan_id"] or "", f"? unmapped code {room['rate_plan_code']}")
        parts.append(Text.assemble((room_title, "bold"), f" · {plan_title} · {party(room['occupancy'])}"))
        names = [name for name in map(full_name, room.get("guests") or []) if name]
        if names:
            parts.append(Text.assemble(("Guests ", "dim"), ", ".join(names)))
        ages = children_ages(room)
        if ages:
            parts.append(Text.assemble(("Children's ages ", "dim"), ages))
        # As many nights a line as the width holds, in columns.
        parts.append(Columns([Text.assemble((day, "dim"), f" {price or '—'}") for day, price in room["days"].items()],
                             padding=(0, 3)))
    return Group(*parts) if parts else Text("none", style="dim")


def services_view(services: list[dict[str, Any]], currency: str) -> RenderableType:
    if not services:
        return Text("none", style="dim")
    return Group(*(Text(f"{s['name']} ({s['type']}, {s['price_mode'].lower()}) · {s['total_price']} {currency}")
                   for s in services))


def children_ages(room: dict[str, Any]) -> str:
    """As a booking engine sent them (`guests_ages`, where one left blank is not given), else as the room's
    occupancy has them."""
    ages = room.get("guests_ages") or room["occupancy"].get("ages") or []
    return ", ".join("not given" if age is None else str(age) for age in ages)


def full_name(person: dict[str, Any]) -> str:
    return " ".join(part for part in (person.get("name"), person.get("surname")) if part)


def customer_view(customer: dict[str, Any] | None) -> RenderableType:
    if not customer:
        return Text("none", style="dim")
    return pairs([("Name", full_name(customer)), ("E-mail", customer.get("mail")), ("Phone", customer.get("phone")),
                  ("Country", customer.get("country")), ("Language", customer.get("language"))])


def guarantee_view(guarantee: dict[str, Any] | None) -> RenderableType:
    if not guarantee:
        return Text("no card", style="dim")
    return pairs([("Card", f"{card_number(guarantee)} ({guarantee.get('card_type')})"),
                  ("Holder", guarantee.get("cardholder_name")), ("Expires", guarantee.get("expiration_date")),
                  ("CVV", "***")])


def revisions_view(revisions: list[dict[str, Any]]) -> RenderableType:
    table = Table.grid(padding=(0, 2))
    for number, revision in zip(range(len(revisions), 0, -1), revisions, strict=True):
        acked = (Text("✓ acknowledged", style="green") if revision["acked_at"]
                 else Text("○ pending", style="bold yellow"))
        table.add_row(f"#{number}", revision["status"], f"{revision['amount']} {revision['currency']}", acked)
    return table


class BookingDetailScreen(Screen):
    BINDINGS = BOOKING
    # Side by side where there is room; one above the other in a narrow window, each line whole.

    app: ConsoleApp

    def __init__(self, booking_id: str, unique_id: str) -> None:
        super().__init__()
        self.booking_id = booking_id
        self.unique_id = unique_id
        self.view: BookingView | None = None

    def compose(self) -> ComposeResult:
        yield AppBar("bookings", self.unique_id)
        with VerticalScroll(id="booking-detail"):
            with Horizontal(classes="detail-row"):
                yield Static(id="bk-overview", classes="detail-section")
                yield Static(id="bk-customer", classes="detail-section")
            yield Static(id="bk-reports", classes="detail-section")  # shown once there are some
            yield Static(id="bk-rooms", classes="detail-section")
            yield Static(id="bk-notes", classes="detail-section")  # shown when the booking has notes
            with Horizontal(classes="detail-row"):
                yield Static(id="bk-services", classes="detail-section")
                yield Static(id="bk-guarantee", classes="detail-section")
            yield Static(id="bk-revisions", classes="detail-section")
        yield StatusLine()
        yield Footer()

    def on_mount(self) -> None:
        for section, title in (("overview", "Booking"), ("customer", "Guest"), ("reports", "Reported to the channel"),
                               ("rooms", "Rooms"), ("notes", "Notes"), ("services", "Services"),
                               ("guarantee", "Guarantee"), ("revisions", "Revisions")):
            self.query_one(f"#bk-{section}", Static).border_title = title
        self.query_one("#booking-detail").focus()
        self.load()

    def on_data_changed(self, message: DataChanged) -> None:
        if message.concerns(("booking.", "vault.", "property.", "channel.", "inventory.")):
            self.load()

    @engine_work(exclusive=True, group="booking")
    def load(self) -> None:
        engine, actor = self.app.engine, self.app.actor()
        booking = engine.bookings.get(actor, self.booking_id)
        query = ListQuery(limit=MAX_LIMIT, filters=[Filter("booking_id", "eq", self.booking_id)])
        revisions, _ = engine.bookings.revisions(actor, query)
        pid = booking["property_id"]
        title = next((p["title"] for p in engine.properties.options(actor) if p["id"] == pid), "?")
        rooms = {r["id"]: r["title"] for r in engine.inventory.room_types.for_property(actor, pid)}
        plans = {r["id"]: r["title"] for r in engine.inventory.rate_plans.for_property(actor, pid)}
        post_fresh(self, BookingLoaded(BookingView(booking, revisions, title, rooms, plans)))

    def on_booking_loaded(self, message: BookingLoaded) -> None:
        self.view = view = message.view
        booking = view.booking
        self.refresh_bindings()  # m shows once the booking is known to have a conversation
        self.query_one("#bk-overview", Static).update(overview(booking, view.property_title))
        self.query_one("#bk-customer", Static).update(customer_view(booking["customer"]))
        self.query_one("#bk-rooms", Static).update(rooms_view(view))
        notes, reports = self.query_one("#bk-notes", Static), self.query_one("#bk-reports", Static)
        notes.update(Text(booking["notes"] or ""))  # as typed: never read as markup
        notes.display = bool(booking["notes"])
        reports.update(reports_view(booking["reports"], booking["ota_name"]))
        reports.display = bool(booking["reports"])
        self.query_one("#bk-services", Static).update(services_view(booking["services"], booking["currency"]))
        self.query_one("#bk-guarantee", Static).update(guarantee_view(booking["guarantee"]))
        self.query_one("#bk-revisions", Static).update(revisions_view(view.revisions))
        count = len(view.pending)
        self.query_one(StatusLine).where(
            f"{len(view.revisions)} revision{'s' if len(view.revisions) != 1 else ''} · "
            + (f"{count} pending: press a to acknowledge" if count else "all acknowledged"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open_thread":  # only a booking whose guest has written (or been written to) has a conversation
            return self.view is not None and self.view.booking["message_thread_id"] is not None
        return True

    async def action_open_thread(self) -> None:
        if self.view is not None and self.view.booking["message_thread_id"]:
            await self.app.open_thread(self.view.booking["message_thread_id"])

    def action_ack(self) -> None:
        if self.view is None or not self.view.pending:
            self.app.bell()
            return
        self.ack(self.view.pending)

    @engine_work(group="ack")
    def ack(self, revision_ids: list[str]) -> None:
        engine, actor = self.app.engine, self.app.actor()
        for revision_id in revision_ids:
            engine.bookings.ack(actor, revision_id)
        count = len(revision_ids)
        self.post_message(ActionDone(f"Acknowledged {count} revision{'s' if count != 1 else ''}"))

    def action_no_show(self) -> None:
        if self.view is not None:
            guest = full_name(self.view.booking["customer"] or {}) or "The guest"
            self.app.push_screen(NoShowDialog(guest, self.view.booking["ota_name"]),
                                 lambda waived: waived is None or self.report("no_show", waived))

    def action_invalid_card(self) -> None:
        self._confirm("invalid_card", "Report the card as invalid?",
                      "{channel} asks the guest for another card. If none comes in time, x cancels the booking.",
                      "Report")

    def action_cancel_invalid_card(self) -> None:
        self._confirm("cancel_due_invalid_card", "Cancel the booking: card invalid?",
                      "The booking is cancelled, its rooms given back, and {channel} is told.", "Cancel booking")

    def _confirm(self, kind: str, question: str, detail: str, confirm: str) -> None:
        if self.view is not None:
            self.app.push_screen(ConfirmDialog(question, detail.format(channel=self.view.booking["ota_name"]), confirm),
                                 lambda yes: yes and self.report(kind))

    @engine_work(group="report")
    def report(self, kind: str, waived_fees: bool | None = None) -> None:
        actor, reports = self.app.actor(), self.app.engine.bookings.reports
        if kind == "no_show":
            reports.no_show(actor, self.booking_id, {"waived_fees": waived_fees})
        else:
            getattr(reports, kind)(actor, self.booking_id)
        self.post_message(ActionDone(f"Reported: {WORDS[kind]}"))

    def on_action_done(self, message: ActionDone) -> None:
        message.stop()
        self.query_one(StatusLine).news(message.text)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        if isinstance(message.error, NotYet):  # refused for its date: a plain sentence, no form's heading
            self.query_one(StatusLine).news(message.error.sentence, error=True)
            self.notify(message.error.sentence, title="Not reported", severity="error")
            return
        text = describe(message.error)
        self.query_one(StatusLine).news(text, error=True)
        self.notify(text, title=title_for(message.error), severity="error")
