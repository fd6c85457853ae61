"""The right pane of the inbox: who the thread is with, its messages oldest first, and the reply box.

Guest messages sit on the left and replies on the right, each under a label that names the writer;
the Airbnb inquiry is a card. Messages with files take the focus, so that one can be picked to save
its files. Drafts and the file chosen to go with the next reply are kept per thread, so moving
through the list loses nothing; drafts are kept in the database too (drafts.py), so quitting or a crash loses
nothing either, and a note being written comes back as a note.

A refresh of the same thread changes only the messages that changed, and keeps the message read at
the top of the view where it was, unless the view was at the end: then new messages come into view.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static, TextArea

from console.inbox.drafts import DraftKeeper, DraftsLoaded
from console.inbox.notes import BOX_TITLE, NOTE_PLACEHOLDER, is_note, note_text
from console.inbox.text import bubble, inquiry_card, inquiry_title, pending_text
from console.kit.confirm import Unsent
from console.kit.text_box import TextBox
from console.kit.words import channel

REPLY_PLACEHOLDER = "Write a reply… (ctrl+s sends, ctrl+o attaches a file)"


class MessageView(Static):
    def __init__(self, message: dict[str, Any], guest: str) -> None:
        super().__init__()
        self.message = message
        self.show_message(message, guest)

    def show_message(self, message: dict[str, Any], guest: str) -> None:
        """Show this message (a view is reused for another thread's message: cheaper than a new one)."""
        card = message["sender"] == "system" and bool(message.get("meta"))
        self.message = message
        self.set_classes("msg -card" if card else f"msg -{message['sender']}")
        self.border_title = inquiry_title(message) if card else None
        self.can_focus = bool(message["attachments"])
        self.update(inquiry_card(message) if card else
                    note_text(message) if is_note(message) else bubble(message, guest))

    def refresh_from(self, message: dict[str, Any], guest: str) -> None:
        """A reply's delivery state is the one thing about a message that changes."""
        if message.get("delivery") != self.message.get("delivery"):
            self.show_message(message, guest)


Anchor = tuple[MessageView, int] | None  # a message and its distance from the top of the view


class Conversation(Vertical):
    def __init__(self) -> None:
        super().__init__(id="conversation")
        self.thread: dict[str, Any] | None = None
        self.views: dict[str, MessageView] = {}  # the messages on screen, oldest first
        self.older = 0  # messages of the thread older than those on screen
        self.drafts: dict[str, str] = {}
        self.note_drafts: set[str] = set()  # threads whose draft is a note
        self.titles: dict[str, str] = {}  # thread id: the guest, for the threads with drafts
        self.pending: dict[str, dict[str, Any]] = {}  # thread id: the upload that goes with its next reply
        self.writing_note = False  # the reply box writes an internal note (ctrl+n), not a reply

    def compose(self) -> ComposeResult:
        yield Static("Pick a conversation on the left.", id="conv-header")
        with VerticalScroll(id="conv-messages"):
            yield Static("", id="conv-older", markup=False)
        yield TextBox(id="compose", placeholder=REPLY_PLACEHOLDER, disabled=True)
        yield Static("", id="conv-pending", markup=False)
        yield DraftKeeper()

    @property
    def compose_box(self) -> TextArea:
        return self.query_one("#compose", TextArea)

    @property
    def box(self) -> VerticalScroll:
        return self.query_one("#conv-messages", VerticalScroll)

    def show(self, thread: dict[str, Any], messages: list[dict[str, Any]], total: int) -> None:
        """Show a thread's newest messages, oldest first, out of its `total`."""
        switched = self.thread is None or self.thread["id"] != thread["id"]
        if switched:
            self.switch_draft(thread["id"])
        self.thread = thread
        self.titles[thread["id"]] = thread["title"]
        self.query_one("#conv-header", Static).update(self.header(thread))
        self.show_pending()
        self.older = total - sum(not is_note(m) for m in messages)
        note = self.query_one("#conv-older", Static)
        note.update(f"▲ {self.older:,} older message{'s' if self.older != 1 else ''} · o shows them")
        note.display = self.older > 0
        box, guest = self.box, thread["title"]
        if switched:
            self.reuse_views(messages, guest)
            box.call_after_refresh(box.scroll_end, animate=False)
        elif [(m["id"], m.get("delivery")) for m in messages] != self.shown:
            anchor = self.anchor()
            self.update_views(messages, guest)
            box.call_after_refresh(self.restore, anchor)

    @property
    def shown(self) -> list[tuple[str, str | None]]:
        """(id, delivery) of the messages on screen, oldest first."""
        return [(m_id, view.message.get("delivery")) for m_id, view in self.views.items()]

    def reuse_views(self, messages: list[dict[str, Any]], guest: str) -> None:
        """Another thread's messages in the views there are, mounting or removing only the difference:
        switching threads then costs one layout, not a teardown and a build."""
        views = list(self.views.values())
        for view, message in zip(views, messages, strict=False):
            view.show_message(message, guest)
        for view in views[len(messages):]:
            view.remove()
        extra = [MessageView(message, guest) for message in messages[len(views):]]
        if extra:
            self.box.mount_all(extra)
        self.views = {message["id"]: view for message, view in zip(messages, views[:len(messages)] + extra,
                                                                        strict=True)}

    def update_views(self, messages: list[dict[str, Any]], guest: str) -> None:
        """Mount the new messages where they belong (older ones above, newer below), drop the gone."""
        box, wanted = self.box, {m["id"] for m in messages}
        for gone in [m_id for m_id in self.views if m_id not in wanted]:
            self.views.pop(gone).remove()
        views: dict[str, MessageView] = {}
        new: list[MessageView] = []
        for message in messages:
            view = self.views.get(message["id"])
            if view is None:
                view = MessageView(message, guest)
                new.append(view)
            else:
                if new:
                    box.mount_all(new, before=view)
                    new = []
                view.refresh_from(message, guest)
            views[message["id"]] = view
        if new:
            box.mount_all(new)
        self.views = views

    def anchor(self) -> Anchor:
        """The first message in view and how far below the top of the view it starts; None at the end."""
        box = self.box
        if box.is_vertical_scroll_end:
            return None
        top = round(box.scroll_y)
        for view in self.views.values():
            region = view.virtual_region
            if region.bottom > top:
                return view, region.y - top
        return None

    def restore(self, anchor: Anchor) -> None:
        box = self.box
        if anchor is None or anchor[0] not in self.views.values():
            box.scroll_end(animate=False)
        else:
            view, offset = anchor
            box.scroll_to(y=view.virtual_region.y - offset, animate=False)

    def clear(self, note: str) -> None:
        """Nothing to show (the filters match no thread): keep the draft, hide the rest."""
        if self.thread is not None:
            self.drafts[self.thread["id"]] = self.compose_box.text
            if self.writing_note:
                self.note_drafts.add(self.thread["id"])
        self.thread, self.older = None, 0
        self.query_one("#conv-header", Static).update(note)
        self.box.remove_children(MessageView)
        self.views = {}
        self.query_one("#conv-older", Static).display = False
        self.compose_box.load_text("")
        self.compose_box.disabled = True
        self.show_pending()

    def write_note(self, on: bool) -> None:
        """The reply box writes an internal note, or a reply again: told apart by its border and title."""
        if on != self.writing_note and self.thread is not None:
            self.keeper.mark(self.thread["id"], self.compose_box.text, "note" if on else "reply")
        self.show_mode(on)

    def show_mode(self, on: bool) -> None:
        compose = self.compose_box
        self.writing_note = on
        compose.set_class(on, "-note")
        compose.border_title = BOX_TITLE if on else None
        compose.placeholder = NOTE_PLACEHOLDER if on else REPLY_PLACEHOLDER

    def switch_draft(self, thread_id: str) -> None:
        compose = self.compose_box
        if self.thread is not None:
            self.drafts[self.thread["id"]] = compose.text
            if self.writing_note:
                self.note_drafts.add(self.thread["id"])
        compose.disabled = False
        draft = self.drafts.pop(thread_id, "")
        note = thread_id in self.note_drafts
        self.note_drafts.discard(thread_id)
        self.show_mode(note)
        if draft != compose.text:  # most threads have no draft: the box then needs no repaint
            compose.load_text(draft)

    @property
    def keeper(self) -> DraftKeeper:
        return self.query_one(DraftKeeper)

    @property
    def box_kind(self) -> str:
        """What the box writes, as a draft keeps it."""
        return "note" if self.writing_note else "reply"

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """Whatever changed the box (typing, a send, a refused reply given back), its thread's draft follows; read
        now, not from the event: the box may show another thread since."""
        if event.text_area is self.compose_box and self.thread is not None:
            self.keeper.mark(self.thread["id"], self.compose_box.text, self.box_kind)

    def on_drafts_loaded(self, message: DraftsLoaded) -> None:
        """The drafts kept from before: each back in its thread's box, unless something is written there already."""
        for draft in message.drafts:
            thread_id, text = draft["thread_id"], draft["text"]
            self.titles.setdefault(thread_id, draft["title"])
            if self.thread is not None and self.thread["id"] == thread_id:
                if not self.compose_box.text:
                    self.show_mode(draft["kind"] == "note")
                    self.compose_box.load_text(text)
            elif not self.drafts.get(thread_id):
                self.drafts[thread_id] = text
                if draft["kind"] == "note":
                    self.note_drafts.add(thread_id)

    def unsent(self) -> dict[str, Unsent]:
        """Thread id: the guest and "reply" or "note", for every draft not empty, the one in the box included."""
        held = {thread_id: (text, "note" if thread_id in self.note_drafts else "reply")
                for thread_id, text in self.drafts.items()}
        if self.thread is not None:
            held[self.thread["id"]] = (self.compose_box.text, self.box_kind)
        return {thread_id: Unsent(self.titles.get(thread_id, "a guest"), kind)
                for thread_id, (text, kind) in held.items() if text.strip()}

    def keep_drafts(self) -> None:
        """Every draft saved now (the console quits): the box's own marked first, in case its change is unread."""
        if self.thread is not None:
            self.keeper.mark(self.thread["id"], self.compose_box.text, self.box_kind)
        self.keeper.keep_all()

    def set_pending(self, thread_id: str, attachment: dict[str, Any] | None) -> None:
        if attachment is None:
            self.pending.pop(thread_id, None)
        else:
            self.pending[thread_id] = attachment
        self.show_pending()

    def show_pending(self) -> None:
        line = self.query_one("#conv-pending", Static)
        attachment = self.pending.get(self.thread["id"]) if self.thread else None
        line.display = attachment is not None
        if attachment:
            line.update(f"{pending_text(attachment)} · ctrl+o changes or drops it")

    def take(self, thread_id: str) -> tuple[str, dict[str, Any] | None]:
        """The reply as it is sent, text and file, out of the box: what is typed next is the next reply."""
        text = self.compose_box.text
        self.compose_box.load_text("")
        attachment = self.pending.pop(thread_id, None)
        self.show_pending()
        return text, attachment

    def give_back(self, thread_id: str, text: str, attachment: dict[str, Any] | None) -> None:
        """A reply the engine refused, back where it was written, ahead of anything typed since."""
        shown = self.thread is not None and self.thread["id"] == thread_id
        since = self.compose_box.text if shown else self.drafts.get(thread_id, "")
        whole = "\n".join(part for part in (text, since) if part)
        if shown:
            self.compose_box.load_text(whole)
        elif whole:
            self.drafts[thread_id] = whole
            self.note_drafts.discard(thread_id)
            self.keeper.mark(thread_id, whole, "reply")
        if attachment is not None and thread_id not in self.pending:
            self.set_pending(thread_id, attachment)

    def noted(self, thread_id: str) -> None:
        """The note is saved: the box is empty and writes replies again; the file waiting for the reply stays."""
        self.drafts.pop(thread_id, None)
        self.note_drafts.discard(thread_id)
        self.keeper.mark(thread_id, "", "reply")
        if self.thread and self.thread["id"] == thread_id:
            self.compose_box.load_text("")
            self.write_note(False)

    def with_files(self, focused: Widget | None) -> MessageView | None:
        """The message whose files to save: the one in focus, else the newest that has any."""
        views = list(self.views.values())
        if isinstance(focused, MessageView) and focused in views and focused.message["attachments"]:
            return focused
        return next((view for view in reversed(views) if view.message["attachments"]), None)

    @staticmethod
    def header(thread: dict[str, Any]) -> Text:
        """The guest and whether the thread is open, then where the conversation comes from, then (on a line of its own,
        so that a narrow pane never parts the arrow from the name) who answers it."""
        text = Text(thread["title"], style="bold")
        text.append("  ✕ closed · c reopens" if thread["is_closed"] else "  ○ open · c closes",
                    style="italic" if thread["is_closed"] else "dim")
        kind = "booking" if thread["booking_id"] else "inquiry"
        text.append(f"\n{channel(thread['provider'])} {kind} · {thread['property_title']}", style="dim")
        if thread["assignee_email"]:
            text.append(f"\n→ {thread['assignee_email']}", style="dim")
        return text
