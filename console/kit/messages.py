"""Messages shared by several screens. Workers post these; handlers change the widgets."""

from __future__ import annotations

from textual.message import Message

from backend.core.errors import FrontdeskError
from backend.outbox.changes import EVERYTHING
from console.kit.labels import problems_of


class DataChanged(Message, bubble=False):
    """The engine's data changed (an event in this process, or a commit by another one), of a kind such as
    "message.received" or "property.changed"; "database" for a change of no known kind. `subject`, where the engine
    tells one, is what the change is about (the thread of a chat change), so that a screen can reload that alone."""

    def __init__(self, kind: str, subject: str | None = None) -> None:
        super().__init__()
        self.kind = kind
        self.subject = subject

    def concerns(self, watches: tuple[str, ...]) -> bool:
        return concerns(self.kind, watches)


def concerns(kind: str, watches: tuple[str, ...]) -> bool:
    """Whether what shows `watches` (kinds or their starts: "booking." is every booking change) must reload for a
    change of `kind`."""
    return kind == EVERYTHING or kind.startswith(watches)


class ActionDone(Message):
    """An engine write finished; `text` says what happened, for the status line."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ActionFailed(Message):
    """An engine call was refused; the error carries the engine's own title and details.

    Screens with a form handle (and stop) it themselves, to show the problems beside the fields;
    elsewhere it reaches the app, which shows a notification."""

    def __init__(self, error: FrontdeskError) -> None:
        super().__init__()
        self.error = error

    def problems(self) -> dict[str, list[str]]:
        """The engine's messages by dotted field, in plain words; an error that names no field is filed under ""."""
        return problems_of(self.error)
