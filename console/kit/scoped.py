"""What staff write for a property or for every property of a group (saved replies, message rules): the choice of
whom it is for and the engine's fields for it; the list of them over the Inbox, where n, e (or enter) and d write,
change and delete one; and the dialog that writes one, the engine's refusals beside its fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Label, Static

from console.kit.area import AreaScreen
from console.kit.field import Field
from console.kit.labels import label_for
from console.kit.messages import ActionDone, ActionFailed
from console.kit.screens import ModalScreen
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

GROUP, PROPERTY = "group:", "property:"  # the scope select's values: a group's id or a property's, so marked


def scopes(groups: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """What it may be for, as the select offers it: every property of each group, then each property."""
    whole = [(f"Every property of {g['title']}", GROUP + g["id"]) for g in groups if g["properties"]]
    one = sorted(((p["title"], PROPERTY + p["id"]) for g in groups for p in g["properties"]), key=lambda o: o[0])
    return whole + one


def scope_of(row: dict[str, Any]) -> str:
    return PROPERTY + row["property_id"] if row["property_id"] else GROUP + row["group_id"]


def scope_fields(scope: str) -> dict[str, str]:
    """The engine's field for a scope value."""
    kind, _, scope_id = scope.partition(":")
    return {f"{kind}_id": scope_id}


class ScopedDialog(ModalScreen[dict[str, Any] | None]):
    """Write one, or change one: its fields (a "title" and a "scope" among them) scroll so that the buttons stay in
    view at 80×24. Dismissed with what the engine saved, or None."""

    NOUN: ClassVar[str]  # "saved reply": the title of a new one's dialog
    PREFIX: ClassVar[str]  # of the ids of its parts, for the stylesheets: "template" (#template-fields)
    BOX: ClassVar[str] = "dialog wide-dialog"  # the classes of the dialog's box
    FIELD_OF: ClassVar[dict[str, str]] = {"property_id": "scope", "group_id": "scope"}  # the engine's path → field

    app: ConsoleApp

    class Saved(Message):
        def __init__(self, saved: dict[str, Any]) -> None:
            super().__init__()
            self.saved = saved

    def __init__(self, item: dict[str, Any] | None, fields: dict[str, Field]) -> None:
        super().__init__(classes="dialog-screen")
        self.item = item
        self.fields = fields

    def compose(self) -> ComposeResult:
        with Vertical(id=f"{self.PREFIX}-dialog", classes=self.BOX):
            yield Label(f"Edit “{self.item['title']}”" if self.item else f"New {self.NOUN}", classes="dialog-title",
                        markup=False)
            with VerticalScroll(id=f"{self.PREFIX}-fields", can_focus=False):
                yield from self.compose_fields()
                yield Static("", id=f"{self.PREFIX}-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def compose_fields(self) -> ComposeResult:
        yield from self.fields.values()

    def on_mount(self) -> None:
        self.fields["title"].control.focus()
        fields = self.query_one(f"#{self.PREFIX}-fields", VerticalScroll)
        self.call_after_refresh(fields.scroll_home, animate=False)  # the title's label in view too, at 80×24

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        scope = self.fields["scope"].value
        self.save(self.data() | (scope_fields(scope) if scope else {}))

    def data(self) -> dict[str, Any]:
        """What the fields say, for the engine, but whom it is for."""
        raise NotImplementedError

    @engine_work(exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        self.post_message(self.Saved(self.write(data)))

    def write(self, data: dict[str, Any]) -> dict[str, Any]:
        """The engine's create (no item) or update: what it saved."""
        raise NotImplementedError

    def on_scoped_dialog_saved(self, message: Saved) -> None:
        self.dismiss(message.saved)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown beside the fields, not as the app's notification
        for field in self.fields.values():
            field.clear_errors()
        unplaced = []
        for path, texts in message.problems().items():
            name = self.FIELD_OF.get(path, path)
            if name in self.fields:
                self.fields[name].show_errors(texts)
            else:
                unplaced += [f"{label_for(path)} {text}" if path else text for text in texts]
        self.query_one(f"#{self.PREFIX}-problems", Static).update("\n".join(unplaced))


class ScopedList(AreaScreen):
    """Every one the user reaches, over the Inbox; n, e (or enter) and d write, change and delete one."""

    AREA = "inbox"

    def __init__(self, property_id: str | None = None) -> None:
        """`property_id`: the property of the thread on show, which a new one is for at first."""
        super().__init__()
        self.property_id = property_id
        self.options: list[tuple[str, str]] = []  # the scope select's choices, as last read

    def read_scopes(self, groups: list[dict[str, Any]]) -> dict[str, str]:
        """The scope select's choices, from the user's groups (a page's read): their names by scope value."""
        self.options = scopes(groups)
        return {value: name for name, value in self.options}

    def editor(self, row: dict[str, Any] | None, scope: str | None) -> ScopedDialog:
        """The dialog that writes a new one (no row) or changes a row, for `scope` at first."""
        raise NotImplementedError

    def deletion(self, row: dict[str, Any]) -> tuple[str, Callable[[], object]]:
        """What deleting a row means, as its question says it, and the engine's delete."""
        raise NotImplementedError

    def page_shown(self) -> None:
        if not self.rows:
            self.status.news(f"No {self.NOUNS[1]} yet: n writes one")

    def action_new(self) -> None:
        self.app.push_screen(self.editor(None, PROPERTY + self.property_id if self.property_id else None), self.saved)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_edit(self) -> None:
        if row := self.current_row():
            self.app.push_screen(self.editor(row, scope_of(row)), self.saved)

    def saved(self, saved: dict[str, Any] | None) -> None:
        if saved is not None:
            self.status.news(f"Saved “{saved['title']}”")
            self.reload()

    def action_delete(self) -> None:
        if row := self.current_row():
            detail, delete = self.deletion(row)

            def deleted() -> str:
                delete()
                return f"Deleted “{row['title']}”"

            self.confirm_then_act(f"Delete the {self.NOUNS[0]} “{row['title']}”?", detail, deleted)

    def on_action_done(self, _: ActionDone) -> None:
        self.reload()  # AreaScreen's own handler says what was done
