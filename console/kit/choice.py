"""A choice among a few options, in a form or a filter bar: one line that shows the option chosen, as Textual's
compact Select shows it, and opens the list of options beneath it.

A Select is six widgets from the moment it mounts (its line, three labels, the list it may open, the select
itself), each styled and laid out with the form; a rate plan's twenty choices were a third of its editor's widgets
and most of its opening. A Choice is one widget, and makes its list only when it is opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

ARROWS = ("▼", "▲")  # beside the option chosen, a cell apart, as a Select draws them: closed, open


class ChoiceList(OptionList):
    """The options, open beneath the choice; a letter moves to the next option that starts with it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close the list")]

    def on_key(self, event: events.Key) -> None:
        if not (event.is_printable and event.character):
            return
        event.stop()
        event.prevent_default()
        letter = event.character.lower()
        count = self.option_count
        start = self.highlighted if self.highlighted is not None else -1
        for step in range(1, count + 1):
            index = (start + step) % count
            if str(self.get_option_at_index(index).prompt).lower().startswith(letter):
                self.highlighted = index
                return

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        return character is not None and character.isprintable()

    def action_close(self) -> None:
        choice = self.parent
        if isinstance(choice, Choice):
            choice.close(refocus=True)

    def on_blur(self) -> None:
        choice = self.parent
        if isinstance(choice, Choice):
            choice.close(refocus=False)


class Choice(Widget, can_focus=True):
    """One of `options` ((label, value) pairs). With a `prompt`, nothing may be chosen: the value is then None and
    the prompt shows, dimmed, in its place. Posts `Choice.Changed` when the value changes."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,down,space,up", "open", "Show the options", show=False)]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"choice--prompt", "choice--arrow"}
    DEFAULT_CSS = """
    Choice {
        width: 1fr;
        height: auto;
        padding: 0 1 0 0;
        color: $foreground;
        background: $surface;
        pointer: pointer;
        &:focus {
            background-tint: $foreground 5%;
        }
        & > .choice--prompt, & > .choice--arrow {
            color: $foreground 50%;
        }
        & > ChoiceList {
            overlay: screen;
            constrain: none inside;
            offset-y: 1;
            width: auto;
            min-width: 100%;
            height: auto;
            max-height: 14;
            padding: 0;
            background: $panel;
            /* an edge, in an opaque panel: what is beside and beneath never reads as an option's; none on top,
               where it hangs from its line */
            &, &:focus {
                border: tall $border;
                border-top: none;
            }
        }
    }
    """

    value: var[Any] = var(None, init=False)

    class Changed(Message):
        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(self, options: Sequence[tuple[str, Any]], value: Any = None, *, prompt: str | None = None,
                 disabled: bool = False, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, disabled=disabled)
        self.options = list(options)
        self.prompt = prompt
        self.set_reactive(Choice.value, self.validate_value(self.unset if value is None else value))
        self.opened: ChoiceList | None = None  # the list, while it is open

    @property
    def unset(self) -> Any:
        """The value with nothing chosen: None with a prompt (or no options yet), else the first option."""
        return None if self.prompt is not None or not self.options else self.options[0][1]

    def offers(self, value: Any) -> bool:
        return any(value == option for _, option in self.options)

    def validate_value(self, value: Any) -> Any:
        if (value is None and self.unset is None) or self.offers(value):
            return value
        raise ValueError(f"{value!r} is not one of the options")

    def set_options(self, options: Sequence[tuple[str, Any]]) -> None:
        """New options (a filter's properties, once read): the value stays if it is still one of them."""
        self.options = list(options)
        if not self.offers(self.value):
            self.value = self.unset
        self.refresh(layout=True)

    def clear(self) -> None:
        """Back to the prompt, as a Select clears."""
        self.value = self.unset

    def watch_value(self, value: Any) -> None:
        self.refresh(layout=True)
        self.post_message(self.Changed(self, value))

    @property
    def label(self) -> str:
        return next((label for label, option in self.options if option == self.value), self.prompt or "")

    # --- the line ----------------------------------------------------------------------------

    def lines(self, width: int) -> list[Content]:
        """The label wrapped beside the arrow, as a Select's label wraps when it is longer than the line."""
        return Content(self.label).wrap(max(width - 2, 1))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Content:
        width = self.content_size.width
        text_width = max(width - 2, 1)
        label_style = self.get_visual_style("choice--prompt") if self.value is None else self.visual_style
        arrow = Content.styled(ARROWS[self.is_open], self.get_visual_style("choice--arrow"))
        first, *rest = (line.stylize(label_style) for line in self.lines(width))
        return Content("\n").join([first.pad_right(text_width - first.cell_length + 1) + arrow, *rest])

    # --- the list ----------------------------------------------------------------------------

    @property
    def listed(self) -> list[Any]:
        """The values in the order the list shows them: None for the prompt first, when there is one."""
        return [None] * (self.prompt is not None) + [value for _, value in self.options]

    @property
    def is_open(self) -> bool:
        return self.opened is not None

    def action_open(self) -> None:
        if self.is_open or not self.listed:
            return
        prompt = [Option(Content.styled(self.prompt, "dim"))] if self.prompt is not None else []
        self.opened = options = ChoiceList(*prompt, *(Option(Content(label)) for label, _ in self.options))
        options.highlighted = self.listed.index(self.value)
        self.mount(options)
        options.focus()
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:
            if self.is_open:
                self.close(refocus=True)
            else:
                self.focus()
                self.action_open()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.value = self.listed[event.option_index]
        self.close(refocus=True)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()

    def close(self, *, refocus: bool) -> None:
        if self.opened is not None:
            self.opened.remove()
            self.opened = None
            self.refresh()
        if refocus:
            self.focus()
