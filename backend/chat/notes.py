"""Internal notes on a thread: what staff write for each other about a guest ("called about the late check-in").

A note is not a message. It lives in a table of its own, so it is never in a thread's messages, its
`message_count` or `last_message`, a channel's outbox, an outbox event or a webhook: the guest never sees it.
Whoever reaches the thread reads and writes its notes; only its author deletes one. Card numbers in a note are
masked before it is stored, as in messages.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from backend.chat.service import MAX_TEXT, NEWEST_FIRST, Chat
from backend.chat.store import delete_note, insert_note, note_author, note_row, notes_page
from backend.core.card_data import mask_text
from backend.core.errors import Forbidden, NotFound, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.scopes import property_scope
from backend.core.validation import validate
from backend.identity.models import Actor
from storage import Row, Store, new_id


class NoteInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message: StrictStr = Field(max_length=MAX_TEXT, description="the note; the guest never sees it")


class NoteEnvelope(BaseModel):
    note: NoteInput


class ThreadNotes:
    def __init__(self, store: Store, events: EventBus, chat: Chat) -> None:
        self.store = store
        self.events = events
        self.chat = chat

    def list(self, actor: Actor, thread_id: str, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The thread's notes, newest first, as its messages are listed (of two written in the same microsecond, the
        later written first)."""
        self.chat.reach(actor, thread_id)
        rows, meta = notes_page(self.store, query, thread_id)
        return [_note(r) for r in rows], {**meta, **NEWEST_FIRST}

    def add(self, actor: Actor, thread_id: str, data: Any) -> dict[str, Any]:
        thread = self.chat.reach(actor, thread_id)
        model = validate(NoteInput, data)
        if not model.message.strip():
            raise ValidationFailed.one("message", "can't be blank")
        note_id, now = new_id(), self.chat.now()
        with self.store.transaction(property_scope(thread["property_id"])) as conn:
            insert_note(conn, note_id, thread_id, actor.user_id, mask_text(model.message), now)
        self.events.publish("thread.changed", thread_id, subject=thread_id, action="note")
        return self._one(note_id)

    def delete(self, actor: Actor, thread_id: str, note_id: str) -> None:
        """Only its author takes a note back (a 403 for anyone else who reads it)."""
        thread = self.chat.reach(actor, thread_id)
        row = note_author(self.store, note_id, thread_id)
        if row is None:
            raise NotFound(f"note {note_id} is not a note of this thread")
        if row["user_id"] != actor.user_id:
            raise Forbidden("only its author deletes a note")
        with self.store.transaction(property_scope(thread["property_id"])) as conn:
            delete_note(conn, note_id)
        self.events.publish("thread.changed", thread_id, subject=thread_id, action="note")

    def _one(self, note_id: str) -> dict[str, Any]:
        return _note(cast(Row, note_row(self.store, note_id)))  # just written


def _note(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "message": row["note"], "user_id": row["user_id"], "author_email": row["author_email"],
            "inserted_at": row["inserted_at"], "updated_at": row["updated_at"], "thread_id": row["thread_id"]}
