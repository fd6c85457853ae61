"""A labelled form control with room beneath it for the engine's messages about that field."""

from __future__ import annotations

from typing import Any

from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.widget import Widget
from textual.widgets import Checkbox, Input, SelectionList, Static, TextArea

from console.kit.choice import Choice

# ISO codes the engine takes in capitals only; staff may type "eur" or "ch".
CODE_FIELDS = frozenset({"currency", "country"})


def as_typed(path: str, text: str) -> str:
    """An Input's text as it is sent: the codes of CODE_FIELDS upper-cased, anything else as typed."""
    return text.upper() if path.rsplit(".", 1)[-1] in CODE_FIELDS else text


class Field(Vertical):
    """One form field: its label, its control, and the validation messages once there are any.

    The label (with the hint after it, in italics) is the field's border title: a line of its own, but not a
    widget of its own. A form has dozens of fields and each widget costs its opening; a field is two widgets
    until it has a message. A checkbox carries its label itself.

    `path` is the engine's dotted field name (`settings.state_length`), so a `ValidationFailed`
    detail finds its field by name.
    """

    def __init__(self, label: str, control: Widget, *, path: str, hint: str = "", required: bool = False,
                 classes: str = "") -> None:
        super().__init__(control, classes=f"field {classes}".strip())
        self.label = label
        self.control = control
        self.path = path
        self.hint = hint
        self.required = required
        self.error: Static | None = None
        hint_markup = f"  [i]{escape(hint)}[/]" if hint else ""
        if isinstance(control, Checkbox):
            control.label = Content.from_markup(escape(label) + hint_markup)
            self.add_class("-toggle")
        else:
            self.border_title = escape(label) + (" [$accent]*[/]" if required else "") + hint_markup

    @property
    def value(self) -> Any:
        """The control's value as the engine takes it: text, bool, a chosen option or None, a list."""
        control = self.control
        if isinstance(control, Input):
            return as_typed(self.path, control.value)
        if isinstance(control, TextArea):
            return control.text
        if isinstance(control, Checkbox | Choice):
            return control.value
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
        elif isinstance(control, Checkbox):
            control.value = bool(value)
        elif isinstance(control, Choice):
            control.value = value
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
