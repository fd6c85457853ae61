"""The right pane of the inbox: who the thread is with, its messages oldest first, and the reply box.

Guest messages sit on the left and replies on the right, each under a label that names the writer;
the Airbnb inquiry is a card. Drafts are kept per thread, so moving through the list loses nothing.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static, TextArea

from console.screens.inbox_text import bubble, inquiry_card, inquiry_title, provider


class Conversation(Vertical):
    def __init__(self) -> None:
        super().__init__(id="conversation")
        self.thread: dict[str, Any] | None = None
        self.shown: list[tuple[str, str | None]] = []  # (id, delivery) of the messages on screen
        self.drafts: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static("Pick a conversation on the left.", id="conv-header")
        yield VerticalScroll(id="conv-messages")
        yield TextArea(id="compose", placeholder="Write a reply… (ctrl+s sends)", disabled=True)

    @property
    def compose_box(self) -> TextArea:
        return self.query_one("#compose", TextArea)

    def show(self, thread: dict[str, Any], messages: list[dict[str, Any]]) -> None:
        """Show a thread; the messages come oldest first. Unchanged messages are left as they are,
        so that a refresh doesn't flicker or lose the scroll position."""
        if self.thread is None or self.thread["id"] != thread["id"]:
            self.switch_draft(thread["id"])
        self.thread = thread
        self.query_one("#conv-header", Static).update(self.header(thread))
        shown = [(m["id"], m.get("delivery")) for m in messages]
        if shown != self.shown:
            self.shown = shown
            box = self.query_one("#conv-messages", VerticalScroll)
            box.remove_children()
            box.mount_all(self.message_widget(m, thread["title"]) for m in messages)
            box.call_after_refresh(box.scroll_end, animate=False)

    def clear(self, note: str) -> None:
        """Nothing to show (the filters match no thread): keep the draft, hide the rest."""
        if self.thread is not None:
            self.drafts[self.thread["id"]] = self.compose_box.text
        self.thread, self.shown = None, []
        self.query_one("#conv-header", Static).update(note)
        self.query_one("#conv-messages", VerticalScroll).remove_children()
        self.compose_box.load_text("")
        self.compose_box.disabled = True

    def switch_draft(self, thread_id: str) -> None:
        compose = self.compose_box
        if self.thread is not None:
            self.drafts[self.thread["id"]] = compose.text
        compose.disabled = False
        compose.load_text(self.drafts.pop(thread_id, ""))

    def sent(self, thread_id: str) -> None:
        """The reply went out: its draft is done with."""
        self.drafts.pop(thread_id, None)
        if self.thread and self.thread["id"] == thread_id:
            self.compose_box.load_text("")

    @staticmethod
    def header(thread: dict[str, Any]) -> Text:
        """Two lines: the guest and whether the thread is open, then where the conversation comes from."""
        text = Text(thread["title"], style="bold")
        text.append("  ✕ closed · c reopens" if thread["is_closed"] else "  ○ open · c closes",
                    style="italic" if thread["is_closed"] else "dim")
        kind = "booking" if thread["booking_id"] else "inquiry"
        text.append(f"\n{provider(thread['provider'])} {kind} · {thread['property_title']}", style="dim")
        return text

    @staticmethod
    def message_widget(message: dict[str, Any], guest: str) -> Static:
        sender = message["sender"]
        if sender == "system" and message.get("meta"):
            card = Static(inquiry_card(message), classes="msg -card")
            card.border_title = inquiry_title(message)
            return card
        return Static(bubble(message, guest), classes=f"msg -{sender}")
