"""What staff do with a thread beyond the spec's chat API: assign it, mark it unread, write notes for each other,
and fill in its saved replies. Reached like the chat routes (an API token, or the web chat's session)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.chat.notes import NoteEnvelope
from backend.chat.service import ThreadEnvelope
from backend.http.deps import ChatActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import note_entity, template_entity, thread_entity

router = APIRouter(prefix="/api/v1/message_threads/{thread_id}", tags=["chat"])
Thread = Depends(envelope("message_thread"))
Note = Depends(envelope("note"))


@router.put("", openapi_extra=body_doc(ThreadEnvelope))
def update_thread(thread_id: str, engine: EngineDep, actor: ChatActorDep, data: Any = Thread) -> FastJSON:
    """`assignee_id`: a user of the property's group (else a 422 naming it), or null to unassign. The thread's
    other attributes, sent back as read, are ignored."""
    return one(thread_entity(engine.chat.update_thread(actor, thread_id, data)))


@router.get("/assignees")
async def list_assignees(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    """Whom the thread may be assigned to: the users of its property's group, by email."""
    return many([entity("user", u) for u in engine.chat.assignees(actor, thread_id)])


@router.post("/unread")
def mark_thread_unread(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    """Back to unread: the unread count becomes the guest messages since the last reply, at least 1."""
    return one(thread_entity(engine.chat.mark_unread(actor, thread_id)))


@router.get("/notes", openapi_extra=list_params())
async def list_notes(thread_id: str, engine: EngineDep, actor: ChatActorDep, query: ListQueryDep) -> FastJSON:
    """Staff's notes on the thread, newest first. Never a message: the guest and the channel never see them."""
    items, meta = engine.notes.list(actor, thread_id, query)
    return many([note_entity(n) for n in items], meta)


@router.post("/notes", status_code=201, openapi_extra=body_doc(NoteEnvelope))
def add_note(thread_id: str, engine: EngineDep, actor: ChatActorDep, data: Any = Note) -> FastJSON:
    """`{"note": {"message"}}`; card numbers in it are masked before it is stored."""
    return one(note_entity(engine.notes.add(actor, thread_id, data)), 201)


@router.delete("/notes/{note_id}")
def delete_note(thread_id: str, note_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    """Its author only (403 for anyone else)."""
    engine.notes.delete(actor, thread_id, note_id)
    return success()


@router.get("/message_templates")
async def thread_templates(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    """The saved replies that apply to the thread, by title, each with `filled_message` (its placeholders filled
    from the thread's booking or inquiry and its property) and `unfilled` (those with nothing to fill them)."""
    return many([template_entity(t) for t in engine.message_templates.for_thread(actor, thread_id)])
