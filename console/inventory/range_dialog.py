"""Set availability, or rates and restrictions, for a range of nights (optionally some weekdays).

Blank fields are left as they are; the engine judges the rest. A refusal (a past or reversed
date, a negative number) comes back as `values.0.<field>` and shows beside that field; what the
engine did but warned about (a rate clamped to min_price, nights beyond state_length) is returned
to the calendar to show. A derived plan's values that follow its parent can't be typed here: their
fields say which plan sets them.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from console.inventory.ari_grid import GridRow
from console.inventory.data import inherits
from console.kit.field import Field
from console.kit.forms import int_or_raw
from console.kit.labels import label_for
from console.kit.messages import ActionFailed
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

STAYS = (("min_stay_arrival", "Min stay on arrival"), ("min_stay_through", "Min stay through"),
         ("max_stay", "Max stay (0: none)"))
FLAGS = (("stop_sell", "Stop sell", "stopped", "selling"), ("closed_to_arrival", "Closed to arrival", "closed", "open"),
         ("closed_to_departure", "Closed to departure", "closed", "open"))

# The field a row of the calendar is about, where the cursor starts.
FIRST_FIELD = {"availability": "availability", "rate": "rate", "closed": "stop_sell", "stay": "min_stay_arrival"}


class RangeSaved(Message):
    def __init__(self, warnings: list[dict[str, Any]]) -> None:
        super().__init__()
        self.warnings = warnings


def weekdays(text: str) -> list[str]:
    """ "fr, sa" or "Fr Sa" → ["fr", "sa"]; what isn't a weekday is passed on for the engine to name."""
    return [word.lower() for word in text.replace(",", " ").split()]


class RangeEditDialog(ModalScreen[list[dict[str, Any]] | None]):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "dismiss", "Cancel"),
    ]

    app: ConsoleApp

    def __init__(self, property_id: str, row: GridRow, day: date, parent: dict[str, Any] | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.property_id = property_id
        self.row = row
        self.is_availability = row.kind == "availability"
        self.fields = {
            "date_from": Field("From", Input(day.isoformat(), placeholder="YYYY-MM-DD", id="range-from", compact=True),
                               path="date_from", required=True),
            "date_to": Field("To (included)", Input(day.isoformat(), placeholder="YYYY-MM-DD", id="range-to",
                                                    compact=True), path="date_to", required=True),
            "days": Field("Only on", Input(placeholder="every day · e.g. fr sa", id="range-days", compact=True),
                          path="days"),
        }
        if self.is_availability:
            self.fields["availability"] = Field("Rooms to sell", Input(id="range-availability", compact=True),
                                                path="availability", required=True)
        else:
            names = ("rate", *(name for name, _ in STAYS), *(name for name, *_ in FLAGS))
            follows = {name: inherits(row.plan, name) for name in names}  # type: ignore[arg-type]
            unset = {name: f"from {parent['title'] if parent else 'its parent'}" if follows[name] else "unchanged"
                     for name in names}
            self.fields["rate"] = Field("Rate", Input(placeholder=unset["rate"], id="range-rate", compact=True,
                                                      disabled=follows["rate"]), path="rate")
            for name, label in STAYS:
                self.fields[name] = Field(label, Input(placeholder=unset[name], id=f"range-{name}", compact=True,
                                                       disabled=follows[name]), path=name)
            for name, label, yes, no in FLAGS:
                self.fields[name] = Field(label, Select([(yes, True), (no, False)], prompt=unset[name],
                                                        id=f"range-{name}", compact=True, disabled=follows[name]),
                                          path=name)

    def compose(self) -> ComposeResult:
        if self.is_availability:
            title, what = f"Rooms to sell · {self.row.room['title']}", "availability"
        else:
            title = f"Rates and restrictions · {self.row.plan['title']}"  # type: ignore[index]
            what = f"{self.row.room['title']}, in {self.row.plan['currency']}"  # type: ignore[index]
        with Vertical(classes="dialog wide-dialog", id="range-dialog"):
            yield Label(title, classes="dialog-title", markup=False)
            yield Static(f"{what} · blank fields stay as they are", classes="dialog-text", markup=False)
            yield Grid(*self.fields.values(), classes="fields")
            yield Static("", id="range-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def on_mount(self) -> None:
        first = self.fields[FIRST_FIELD[self.row.kind]].control
        (self.fields["date_from"].control if first.disabled else first).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "cancel":
            self.dismiss(None)

    def on_input_submitted(self) -> None:
        self.action_save()

    def value(self) -> dict[str, Any]:
        """The one value the engine takes, from the filled-in fields only."""
        value: dict[str, Any] = {"property_id": self.property_id,
                                 "date_from": self.fields["date_from"].value.strip(),
                                 "date_to": self.fields["date_to"].value.strip()}
        if days := weekdays(self.fields["days"].value):
            value["days"] = days
        if self.is_availability:
            return {**value, "room_type_id": self.row.room["id"],
                    "availability": int_or_raw(self.fields["availability"].value)}
        value["rate_plan_id"] = self.row.plan["id"]  # type: ignore[index]
        if rate := self.fields["rate"].value.strip():
            value["rate"] = rate
        for name, _ in STAYS:
            if text := self.fields[name].value.strip():
                value[name] = int_or_raw(text)
        for name, *_ in FLAGS:
            if (flag := self.fields[name].value) is not None:
                value[name] = flag
        return value

    def action_save(self) -> None:
        self.save(self.value())

    @engine_work(exclusive=True, group="save")
    def save(self, value: dict[str, Any]) -> None:
        ari, actor = self.app.engine.inventory.ari, self.app.actor()
        if self.is_availability:
            warnings = ari.set_availability(actor, [value])
        else:
            warnings = ari.set_restrictions(actor, [value])
        self.post_message(RangeSaved(warnings))

    def on_range_saved(self, message: RangeSaved) -> None:
        self.dismiss(message.warnings)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown here, beside the fields, not as the app's notification
        for field in self.fields.values():
            field.clear_errors()
        unplaced = []
        for path, texts in message.problems().items():
            name = path.removeprefix("values.0.").split(".")[0]  # days.2 is about the days field
            name = "date_from" if name == "date" else name
            if name in self.fields:
                self.fields[name].show_errors(texts)
            else:
                unplaced += [f"{label_for(name)} {text}" if name else text for text in texts]
        self.query_one("#range-problems", Static).update("\n".join(unplaced))
