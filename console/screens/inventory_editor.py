"""What the room type and rate plan editors share: a form of fields and item lists, saved whole by
the engine's create or update, with the engine's messages beside the fields they name (dotted
paths such as `bed_options.1.count` or `cancellation_policy.cancellation_policy_deadline`) and a
summary on top. Nothing is stored until the engine accepts the whole record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, Select, Static, TextArea

from backend.errors import FrontdeskError
from backend.inventory.rooms import RatePlans, RoomTypes
from console.forms import get_path
from console.messages import ActionFailed
from console.screens.confirm import ConfirmDialog
from console.widgets.app_bar import AppBar
from console.widgets.field import Field
from console.widgets.item_list import ItemList, ItemRow
from console.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from console.app import FrontdeskApp

Problem = Field | ItemList


class Saved(Message):
    def __init__(self, record: dict[str, Any]) -> None:
        super().__init__()
        self.record = record


def section(title: str, *children: Widget) -> Vertical:
    box = Vertical(*children, classes="section")
    box.border_title = title
    return box


class InventoryEditor(Screen[str | None]):
    NOUN: ClassVar[str]
    LABELS: ClassVar[dict[str, str]]  # dotted path → label

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "close", "Close"),
    ]

    app: FrontdeskApp

    def __init__(self, record: dict[str, Any] | None, values: dict[str, Any], crumb: str) -> None:
        super().__init__()
        self.record_id = record["id"] if record else None
        self.values = values  # what the form starts from, create-shaped
        self.crumb = crumb
        self.fields: dict[str, Field] = {}
        self.lists: dict[str, ItemList] = {}
        self.build()
        self.initial: dict[str, Any] = {}
        self.sent: dict[str, list[ItemRow]] = {}  # per list, the rows of the last save, to place messages
        self.saving = False

    # --- what each editor defines, and the helpers its build() uses -------------------------

    def build(self) -> None:
        raise NotImplementedError

    def sections(self) -> ComposeResult:
        raise NotImplementedError

    def service(self) -> RoomTypes | RatePlans:
        raise NotImplementedError

    def payload(self) -> dict[str, Any]:
        raise NotImplementedError

    def add(self, path: str, control: Widget, hint: str = "", required: bool = False) -> Field:
        control.id = "input-" + path.replace(".", "-")
        self.fields[path] = Field(self.LABELS[path], control, path=path, hint=hint, required=required)
        return self.fields[path]

    def text(self, path: str, placeholder: str = "", required: bool = False) -> Field:
        current = get_path(self.values, path)
        return self.add(path, Input("" if current is None else str(current), placeholder=placeholder, compact=True),
                        required=required)

    def choice(self, path: str, options: list[tuple[str, Any]]) -> Field:
        return self.add(path, Select(options, value=get_path(self.values, path), allow_blank=False, compact=True))

    def long_text(self, path: str) -> Field:
        return self.add(path, TextArea(get_path(self.values, path) or "", compact=True))

    def item_list(self, item_list: ItemList) -> ItemList:
        self.lists[item_list.path] = item_list
        return item_list

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield AppBar("inventory", self.crumb)
        with VerticalScroll(id="form", can_focus=False):
            yield Static("", id="summary", markup=False)
            yield from self.sections()
        yield StatusLine()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(StatusLine).where(self.crumb)
        self.initial = self.payload()
        next(iter(self.fields.values())).control.focus()

    # --- saving ------------------------------------------------------------------------------

    def action_save(self) -> None:
        if self.saving:
            return
        self.saving = True
        self.query_one(StatusLine).news("Saving…")
        self.sent = {path: item_list.filled() for path, item_list in self.lists.items()}
        self.save(self.payload())

    @work(thread=True, exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        actor = self.app.actor()
        try:
            if self.record_id is None:
                saved = self.service().create(actor, data)
            else:
                saved = self.service().update(actor, self.record_id, data)
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
        else:
            self.post_message(Saved(saved))

    def on_saved(self, message: Saved) -> None:
        self.notify(f"Saved {self.NOUN} “{message.record['title']}”")
        self.dismiss(message.record["id"])

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown here, beside the fields, not as the app's notification
        self.saving = False
        self.show_problems(message.problems())
        self.query_one(StatusLine).news(f"Not saved: {message.error.title}", error=True)

    def show_problems(self, details: dict[str, list[str]]) -> None:
        for problem in [*self.query(Field), *self.lists.values()]:
            problem.clear_errors()
        lines, first = [], None
        for path, messages in details.items():
            target, label = self.target_for(path)
            if target is not None:
                target.show_errors(messages)
                first = first or target
            lines += [f"• {label}: {text}" if label else f"• {text}" for text in messages]
        summary = self.query_one("#summary", Static)
        count = len(lines)
        summary.update(f"{count} problem{'s' if count != 1 else ''} kept this {self.NOUN} from being saved:\n"
                       + "\n".join(lines))
        summary.add_class("-visible")
        if first is not None:
            first.control.focus()
            self.query_one("#form").scroll_to_center(first, animate=False)

    def target_for(self, path: str) -> tuple[Problem | None, str]:
        """The field or list a dotted error path names (or its nearest named parent), and its label."""
        parts = path.split(".")
        if parts[0] in self.lists and len(parts) > 1 and parts[1].isdigit():
            index, rows = int(parts[1]), self.sent.get(parts[0], [])
            if index < len(rows):
                row = rows[index]
                field = row.fields.get(parts[2]) if len(parts) > 2 else None
                field = field or next(iter(row.fields.values()))
                return field, f"{self.LABELS[parts[0]]} {index + 1} {field.label.lower()}"
        while parts:
            name = ".".join(parts)
            if target := self.fields.get(name) or self.lists.get(name):
                return target, self.LABELS[name]
            parts.pop()
        return None, self.LABELS.get(path, path)

    # --- leaving -----------------------------------------------------------------------------

    def action_close(self) -> None:
        if self.payload() == self.initial:
            self.dismiss(None)
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self.dismiss(None)

        self.app.push_screen(ConfirmDialog("Discard your changes?", f"The {self.NOUN} stays as it was saved last.",
                                           confirm="Discard"), answered)
