"""Saved replies, managed from the Inbox (t): the list of them, by title, with whom each is for and how it reads,
and a dialog to write one: its title, the property it is for (or every property of a group), and its text with
placeholders, which the engine checks as it saves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input, Static, TextArea

from backend.chat.placeholders import PLACEHOLDERS
from backend.core.listing import ListQuery
from console.inbox.keys import SAVED_REPLIES, TEMPLATE_DIALOG
from console.kit.area import PAGE_SIZE
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.scoped import ScopedDialog, ScopedList, scope_of
from console.kit.words import one_line

HINT = "Placeholders, filled from the guest's booking: " + " ".join(f"{{{name}}}" for name in PLACEHOLDERS)


class SavedRepliesScreen(ScopedList):
    """Every saved reply the user reaches; n, e and d to write, change and delete them."""
    WATCHES = ("saved_reply.", "property.", "user.")

    CRUMB = "Saved replies"
    NOUNS = ("saved reply", "saved replies")
    COLUMNS = (("Title", 22), ("For", 20), ("Reply", 24))
    FLEX = "Reply"
    DROP = ("For",)

    BINDINGS = SAVED_REPLIES

    def compose_body(self) -> ComposeResult:
        yield Static(HINT, id="replies-hint", markup=False)
        yield self.make_table()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        names = self.read_scopes(engine.identity.groups(actor))
        rows, meta = engine.message_templates.list(actor, ListQuery(page=number, limit=PAGE_SIZE))
        return [{**row, "for": names.get(scope_of(row), "?")} for row in rows], meta

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return (row["title"], Text(row["for"], style="dim", no_wrap=True, overflow="ellipsis"),
                Text(one_line(row["message"]), no_wrap=True, overflow="ellipsis"))

    def editor(self, row: dict[str, Any] | None, scope: str | None) -> ScopedDialog:
        return TemplateDialog(row, self.options, scope)

    def deletion(self, row: dict[str, Any]) -> tuple[str, Callable[[], object]]:
        templates, actor = self.app.engine.message_templates, self.app.actor()
        return (f"For {row['for']}. This can't be undone; replies already sent stay as they are.",
                lambda: templates.delete(actor, row["id"]))


class TemplateDialog(ScopedDialog):
    """Write a saved reply, or change one."""

    NOUN = "saved reply"
    PREFIX = "template"
    BINDINGS = TEMPLATE_DIALOG

    def __init__(self, template: dict[str, Any] | None, options: list[tuple[str, str]], scope: str | None) -> None:
        super().__init__(template, {
            "title": Field("Title", Input(template["title"] if template else "", placeholder="e.g. Late arrival",
                                          id="template-title", compact=True), path="title", required=True),
            "scope": Field("For", Choice(options, scope if scope in {value for _, value in options} else None,
                                         id="template-scope"), path="scope"),
            "message": Field("Reply", TextArea(template["message"] if template else "", id="template-message"),
                             path="message", required=True),
        })

    def compose_fields(self) -> ComposeResult:
        yield from super().compose_fields()
        yield Static(HINT, classes="dialog-hint", markup=False)

    def data(self) -> dict[str, Any]:
        return {"title": self.fields["title"].value, "message": self.fields["message"].value}

    def write(self, data: dict[str, Any]) -> dict[str, Any]:
        templates, actor = self.app.engine.message_templates, self.app.actor()
        return templates.create(actor, data) if self.item is None else templates.update(actor, self.item["id"], data)
