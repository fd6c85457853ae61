"""A labelled form control with room beneath it for the engine's messages about that field."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import (
    Input,
    Label,
    Select,
    SelectionList,
    Static,
    Switch,
    TextArea,
)

from console.kit.choice import Choice

# ISO codes the engine takes in capitals only; staff may type "eur" or "ch".
CODE_FIELDS = frozenset({"currency", "country"})


def as_typed(path: str, text: str) -> str:
    """An Input's text as it is sent: the codes of CODE_FIELDS upper-cased, anything else as typed."""
    return text.upper() if path.rsplit(".", 1)[-1] in CODE_FIELDS else text


class Field(Vertical):
    """One form field: label, control, hint, and the validation messages once there are any.

    `path` is the engine's dotted field name (`settings.state_length`), so a `ValidationFailed`
    detail finds its field by name.
    """

    def __init__(self, label: str, control: Widget, *, path: str, hint: str = "", required: bool = False,
                 classes: str = "") -> None:
        super().__init__(classes=f"field {classes}".strip())
        self.label = label
        self.control = control
        self.path = path
        self.hint = hint
        self.required = required
        self.error: Static | None = None

    def compose(self) -> ComposeResult:
        if isinstance(self.control, Switch):
            # A switch reads best with its label beside it.
            with Horizontal(classes="switch-row"):
                yield self.control
                yield Label(self.label, classes="field-label")
        else:
            yield Label(self.label + (" [$accent]*[/]" if self.required else ""), classes="field-label")
            yield self.control
        if self.hint:
            yield Static(self.hint, classes="field-hint", markup=False)

    @property
    def value(self) -> Any:
        """The control's value as the engine takes it: text, bool, a chosen option or None, a list."""
        control = self.control
        if isinstance(control, Input):
            return as_typed(self.path, control.value)
        if isinstance(control, TextArea):
            return control.text
        if isinstance(control, Switch | Choice):
            return control.value
        if isinstance(control, Select):
            return None if control.value is Select.NULL else control.value
        if isinstance(control, SelectionList):
            return list(control.selected)
        raise TypeError(f"no value for {type(control).__name__}")

    @value.setter
    def value(self, value: Any) -> None:
        control = self.control
        if isinstance(control, Input):
            control.value = "" if value is None else str(value)
        elif isinstance(control, TextArea):
            control.text = value or ""
        elif isinstance(control, Switch):
            control.value = bool(value)
        elif isinstance(control, Choice):
            control.value = value
        elif isinstance(control, Select):
            control.value = Select.NULL if value is None else value
        elif isinstance(control, SelectionList):
            control.deselect_all()
            for item in value or ():
                control.select(item)

    @property
    def has_errors(self) -> bool:
        return self.has_class("-invalid")

    def show_errors(self, messages: list[str]) -> None:
        # Made on first need: a long form has many fields and few errors, and every widget costs.
        if self.error is None:
            self.error = Static(classes="field-error", markup=False)
            self.mount(self.error)
        self.error.update("\n".join(messages))
        self.add_class("-invalid")

    def clear_errors(self) -> None:
        if self.error is not None:
            self.error.update("")
        self.remove_class("-invalid")
