"""A yes/no question in a small dialog; answers True only on an explicit yes."""

from __future__ import annotations

from typing import NamedTuple, Protocol, runtime_checkable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from console.kit.screens import ModalScreen
from console.kit.words import counted


@runtime_checkable
class Editing(Protocol):
    """An editor screen: closing it or quitting the console asks first while it holds unsaved changes."""

    def has_changes(self) -> bool: ...


class Unsent(NamedTuple):
    """A reply or a note written and not sent, and the guest of its conversation."""

    guest: str
    kind: str  # "reply" or "note"


def written(unsent: list[Unsent]) -> str:
    """"2 replies", "1 reply and 1 note": what `unsent` holds, in words."""
    replies = sum(held.kind == "reply" for held in unsent)
    nouns = ((replies, "reply", "replies"), (len(unsent) - replies, "note", "notes"))
    return " and ".join(counted(n, one, many) for n, one, many in nouns if n)


@runtime_checkable
class KeepsDrafts(Protocol):
    """A screen with replies written and not sent: quitting keeps them as drafts, and says so first."""

    def unsent(self) -> list[Unsent]:
        """The unsent replies and notes, and whom each is for."""
        ...

    def keep_drafts(self) -> None: ...


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "", confirm: str = "Yes") -> None:
        super().__init__(classes="dialog-screen")
        self.question = question
        self.detail = detail
        self.confirm = confirm

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title", markup=False)
            if self.detail:
                yield Static(self.detail, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="no")
                yield Button(f"{self.confirm} (y)", id="yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # the safe answer is the one under enter

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def close_editor(editor: Screen, noun: str) -> None:
    """Close an editor (an `Editing` screen), asking first while it holds changes that would be lost."""
    if not editor.has_changes():
        editor.dismiss(None)
        return

    def answered(discard: bool | None) -> None:
        if discard:
            editor.dismiss(None)

    editor.app.push_screen(ConfirmDialog("Discard your changes?", f"The {noun} stays as it was saved last.",
                                         confirm="Discard"), answered)
