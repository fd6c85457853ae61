"""Book a test stay through the channel, exactly as a guest of the channel would (push_booking).

The booking is real: it takes rooms and shows up in Bookings. It carries no card, so nothing
sensitive is ever typed here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from console.kit.field import Field
from console.kit.messages import ActionFailed
from console.kit.screens import ModalScreen
from console.kit.words import party
from console.kit.workers import engine_work
from console.shopping.keys import BOOK_STAY
from console.shopping.stay import StayQuery

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

STAY_FIELDS = {"arrival_date": "Check-in", "departure_date": "Check-out", "currency": "Currency",
               "rooms": "Room", "reservation_id": "Reservation"}


class Booked(Message):
    def __init__(self, booking: dict[str, Any]) -> None:
        super().__init__()
        self.booking = booking


def problem_line(path: str, text: str) -> str:
    """A problem of the stay rather than the guest: `rooms.0` is the one room booked here."""
    head = path.split(".", 1)[0]
    return f"{STAY_FIELDS.get(head, path)} {text}" if path else text


class BookStayDialog(ModalScreen[dict[str, Any] | None]):
    BINDINGS = BOOK_STAY

    app: ConsoleApp

    def __init__(self, stay: StayQuery, prop: dict[str, Any], room: dict[str, Any], plan: dict[str, Any]) -> None:
        super().__init__(classes="dialog-screen")
        self.stay = stay
        self.property = prop
        self.room = room
        self.plan = plan
        self.booking: dict[str, Any] | None = None
        self.fields = {
            "customer.surname": Field("Guest surname", Input(id="guest-surname", compact=True),
                                      path="customer.surname", required=True),
            "customer.name": Field("Name", Input(id="guest-name", compact=True), path="customer.name"),
            "customer.mail": Field("E-mail", Input(id="guest-mail", compact=True), path="customer.mail"),
        }

    def compose(self) -> ComposeResult:
        plan = self.plan
        with Vertical(classes="dialog wide-dialog -fits-short", id="test-booking"):
            yield Label("Book a test stay", classes="dialog-title")
            yield Static(f"{self.property['title']} · {self.room['title']} · {plan['title']}\n"
                         f"{self.stay.checkin} → {self.stay.checkout} · {party(plan['occupancy'])} · "
                         f"{plan['price']} {plan['currency']}",
                         classes="dialog-text", markup=False)
            with Horizontal(id="guest-fields"):
                yield from self.fields.values()
            yield Static("", id="booking-problems", markup=False)
            yield Static("", id="booking-result", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Book (ctrl+s)", id="book", variant="primary")

    def on_mount(self) -> None:
        self.fields["customer.surname"].control.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "book":
            self.action_book()
        else:
            self.action_close()

    def on_input_submitted(self) -> None:
        self.action_book()

    def action_close(self) -> None:
        self.dismiss(self.booking)

    def action_book(self) -> None:
        if self.booking is not None:
            self.action_close()
            return
        customer = {name.split(".")[1]: field.value.strip() or None for name, field in self.fields.items()}
        self.book({
            "status": "new", "arrival_date": self.stay.checkin, "departure_date": self.stay.checkout,
            "currency": self.plan["currency"],
            "customer": {key: value for key, value in customer.items() if value is not None},
            "rooms": [{"room_type_code": self.room["id"], "rate_plan_code": self.plan["id"],
                       "occupancy": self.plan["occupancy"]}],
        })

    @engine_work(exclusive=True, group="book")
    def book(self, data: dict[str, Any]) -> None:
        booking, _ = self.app.engine.bookings.push(self.stay.channel_id or "", self.property["id"], data,
                                                   secure=False)
        self.post_message(Booked(booking))

    def on_booked(self, message: Booked) -> None:
        self.booking = message.booking
        for field in self.fields.values():
            field.clear_errors()
            field.control.disabled = True
        self.say("#booking-problems", "")
        self.say("#booking-result",
                 f"Booked: {message.booking['unique_id']} · {message.booking['amount']} {message.booking['currency']}")
        self.query_one("#cancel", Button).display = False
        done = self.query_one("#book", Button)
        done.label = "Done"
        done.focus()

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown beside the fields, not as the app's notification
        unplaced = []
        for field in self.fields.values():
            field.clear_errors()
        for path, texts in message.problems().items():
            field = self.fields.get(path)
            if field is not None:
                field.show_errors(texts)
            else:
                unplaced += [problem_line(path, text) for text in texts]
        self.say("#booking-problems", "\n".join(unplaced))

    def say(self, selector: str, text: str) -> None:
        panel = self.query_one(selector, Static)
        panel.update(text)
        panel.set_class(bool(text), "-shown")
