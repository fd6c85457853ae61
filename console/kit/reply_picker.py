"""The saved-reply picker (ctrl+r in a reply box: a conversation's in the Inbox, a review's in Reviews): the saved
replies that apply, found by a fuzzy match on their titles and words as in the command palette, each shown filled
in for this guest. Enter puts the chosen one into
the reply at the cursor; a placeholder with nothing to fill it stays in braces, for staff to fill before sending."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.fuzzy import Matcher
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from console.kit.keys import REPLY_PICKER
from console.kit.screens import ModalScreen
from console.kit.words import one_line


def ranked(templates: list[dict[str, Any]], query: str) -> list[tuple[dict[str, Any], Content]]:
    """The templates that match the query, best first (title matches before text matches), each with its title
    highlighted where it matched; all of them, by title, for an empty query."""
    if not query.strip():
        return [(t, Content(t["title"])) for t in templates]
    matcher = Matcher(query)
    scored = []
    for template in templates:
        score = max(matcher.match(template["title"]) * 2, matcher.match(one_line(template["filled_message"])))
        if score > 0:
            scored.append((score, template))
    scored.sort(key=lambda pair: -pair[0])
    return [(t, matcher.highlight(t["title"])) for _, t in scored]


def option(template: dict[str, Any], title: Content) -> Option:
    """The title, then the reply as it will read (the preview below the list shows it whole)."""
    prompt = Content.assemble(title, "\n", Content.styled(one_line(template["filled_message"]), "dim"))
    return Option(prompt, id=template["id"])


class ReplyPicker(ModalScreen[str | None]):
    """Dismissed with the chosen reply's filled text, or None."""

    BINDINGS = REPLY_PICKER

    def __init__(self, guest: str, templates: list[dict[str, Any]]) -> None:
        super().__init__(classes="dialog-screen")
        self.guest = guest
        self.templates = templates

    def compose(self) -> ComposeResult:
        with Vertical(id="reply-picker", classes="dialog wide-dialog"):
            yield Label(f"Saved replies for {self.guest}", classes="dialog-title", markup=False)
            yield Input(placeholder="Find a saved reply…", id="picker-search", compact=True)
            yield OptionList(id="picker-options")
            yield Static("", id="picker-preview", markup=False)
            yield Static("enter inserts it at the cursor · esc cancels · t in the inbox manages saved replies",
                         classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.show("")
        self.query_one("#picker-search", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.show(event.value)

    def show(self, query: str) -> None:
        options = self.query_one("#picker-options", OptionList)
        options.clear_options()
        found = ranked(self.templates, query)
        options.add_options([option(template, title) for template, title in found])
        if found:
            options.highlighted = 0
        elif self.templates:
            self.preview(None, f"No saved reply matches “{query}”.")
        else:
            self.preview(None, "No saved replies for this property yet: t in the inbox adds one.")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.preview(self.by_id(event.option.id), "")

    def preview(self, template: dict[str, Any] | None, note: str) -> None:
        """The highlighted reply in full, and which placeholders it could not fill."""
        shown = Text(note, style="italic") if template is None else Text(template["filled_message"])
        if template is not None and template["unfilled"]:
            names = ", ".join(f"{{{name}}}" for name in template["unfilled"])
            shown.append(f"\nNothing to fill {names} from: fill it in before sending.", style="italic")
        self.query_one("#picker-preview", Static).update(shown)

    def by_id(self, template_id: str | None) -> dict[str, Any] | None:
        return next((t for t in self.templates if t["id"] == template_id), None)

    def action_move(self, step: int) -> None:
        options = self.query_one("#picker-options", OptionList)
        if options.option_count:
            options.highlighted = ((options.highlighted or 0) + step) % options.option_count

    def on_input_submitted(self) -> None:
        options = self.query_one("#picker-options", OptionList)
        if options.highlighted is not None:
            self.choose(options.get_option_at_index(options.highlighted).id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.choose(event.option.id)

    def choose(self, template_id: str | None) -> None:
        template = self.by_id(template_id)
        self.dismiss(template["filled_message"] if template else None)
