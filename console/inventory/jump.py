"""A small prompt for the night the calendar should start on, in any of the ways staff type a date
(backend.core.typed_dates.py); what is not a date is refused there and then, and the prompt stays open."""

from __future__ import annotations

from datetime import date

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from backend.core.typed_dates import EXAMPLES, NotADate, typed_date
from console.inventory.summary import day_text
from console.kit.field import Field
from console.kit.screens import ModalScreen


class JumpDialog(ModalScreen[date | None]):
    """Dismissed with the date typed, or None."""

    BINDINGS = [Binding("escape", "dismiss", "Cancel")]

    def __init__(self, today: date) -> None:
        super().__init__(classes="dialog-screen")
        self.today = today
        self.field = Field("Date", Input(placeholder=EXAMPLES, id="jump-date", compact=True), path="date")
        self.fields = {"date": self.field}  # a form's fields by name, as every dialog of the console has them

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="jump-dialog"):
            yield Label("Go to a date", classes="dialog-title")
            yield self.field
            yield Static(f"Today is {day_text(self.today)} at the property · enter to go, esc to stay",
                         classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.field.control.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            self.dismiss(typed_date(event.value, self.today))
        except NotADate as problem:
            self.field.show_errors([str(problem)])
