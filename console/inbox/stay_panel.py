"""Beside the conversation: the guest's stay. For a booking's thread, the booking (dates, rooms and rate plans,
guests, amount, status, channel, number, notes; b opens it in Bookings); for an Airbnb inquiry, the stay asked
for, the payout Airbnb quoted and what the stay costs today, or why it can't be sold. The engine works it all
out (`engine.thread_stays`); this shows it.

Beside the conversation at 160 columns and more, above it below that; at 80 columns `i` shows it over the
conversation, and hides it again (it hides and shows it at any width).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from console.kit.stay import booking_view, dates, pairs
from console.kit.words import counted, party
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp


class StayLoaded(Message):
    def __init__(self, thread_id: str, stay: dict[str, Any] | None) -> None:
        super().__init__()
        self.thread_id = thread_id
        self.stay = stay


def inquiry_view(stay: dict[str, Any]) -> Table:
    occupancy = stay["occupancy"]
    guests = party(occupancy) if occupancy["adults"] else "not given"
    if occupancy["pets"]:
        guests += f", {counted(occupancy['pets'], 'pet')}"
    rows: list[tuple[str, str | Text]] = [("Stay", dates(stay["checkin_date"], stay["checkout_date"], stay["nights"])),
                                          ("Guests", guests)]
    if stay["payout"] is not None:
        rows.append(("Quoted", f"{stay['payout']} {stay['currency']} payout"))
    rows.append(("Today", today_text(stay)))
    return pairs(rows)


def today_text(stay: dict[str, Any]) -> Text:
    """What the stay costs on the channel now, against the payout quoted; or why nothing sells it."""
    today = stay["today"]
    if today["price"] is None:
        text = Text("can't be sold now", style="bold red")
        for reason in today["reasons"]:
            text.append(f"\n{reason}", style="")
        return text
    text = Text(f"{today['price']} {today['currency']}", style="bold")
    difference = stay["difference"]
    if difference is not None:
        text.append(" (as quoted)" if difference == "0.00" else
                    f" ({difference.lstrip('+-')} {'below' if difference.startswith('-') else 'above'} the payout)")
    text.append(f"\n{today['room_type']} · {today['rate_plan']}", style="dim")
    return text


class StayPanel(Static):
    app: ConsoleApp

    def __init__(self) -> None:
        super().__init__(id="stay", markup=False)
        self.thread_id: str | None = None
        self.stay: dict[str, Any] | None = None

    def follow(self, thread: dict[str, Any] | None) -> None:
        """Show the stay of the thread on show (None: no thread), read afresh: the booking may have changed."""
        self.thread_id = thread["id"] if thread else None
        if thread is None:
            self.show(None)
        else:
            self.load(thread["id"])

    @engine_work(exclusive=True, group="stay")
    def load(self, thread_id: str) -> None:
        post_fresh(self, StayLoaded(thread_id, self.app.engine.thread_stays.of(self.app.actor(), thread_id)))

    def on_stay_loaded(self, message: StayLoaded) -> None:
        if message.thread_id == self.thread_id:
            self.show(message.stay)

    def show(self, stay: dict[str, Any] | None) -> None:
        self.stay = stay
        self.set_class(stay is not None, "-shown")
        if stay is None:
            self.update("")
        elif stay["kind"] == "booking":
            self.border_title = Text(f"Booking {stay['unique_id']}")
            self.border_subtitle = "b opens it"
            self.update(booking_view(stay))
        else:
            self.border_title = "Airbnb inquiry: the stay today"
            self.border_subtitle = None
            self.update(inquiry_view(stay))

    @property
    def booking_id(self) -> str | None:
        return self.stay["booking_id"] if self.stay and self.stay["kind"] == "booking" else None
