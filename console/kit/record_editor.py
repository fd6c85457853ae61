"""What every editor of one engine record shares: the form is saved whole by the engine's create or
update, a refusal comes back as messages beside the fields they name (dotted paths) with a summary
on top that counts them, and closing with unsaved changes asks first. Nothing is stored until the
engine accepts the whole record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual.message import Message
from textual.widgets import Input, Static

from backend.identity.models import Actor
from console.kit.confirm import close_editor
from console.kit.field import Field
from console.kit.item_list import ItemList
from console.kit.keys import RECORD_EDITOR
from console.kit.labels import kind_of
from console.kit.messages import ActionFailed
from console.kit.screens import Screen
from console.kit.status_line import StatusLine
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

Problem = Field | ItemList  # where a message can stand


class Records(Protocol):
    """The engine service an editor saves through."""

    def create(self, actor: Actor, data: dict[str, Any]) -> dict[str, Any]: ...

    def update(self, actor: Actor, record_id: str, data: dict[str, Any]) -> dict[str, Any]: ...


class Saved(Message):
    def __init__(self, record: dict[str, Any]) -> None:
        super().__init__()
        self.record = record


class RecordEditor(Screen[str | None]):
    """Dismissed with the saved record's id, or None when closed without saving. The compose of a
    subclass holds a `#summary` Static inside a scrolling `#form`."""

    NOUN: ClassVar[str]  # "property", "room type", …: for the summary and the discard question

    BINDINGS = RECORD_EDITOR

    app: ConsoleApp

    def __init__(self, record_id: str | None) -> None:
        super().__init__()
        self.record_id = record_id  # None for a new record
        self.initial: dict[str, Any] = {}  # what the form held when opened, to spot changes
        self.saving = False

    # --- what each editor defines ------------------------------------------------------------

    def service(self) -> Records:
        raise NotImplementedError

    def payload(self) -> dict[str, Any]:
        """The record as the form holds it now, as the engine takes it."""
        raise NotImplementedError

    def outgoing(self) -> dict[str, Any]:
        """The payload to save. An editor with item rows keeps the rows it sends: error paths count them."""
        return self.payload()

    def target_for(self, path: str) -> tuple[Problem | None, str]:
        """The field or list a dotted error path names (or its nearest named parent), and its label."""
        raise NotImplementedError

    def saved_text(self, record: dict[str, Any]) -> str:
        return f"Saved {self.NOUN} “{record['title']}”"

    # --- saving ------------------------------------------------------------------------------

    def action_save(self) -> None:
        if self.saving:
            return
        self.saving = True
        self.query_one(StatusLine).news("Saving…")
        self.save(self.outgoing())

    @engine_work(exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        actor = self.app.actor()
        if self.record_id is None:
            saved = self.service().create(actor, data)
        else:
            saved = self.service().update(actor, self.record_id, data)
        self.post_message(Saved(saved))

    def on_saved(self, message: Saved) -> None:
        self.notify(self.saved_text(message.record))
        self.dismiss(message.record["id"])

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown here, beside the fields, not as the app's notification
        self.saving = False
        self.show_problems(message.problems())
        self.query_one(StatusLine).news(f"Not saved: {kind_of(message.error)}", error=True)

    def show_problems(self, details: dict[str, list[str]]) -> Problem | None:
        """Each message beside its field and all of them counted on top; returns the field focused, if any."""
        for problem in [*self.query(Field), *self.query(ItemList)]:
            problem.clear_errors()
        lines, first = [], None
        for path, messages in details.items():
            target, label = self.target_for(path)
            if target is not None:
                target.show_errors(messages)
                first = first or target
            lines += [f"• {label}: {text}" if label else f"• {text}" for text in messages]
        count = len(lines)
        summary = self.query_one("#summary", Static)
        summary.update(f"{count} problem{'s' if count != 1 else ''} kept this {self.NOUN} from being saved:\n"
                       + "\n".join(lines))
        summary.add_class("-visible")
        if first is not None:
            first.control.focus()
            if isinstance(first.control, Input):  # focus selects it only when it comes from elsewhere
                first.control.select_all()
            self.query_one("#form").scroll_to_center(first, animate=False)
        return first

    # --- leaving -----------------------------------------------------------------------------

    def has_changes(self) -> bool:
        return self.payload() != self.initial

    def action_close(self) -> None:
        close_editor(self, self.NOUN)
