"""Saved replies, managed from the Inbox (t): the list of them, by title, with whom each is for and how it reads,
and a dialog to write one: its title, the property it is for (or every property of a group), and its text with
placeholders, which the engine checks as it saves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, Static, TextArea

from backend.chat.placeholders import PLACEHOLDERS
from backend.core.listing import ListQuery
from console.inbox.keys import SAVED_REPLIES, TEMPLATE_DIALOG
from console.kit.area import PAGE_SIZE, AreaScreen
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.labels import label_for
from console.kit.messages import ActionDone, ActionFailed
from console.kit.scoped import PROPERTY, scope_fields, scope_of, scopes
from console.kit.screens import ModalScreen
from console.kit.words import one_line
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

HINT = "Placeholders, filled from the guest's booking: " + " ".join(f"{{{name}}}" for name in PLACEHOLDERS)


class SavedRepliesScreen(AreaScreen):
    """Every saved reply the user reaches; n, e and d to write, change and delete them."""
    WATCHES = ("saved_reply.", "property.", "user.")

    AREA = "inbox"
    CRUMB = "Saved replies"
    NOUNS = ("saved reply", "saved replies")
    COLUMNS = (("Title", 22), ("For", 20), ("Reply", 24))
    FLEX = "Reply"
    DROP = ("For",)

    BINDINGS = SAVED_REPLIES

    def __init__(self, property_id: str | None = None) -> None:
        """`property_id`: the property of the thread on show, which a new saved reply is for at first."""
        super().__init__()
        self.property_id = property_id
        self.options: list[tuple[str, str]] = []  # the scope select's choices, as last read

    def compose_body(self) -> ComposeResult:
        yield Static(HINT, id="replies-hint", markup=False)
        yield self.make_table()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        self.options = scopes(engine.identity.groups(actor))
        names = {value: name for name, value in self.options}
        rows, meta = engine.message_templates.list(actor, ListQuery(page=number, limit=PAGE_SIZE))
        return [{**row, "for": names.get(scope_of(row), "?")} for row in rows], meta

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return (row["title"], Text(row["for"], style="dim", no_wrap=True, overflow="ellipsis"),
                Text(one_line(row["message"]), no_wrap=True, overflow="ellipsis"))

    def page_shown(self) -> None:
        if not self.rows:
            self.status.news("No saved replies yet: n writes one")

    def action_new(self) -> None:
        default = PROPERTY + self.property_id if self.property_id else None
        self.app.push_screen(TemplateDialog(None, self.options, default), self.saved)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_edit(self) -> None:
        if row := self.current_row():
            self.app.push_screen(TemplateDialog(row, self.options, scope_of(row)), self.saved)

    def saved(self, template: dict[str, Any] | None) -> None:
        if template is not None:
            self.status.news(f"Saved “{template['title']}”")
            self.reload()

    def action_delete(self) -> None:
        if row := self.current_row():
            chat, actor = self.app.engine.message_templates, self.app.actor()

            def delete() -> str:
                chat.delete(actor, row["id"])
                return f"Deleted “{row['title']}”"

            self.confirm_then_act(f"Delete the saved reply “{row['title']}”?", f"For {row['for']}. This can't be "
                                  "undone; replies already sent stay as they are.", delete)

    def on_action_done(self, message: ActionDone) -> None:
        super().on_action_done(message)
        self.reload()


class TemplateSaved(Message):
    def __init__(self, template: dict[str, Any]) -> None:
        super().__init__()
        self.template = template


class TemplateDialog(ModalScreen[dict[str, Any] | None]):
    """Write a saved reply, or change one. Dismissed with the saved reply, or None."""

    BINDINGS = TEMPLATE_DIALOG

    app: ConsoleApp

    def __init__(self, template: dict[str, Any] | None, options: list[tuple[str, str]], scope: str | None) -> None:
        super().__init__(classes="dialog-screen")
        self.template = template
        self.fields = {
            "title": Field("Title", Input(template["title"] if template else "", placeholder="e.g. Late arrival",
                                          id="template-title", compact=True), path="title", required=True),
            "scope": Field("For", Choice(options, scope if scope in {value for _, value in options} else None,
                                         id="template-scope"), path="scope"),
            "message": Field("Reply", TextArea(template["message"] if template else "", id="template-message"),
                             path="message", required=True),
        }

    def compose(self) -> ComposeResult:
        with Vertical(id="template-dialog", classes="dialog wide-dialog"):
            yield Label(f"Edit “{self.template['title']}”" if self.template else "New saved reply",
                        classes="dialog-title", markup=False)
            with VerticalScroll(id="template-fields", can_focus=False):  # the buttons stay in view at 80×24
                yield from self.fields.values()
                yield Static(HINT, classes="dialog-hint", markup=False)
                yield Static("", id="template-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def on_mount(self) -> None:
        self.fields["title"].control.focus()
        fields = self.query_one("#template-fields", VerticalScroll)
        self.call_after_refresh(fields.scroll_home, animate=False)  # the title's label in view too, at 80×24

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        data: dict[str, Any] = {"title": self.fields["title"].value, "message": self.fields["message"].value}
        scope = self.fields["scope"].value
        self.save(data | (scope_fields(scope) if scope else {}))

    @engine_work(exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        templates, actor = self.app.engine.message_templates, self.app.actor()
        if self.template is None:
            saved = templates.create(actor, data)
        else:
            saved = templates.update(actor, self.template["id"], data)
        self.post_message(TemplateSaved(saved))

    def on_template_saved(self, message: TemplateSaved) -> None:
        self.dismiss(message.template)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown beside the fields, not as the app's notification
        for field in self.fields.values():
            field.clear_errors()
        unplaced = []
        for path, texts in message.problems().items():
            name = "scope" if path in ("property_id", "group_id") else path
            if name in self.fields:
                self.fields[name].show_errors(texts)
            else:
                unplaced += [f"{label_for(path)} {text}" if path else text for text in texts]
        self.query_one("#template-problems", Static).update("\n".join(unplaced))
