"""What a message rule sends to a booking of its property (or its group's), filled in, and when."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Label, Static

from backend.core.dates import local_now
from backend.core.listing import Filter, ListQuery
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.messages import ActionFailed
from console.kit.screens import ModalScreen
from console.kit.words import stamp
from console.kit.workers import engine_work, post_fresh
from console.message_rules.keys import RULE_PREVIEW
from console.message_rules.words import booking_option, sends_when

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

PREVIEWED = 100  # the bookings the preview offers, latest arrival first


class BookingsFound(Message):
    def __init__(self, options: list[tuple[str, str]], zones: dict[str, str | None]) -> None:
        super().__init__()
        self.options = options
        self.zones = zones  # each booking's property's time zone, by booking


class PreviewMade(Message):
    def __init__(self, preview: dict[str, Any]) -> None:
        super().__init__()
        self.preview = preview


class RulePreview(ModalScreen[None]):
    """What a rule sends to a booking of its property (or its group's), filled in, and when."""

    BINDINGS = RULE_PREVIEW

    app: ConsoleApp

    def __init__(self, rule: dict[str, Any], properties: list[str]) -> None:
        super().__init__(classes="dialog-screen")
        self.rule = rule
        self.properties = properties
        self.zones: dict[str, str | None] = {}  # as BookingsFound has them
        self.booking = Field("For the booking", Choice([], prompt="reading the bookings…", id="preview-booking"),
                             path="booking_id")

    def compose(self) -> ComposeResult:
        with Vertical(id="preview-dialog", classes="dialog wide-dialog -fits-short"):
            yield Label(f"“{self.rule['title']}” · {sends_when(self.rule)}", classes="dialog-title", markup=False)
            yield self.booking
            yield Static("", id="preview-when", classes="dialog-text", markup=False)
            with VerticalScroll(id="preview-scroll", can_focus=False):
                yield Static("", id="preview-message", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close (esc)", id="close")

    def on_mount(self) -> None:
        self.booking.control.focus()
        self.find_bookings()

    @engine_work(exclusive=True, group="bookings")
    def find_bookings(self) -> None:
        query = ListQuery(limit=PREVIEWED, order=[("arrival_date", "desc")],
                          filters=[Filter("property_id", "eq", ",".join(self.properties))])
        engine, actor = self.app.engine, self.app.actor()
        rows, _ = engine.bookings.list(actor, query) if self.properties else ([], {})
        zones = {pid: engine.properties.get(actor, pid)["timezone"] for pid in {row["property_id"] for row in rows}}
        post_fresh(self, BookingsFound([booking_option(row) for row in rows],
                                       {row["id"]: zones[row["property_id"]] for row in rows}))

    def on_bookings_found(self, message: BookingsFound) -> None:
        choice = self.booking.control
        assert isinstance(choice, Choice)
        self.zones = message.zones
        if not message.options:
            choice.prompt = "no bookings yet"
            choice.refresh()
            self.query_one("#preview-when", Static).update("The rule's property has no booking to preview it for.")
            return
        choice.set_options(message.options)
        choice.value = message.options[0][1]

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.value is not None:
            self.make_preview(event.value)

    @engine_work(exclusive=True, group="preview")
    def make_preview(self, booking_id: str) -> None:
        preview = self.app.engine.message_rules.preview(self.app.actor(), self.rule["id"], {"booking_id": booking_id})
        post_fresh(self, PreviewMade(preview))

    def on_preview_made(self, message: PreviewMade) -> None:
        preview = message.preview
        at = "no date yet"
        if preview["at"]:  # the engine's moment is UTC; staff read the property's own time, as the rule names it
            local = local_now(self.zones.get(preview["booking_id"]), stamp(preview["at"]))
            at = f"{local:%a %-d %b %Y at %H:%M}, the property's time"
        said = f"Sends on {at}" if preview["would_send"] else f"Not sent: {preview['skipped']} (due on {at})"
        self.query_one("#preview-when", Static).update(said)
        self.query_one("#preview-message", Static).update(preview["message"])

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        self.booking.clear_errors()
        self.booking.show_errors([text for texts in message.problems().values() for text in texts])

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.dismiss(None)
