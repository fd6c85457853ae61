"""Internal notes in the conversation: staff's words for each other, among the messages by time but never mistaken
for one (a dashed box of their own, "Note" and the author above the text). The reply box writes one after
ctrl+n; the guest never sees it."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from backend.chat.authors import staff_name
from console.kit.words import when

NOTE = "note"  # a conversation item's `sender` for a note: its view takes the class `-note`
BOX_TITLE = "Internal note · only staff see it"
NOTE_PLACEHOLDER = "Write an internal note for your colleagues… (ctrl+s saves it, ctrl+n back to the reply)"


def as_item(note: dict[str, Any], my_id: str) -> dict[str, Any]:
    """A note as the conversation shows its messages; "You" for your own."""
    author = staff_name(note["user_id"], note["author_email"], my_id)
    return {"id": note["id"], "sender": NOTE, "message": note["message"], "author": author, "attachments": [],
            "inserted_at": note["inserted_at"]}


def with_notes(messages: list[dict[str, Any]], notes: list[dict[str, Any]], older: bool) -> list[dict[str, Any]]:
    """Messages and notes (oldest first) together, oldest first: an inquiry's card before the guest's words sent with
    it, and what shares a time in the order given. With older messages left out, only the notes of the span shown."""
    oldest = min(m["inserted_at"] for m in messages) if older and messages else ""
    shown = [note for note in notes if note["inserted_at"] >= oldest]
    return sorted([*messages, *shown], key=lambda m: (m["inserted_at"], m["sender"] != "system"))


def is_note(item: dict[str, Any]) -> bool:
    return item["sender"] == NOTE


def note_text(item: dict[str, Any]) -> Text:
    text = Text("Note", style="bold")
    text.append(f" · {item['author']} · {when(item['inserted_at'])}", style="dim")
    text.append("\n" + item["message"])
    return text
