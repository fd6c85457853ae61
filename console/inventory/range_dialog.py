"""Set availability, rates and restrictions for a range of nights (optionally some weekdays) of the rows chosen
in the calendar: the room types' rooms to sell and the rate plans' values, all in one write.

Blank fields are left as they are; the engine is the one judge of the rest. Saving first asks the engine to
review the edit, which checks everything typed at once: every problem (a past or reversed date, a rate that is
not money, a min stay of 0, an unknown weekday) comes back in one answer and shows beside its field. A big edit —
more than 31 nights, or a rate moving by more than half — is then summed up and asked about before anything is
written. What the engine did but warned about (a rate clamped to min_price, nights beyond state_length) goes back
to the calendar with the edit, which can be undone there. A derived plan's values that follow its parent can't be
typed here when every plan chosen follows it: their fields say which plan sets them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from backend.core.typed_dates import EXAMPLES, typed_iso
from backend.inventory.ari import Edit
from backend.inventory.review import Review
from console.inventory.ari_grid import RowKind, Selection
from console.inventory.data import inherits
from console.inventory.keys import RANGE_EDIT
from console.inventory.summary import FIELD_LABELS, summary
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog, close_editor
from console.kit.field import Field
from console.kit.forms import int_or_raw
from console.kit.labels import label_for
from console.kit.messages import ActionFailed
from console.kit.screens import ModalScreen
from console.kit.words import counted
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

STAYS = ("min_stay_arrival", "min_stay_through", "max_stay")
FLAGS = (("stop_sell", "stopped", "selling"), ("closed_to_arrival", "closed", "open"),
         ("closed_to_departure", "closed", "open"))
DATED = ("date_from", "date_to", "days")

# The field a row of the calendar is about, where the cursor starts.
# A text field always, so that what staff type lands somewhere: the stop-sell row opens on the rate (its flags are
# dropdowns, where typed digits would go nowhere).
FIRST_FIELD = {"availability": "availability", "rate": "rate", "closed": "rate", "stay": "min_stay_arrival"}

Lists = tuple[list[dict[str, Any]], list[dict[str, Any]]]  # availability values, restriction values


class Reviewed(Message):
    """The engine found nothing wrong, and the edit is big enough to ask about first."""

    def __init__(self, review: Review, lists: Lists) -> None:
        super().__init__()
        self.review = review
        self.lists = lists


class RangeSaved(Message):
    def __init__(self, edit: Edit) -> None:
        super().__init__()
        self.edit = edit


def weekdays(text: str) -> list[str]:
    """ "fr, sa" or "Fr Sa" → ["fr", "sa"]; what isn't a weekday is passed on for the engine to name."""
    return [word.lower() for word in text.replace(",", " ").split()]


def field_of(path: str) -> str:
    """The dialog's field an engine path names: `restrictions.2.rate` → rate, `availability.0.days.1` → days."""
    parts = path.split(".")
    name = parts[2] if len(parts) > 2 and parts[0] in ("availability", "restrictions") else parts[0]
    return "date_from" if name == "date" else name


class RangeEditDialog(ModalScreen[Edit | None]):
    """Dismissed with the edit made, or None when closed without saving."""

    BINDINGS = RANGE_EDIT

    app: ConsoleApp

    def __init__(self, property_id: str, selection: Selection, focus: RowKind,
                 parents: dict[str, dict[str, Any] | None]) -> None:
        """`focus`: the kind of row the cursor is on; `parents`: each derived plan's parent, by the plan's id."""
        super().__init__(classes="dialog-screen")
        self.property_id = property_id
        self.selection = selection
        self.rooms, self.plans = selection.rooms, selection.plans
        self.focus_kind = focus
        first, last = selection.first.isoformat(), selection.last.isoformat()
        self.fields = {
            "date_from": Field("From", Input(first, placeholder=EXAMPLES, id="range-from", compact=True),
                               path="date_from", required=True),
            "date_to": Field("To (included)", Input(last, placeholder=EXAMPLES, id="range-to", compact=True),
                             path="date_to", required=True),
            "days": Field("Only on", Input(placeholder="every day · e.g. fr sa", id="range-days", compact=True),
                          path="days"),
        }
        if self.rooms:
            self.fields["availability"] = Field(FIELD_LABELS["availability"], Input(
                placeholder="unchanged" if self.plans else "", id="range-availability", compact=True),
                path="availability", required=not self.plans)
        if self.plans:
            self.add_plan_fields(parents)

    def add_plan_fields(self, parents: dict[str, dict[str, Any] | None]) -> None:
        """A field that every plan chosen takes from its parent can't be typed; its placeholder names the parent."""
        def unset(name: str) -> tuple[str, bool]:
            if not all(inherits(plan, name) for plan in self.plans):
                return "unchanged", False
            titles = {(parents.get(plan["id"]) or {}).get("title", "its parent") for plan in self.plans}
            return f"from {' and '.join(sorted(titles))}", True

        for name in ("rate", *STAYS):
            placeholder, follows = unset(name)
            self.fields[name] = Field(FIELD_LABELS[name], Input(placeholder=placeholder, id=f"range-{name}",
                                                                compact=True, disabled=follows), path=name)
        for name, yes, no in FLAGS:
            placeholder, follows = unset(name)
            self.fields[name] = Field(FIELD_LABELS[name], Choice([(yes, True), (no, False)], prompt=placeholder,
                                                                 id=f"range-{name}", disabled=follows), path=name)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog", id="range-dialog"):
            yield Label(self.title_text(), classes="dialog-title", markup=False)
            yield Static(self.rows_text(), id="range-rows", classes="dialog-text", markup=False)
            with VerticalScroll(id="range-fields", can_focus=False):
                yield Grid(*self.fields.values(), classes="fields")
                yield Static("", id="range-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def title_text(self) -> str:
        nights = self.selection.nights
        what = {(True, False): "Rooms to sell", (False, True): "Rates and restrictions",
                (True, True): "Rooms, rates and restrictions"}[(bool(self.rooms), bool(self.plans))]
        return f"{what} · {counted(nights, 'night')} chosen" if nights > 1 else what

    def rows_text(self) -> str:
        """Which rows the edit is for, in the plans' currency; blank fields stay as they are."""
        parts = []
        if self.rooms:
            parts.append(", ".join(room["title"] for room in self.rooms) + " (rooms to sell)")
        if self.plans:
            currencies = sorted({plan["currency"] for plan in self.plans})
            parts.append(", ".join(plan["title"] for plan in self.plans) + f" (in {', '.join(currencies)})")
        return "For " + "; ".join(parts) + " · blank fields stay as they are"

    def on_mount(self) -> None:
        wanted = self.fields.get(FIRST_FIELD[self.focus_kind])
        typable = [field.control for name, field in self.fields.items() if name not in DATED
                   and isinstance(field.control, Input) and not field.control.disabled]
        if wanted is not None and wanted.control in typable:
            typable.insert(0, wanted.control)
        (typable[0] if typable else self.fields["date_from"].control).focus()

    def has_changes(self) -> bool:
        """Something typed beyond the dates the calendar chose: esc asks before throwing it away."""
        return bool(self.typed()) or bool(self.fields["days"].value.strip()) or (
            self.fields["date_from"].value, self.fields["date_to"].value) != (
            self.selection.first.isoformat(), self.selection.last.isoformat())

    def action_close(self) -> None:
        close_editor(self, "calendar")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "cancel":
            self.action_close()

    def on_input_submitted(self) -> None:
        self.action_save()

    # --- what is sent ------------------------------------------------------------------------

    def typed(self) -> dict[str, Any]:
        """The fields filled in, as the engine takes them; text that is not a number goes as typed, for the
        engine to name."""
        values: dict[str, Any] = {}
        for name, field in self.fields.items():
            if name in DATED or field.control.disabled:
                continue
            value = field.value
            if isinstance(value, str):
                if not value.strip():
                    continue
                value = value.strip() if name == "rate" else int_or_raw(value)
            if value is not None:
                values[name] = value
        return values

    def lists(self) -> Lists:
        """One value per room type and rate plan chosen, with the same dates. A side with nothing typed is left out,
        unless nothing at all is typed: then the engine says what is missing."""
        today = self.app.engine.config.clock().date()
        dated: dict[str, Any] = {"property_id": self.property_id,
                                 "date_from": typed_iso(self.fields["date_from"].value, today),
                                 "date_to": typed_iso(self.fields["date_to"].value, today)}
        if days := weekdays(self.fields["days"].value):
            dated["days"] = days
        typed = self.typed()
        rooms = {k: v for k, v in typed.items() if k == "availability"}
        plans = {k: v for k, v in typed.items() if k != "availability"}
        nothing = not typed
        availability = [{**dated, "room_type_id": room["id"], **rooms} for room in self.rooms
                        if rooms or nothing or not self.plans]
        restrictions = [{**dated, "rate_plan_id": plan["id"], **plans} for plan in self.plans
                        if plans or nothing or not self.rooms]
        return availability, restrictions

    # --- saving ------------------------------------------------------------------------------

    def action_save(self) -> None:
        for field in self.fields.values():
            field.clear_errors()
        self.query_one("#range-problems", Static).update("")
        self.review(self.lists())

    @engine_work(exclusive=True, group="save")
    def review(self, lists: Lists) -> None:
        """The engine checks everything at once; a small edit is made straight away, a big one asked about first."""
        review = self.app.engine.inventory.ari.review(self.app.actor(), *lists)
        if review.asks:
            self.post_message(Reviewed(review, lists))
        else:
            self.post_message(RangeSaved(self.app.engine.inventory.ari.edit(self.app.actor(), *lists)))

    def on_reviewed(self, message: Reviewed) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.write(message.lists)

        self.app.push_screen(ConfirmDialog(question(message.review), summary(message.review), confirm="Save"),
                             answered)

    @engine_work(exclusive=True, group="save")
    def write(self, lists: Lists) -> None:
        self.post_message(RangeSaved(self.app.engine.inventory.ari.edit(self.app.actor(), *lists)))

    def on_range_saved(self, message: RangeSaved) -> None:
        self.dismiss(message.edit)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown here, beside the fields, not as the app's notification
        placed: dict[str, list[str]] = {}
        unplaced: list[str] = []
        for path, texts in message.problems().items():
            name = field_of(path)
            for text in texts:
                if name in self.fields:
                    if text not in placed.setdefault(name, []):  # each room type and plan has the same problem
                        placed[name].append(text)
                else:
                    line = f"{label_for(name)} {text}" if name else text
                    if line not in unplaced:
                        unplaced.append(line)
        for name, texts in placed.items():
            self.fields[name].show_errors(texts)
        self.query_one("#range-problems", Static).update("\n".join(unplaced))
        if placed:
            first = next(field for name, field in self.fields.items() if name in placed)
            first.control.focus()
            self.query_one("#range-fields").scroll_to_widget(first, animate=False)


def question(review: Review) -> str:
    reasons = []
    if review.many_nights:
        reasons.append(counted(review.nights, "night"))
    if review.rate_jump is not None:
        reasons.append(f"a rate {'up' if review.rate_jump.percent > 0 else 'down'} by "
                       f"{abs(review.rate_jump.percent)}%")
    return f"Change {' with '.join(reasons)}?"
