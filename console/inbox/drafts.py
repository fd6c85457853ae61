"""What the reply box holds, kept in the database (the engine's drafts, per user and thread) as staff write it.

A draft is saved a second after typing stops, off the UI thread, and at once before the console quits; a crash
loses at most that second. Saves go in the order written: one batch at a time, each taken from what is unsaved
when its turn comes, so an older text never lands after a newer one. At start the user's drafts are read back.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from backend.core.errors import FrontdeskError
from console.kit.workers import engine_work

SETTLE = 1.0  # seconds after the last keystroke before the draft is saved
Draft = tuple[str, str]  # the text and its kind: "reply" or "note"
NONE: Draft = ("", "reply")


class DraftsLoaded(Message):
    """The user's drafts as the database holds them (backend/chat/drafts.py `mine`)."""

    def __init__(self, drafts: list[dict[str, Any]]) -> None:
        super().__init__()
        self.drafts = drafts


class DraftKeeper(Widget):
    DEFAULT_CSS = "DraftKeeper { display: none; }"

    def __init__(self) -> None:
        super().__init__()
        self.known: dict[str, Draft] = {}  # thread id: the draft as stored
        self.unsaved: dict[str, Draft] = {}  # thread id: the draft as it is now, when it differs
        self.guard = Lock()  # over `known` and `unsaved`, which the UI thread and the saving worker share
        self.writing = Lock()  # one batch of saves at a time, in order
        self.timer: Timer | None = None

    def on_mount(self) -> None:
        self.load()

    @engine_work(group="drafts-load")
    def load(self) -> None:
        self.post_message(DraftsLoaded(self.app.engine.drafts.mine(self.app.actor())))

    def on_drafts_loaded(self, message: DraftsLoaded) -> None:
        with self.guard:
            for draft in message.drafts:
                self.known.setdefault(draft["thread_id"], (draft["text"], draft["kind"]))

    def mark(self, thread_id: str, text: str, kind: str) -> None:
        """The thread's draft is now this (empty text: none); saved once typing settles."""
        draft = (text, kind) if text.strip() else NONE
        with self.guard:
            if self.known.get(thread_id, NONE) == draft:
                self.unsaved.pop(thread_id, None)
                return
            self.unsaved[thread_id] = draft
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.set_timer(SETTLE, self.save)

    @engine_work(group="drafts")
    def save(self) -> None:
        with self.writing:
            self.write_unsaved()

    def keep_all(self) -> None:
        """Save what is unsaved now, on the calling thread: the console is about to quit."""
        with self.writing:
            self.write_unsaved()

    def write_unsaved(self) -> None:
        with self.guard:
            batch, self.unsaved = self.unsaved, {}
        drafts, actor = self.app.engine.drafts, self.app.actor()
        for thread_id, (text, kind) in batch.items():
            try:
                drafts.save(actor, thread_id, {"text": text, "kind": kind})
            except FrontdeskError:
                continue  # a thread no longer reached, a text over the longest reply: it stays in the box alone
            with self.guard:
                self.known[thread_id] = (text, kind)
