"""Drafts: the reply (or note) a user began on a thread and has not sent, kept in the database per user and thread,
so that quitting, a crash or another machine loses no word of it.

A draft is the user's own: nobody else reads it, and it goes with the user's access (a thread the user no longer
reaches drops out of the list). Saving empty text deletes it; a reply sent from a draft deletes it in the reply's
own transaction (Chat.reply), unless the draft has changed since. Card numbers are masked before a draft is stored,
as in messages, so a number typed by mistake is never on disk in clear.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from backend.chat.service import MAX_TEXT, Chat
from backend.chat.store import drop_draft, put_draft, user_drafts
from backend.core.card_data import mask_text
from backend.core.scopes import property_scope
from backend.core.validation import validate
from backend.identity.models import Actor
from storage import Store


class DraftInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: StrictStr = Field(max_length=MAX_TEXT, description="what is written so far; empty deletes the draft")
    kind: Literal["reply", "note"] = "reply"


class Drafts:
    def __init__(self, store: Store, chat: Chat) -> None:
        self.store = store
        self.chat = chat

    def save(self, actor: Actor, thread_id: str, data: Any) -> None:
        thread = self.chat.reach(actor, thread_id)
        model = validate(DraftInput, data)
        with self.store.transaction(property_scope(thread["property_id"])) as conn:
            if model.text.strip():
                put_draft(conn, actor.user_id, thread_id, mask_text(model.text), model.kind, self.chat.now())
            else:
                drop_draft(conn, actor.user_id, thread_id)

    def mine(self, actor: Actor) -> list[dict[str, Any]]:
        """The user's drafts on threads the user still reaches, newest first."""
        return [dict(r) for r in user_drafts(self.store, actor)]

