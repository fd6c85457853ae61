"""An editor of one record laid out as sections of fields and item lists (a property, a room type, a rate plan).
Its error paths (such as `bed_options.1.count` or `cancellation_policy.cancellation_policy_deadline`) name a
field, a list or a field of one of the list's rows.

The fields and lists are made before the screen is composed, so that the record's values are in them whether
or not their section has been built (see console/kit/section.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Static, TextArea

from console.kit.app_bar import AppBar
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.footer import Footer
from console.kit.forms import get_path
from console.kit.item_list import ItemList, ItemRow
from console.kit.messages import ActionFailed
from console.kit.record_editor import Problem, RecordEditor
from console.kit.section import Form, build_deferred
from console.kit.status_line import StatusLine


class FormEditor(RecordEditor):
    AREA: ClassVar[str]  # the area the app bar names
    LABELS: ClassVar[dict[str, str]]  # dotted path → label

    def __init__(self, record_id: str | None, values: dict[str, Any], crumb: str) -> None:
        super().__init__(record_id)
        self.values = values  # what the form starts from, create-shaped
        self.crumb = crumb
        self.fields: dict[str, Field] = {}
        self.lists: dict[str, ItemList] = {}
        self.build()
        self.sent: dict[str, list[ItemRow]] = {}  # per list, the rows of the last save, to place messages

    # --- what each editor defines, and the helpers its build() uses -------------------------

    def build(self) -> None:
        raise NotImplementedError

    def sections(self) -> ComposeResult:
        raise NotImplementedError

    def label(self, path: str) -> str:
        return self.LABELS.get(path, path)

    def add(self, path: str, control: Widget, hint: str = "", required: bool = False, classes: str = "") -> Field:
        control.id = "input-" + path.replace(".", "-")
        self.fields[path] = Field(self.label(path), control, path=path, hint=hint, required=required, classes=classes)
        return self.fields[path]

    def text(self, path: str, placeholder: str = "", hint: str = "", required: bool = False) -> Field:
        current = get_path(self.values, path)
        return self.add(path, Input("" if current is None else str(current), placeholder=placeholder, compact=True),
                        hint, required)

    def choice(self, path: str, options: list[tuple[str, Any]], prompt: str | None = None) -> Field:
        return self.add(path, Choice(options, get_path(self.values, path), prompt=prompt))

    def long_text(self, path: str, hint: str = "") -> Field:
        return self.add(path, TextArea(get_path(self.values, path) or "", compact=True), hint)

    def item_list(self, item_list: ItemList) -> ItemList:
        self.lists[item_list.path] = item_list
        return item_list

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield AppBar(self.AREA, self.crumb)
        with Form(id="form"):
            yield Static("", id="summary", markup=False)
            yield from self.sections()
        yield StatusLine()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(StatusLine).where(self.crumb)
        self.initial = self.payload()
        next(iter(self.fields.values())).control.focus()

    # --- saving ------------------------------------------------------------------------------

    def outgoing(self) -> dict[str, Any]:
        self.sent = {path: item_list.filled() for path, item_list in self.lists.items()}
        return self.payload()

    async def on_action_failed(self, message: ActionFailed) -> None:
        await build_deferred(self)  # a message may be about a field not yet built
        super().on_action_failed(message)

    def target_for(self, path: str) -> tuple[Problem | None, str]:
        parts = path.split(".")
        if parts[0] in self.lists and len(parts) > 1 and parts[1].isdigit():
            index, rows = int(parts[1]), self.sent.get(parts[0], [])
            if index < len(rows):
                row = rows[index]
                field = row.fields.get(parts[2]) if len(parts) > 2 else None
                field = field or next(iter(row.fields.values()))
                return field, f"{self.label(parts[0])} {index + 1} {field.label.lower()}"
        while parts:
            name = ".".join(parts)
            if target := self.fields.get(name) or self.lists.get(name):
                return target, self.label(name)
            parts.pop()
        return None, self.label(path) if path else ""
