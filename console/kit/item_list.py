"""Editable rows of a list field (bed options, photos, rate options, taxes): one Field per column,
rows added and removed, and room for the engine's messages about the list as a whole.

Rows left empty are dropped rather than sent; the engine's error paths (`bed_options.2.count`)
count the rows that were sent, so the editor keeps those to find the field a message is about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.forms import int_or_raw


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    kind: Literal["text", "number", "choice", "yes_no"] = "text"
    choices: tuple[str, ...] = ()
    width: str = "1fr"
    placeholder: str = ""


class ItemRow(Horizontal):
    def __init__(self, columns: Sequence[Column], item: dict[str, Any] | None = None) -> None:
        super().__init__(classes="item-row")
        self.columns = columns
        item = item or {}
        self.fields = {column.key: self.make_field(column, item.get(column.key)) for column in columns}

    @staticmethod
    def make_field(column: Column, value: Any) -> Field:
        if column.kind == "yes_no":  # words rather than a tick: a column of ticks reads as one bar
            control: Any = Choice([("yes", True), ("no", False)], bool(value))
        elif column.kind == "choice":
            control = Choice([(choice.replace("_", " "), choice) for choice in column.choices],
                             value or column.choices[0])
        else:
            control = Input("" if value is None else str(value), placeholder=column.placeholder, compact=True)
        field = Field(column.label, control, path=column.key, classes="item-field -unlabelled")  # the header says it
        field.styles.width = column.width
        return field

    def compose(self) -> ComposeResult:
        yield from self.fields.values()
        yield Button("✕", classes="remove-item", tooltip="Remove this row", compact=True)

    @property
    def value(self) -> dict[str, Any]:
        """The row as the engine takes it: blank text is left out (the engine's default, or its
        "is required"), whole numbers go as ints."""
        data: dict[str, Any] = {}
        for column in self.columns:
            value = self.fields[column.key].value
            if isinstance(value, str):
                if not value.strip():
                    continue
                value = int_or_raw(value) if column.kind == "number" else value
            data[column.key] = value
        return data

    @property
    def is_blank(self) -> bool:
        return not any(isinstance(field.value, str) and field.value.strip() for field in self.fields.values())


class ItemList(Vertical):
    """The rows are kept here as well as mounted, so that the list's value never waits for its widgets (a
    deferred section holds them unmounted until it is reached)."""

    def __init__(self, path: str, columns: Sequence[Column], items: list[dict[str, Any]], add_label: str) -> None:
        super().__init__(classes="item-list")
        self.path = path
        self.columns = columns
        self.rows = [ItemRow(columns, item) for item in items]
        self.add_button = Button(f"+ {add_label}", classes="add-item", compact=True)
        self.error_line = Static("", classes="item-list-error", markup=False)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="item-header"):
            for column in self.columns:
                label = Label(column.label, classes="field-label")
                label.styles.width = column.width
                yield label
            yield Label("", classes="item-header-spacer")  # above the rows' remove buttons
        yield Vertical(*self.rows, classes="item-rows")
        yield self.add_button
        yield self.error_line

    def filled(self) -> list[ItemRow]:
        """The rows to send: those with anything typed in."""
        return [row for row in self.rows if not row.is_blank]

    @property
    def value(self) -> list[dict[str, Any]]:
        return [row.value for row in self.filled()]

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button is self.add_button:
            row = ItemRow(self.columns)
            self.rows.append(row)
            # Focus once the row is mounted, not after a refresh: a busy machine may not have refreshed yet when
            # the next key arrives, which would then land on the button.
            await self.query_one(".item-rows").mount(row)
            next(iter(row.fields.values())).control.focus()
        elif isinstance(row := event.button.parent, ItemRow):
            self.rows.remove(row)
            row.remove()

    # The same surface as Field, so that an editor can show a message about the whole list.
    @property
    def control(self) -> Button:
        return self.add_button

    def show_errors(self, messages: list[str]) -> None:
        self.error_line.update("\n".join(messages))
        self.add_class("-invalid")

    def clear_errors(self) -> None:
        self.error_line.update("")
        self.remove_class("-invalid")
