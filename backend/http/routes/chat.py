"""Booking messages, message threads and attachments (the spec's chat API), for staff and integrators."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Response

from backend.chat.attachments import AttachmentEnvelope
from backend.chat.service import MessageEnvelope
from backend.http.deps import ChatActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one
from backend.http.routes.params import list_params
from backend.http.serialise import message_entity, thread_entity
from storage import Row

router = APIRouter(prefix="/api/v1", tags=["chat"])
Message = Depends(envelope("message"))
Attachment = Depends(envelope("attachment"))


@router.get("/bookings/{booking_id}/messages", openapi_extra=list_params())
async def booking_messages(booking_id: str, engine: EngineDep, actor: ChatActorDep, query: ListQueryDep) -> FastJSON:
    """The booking's conversation, newest first."""
    items, meta = engine.chat.booking_messages(actor, booking_id, query)
    return many([message_entity(m) for m in items], meta)


@router.post("/bookings/{booking_id}/messages", openapi_extra=body_doc(MessageEnvelope))
def send_booking_message(booking_id: str, engine: EngineDep, actor: ChatActorDep, data: Any = Message) -> FastJSON:
    """`message` text and/or `attachment_id`; the first message starts the booking's thread."""
    return one(message_entity(engine.chat.send_to_booking(actor, booking_id, data)))


@router.post("/attachments", openapi_extra=body_doc(AttachmentEnvelope))
def upload_attachment(engine: EngineDep, actor: ChatActorDep, data: Any = Attachment) -> FastJSON:
    """`file` in base64 with `file_name` and `file_type`; send its id as a message's `attachment_id`."""
    return one(entity("attachment", engine.chat.upload(actor, data)))


@router.get("/attachments/{attachment_id}", response_class=Response)
async def download_attachment(attachment_id: str, engine: EngineDep, actor: ChatActorDep) -> Response:
    row = engine.chat.attachment(actor, attachment_id)
    return file_response(row)


def file_response(row: Row) -> Response:
    """The file as sent, never rendered inline by a browser as something else."""
    return Response(row["data"], media_type=row["file_type"], headers={
        "Content-Disposition": f"attachment; filename*=UTF-8''{quote(row['file_name'], safe='')}",
        "X-Content-Type-Options": "nosniff"})


@router.get("/message_threads", openapi_extra=list_params("property_id", "provider", "title", "search",
                                                           bools=("is_closed", "unread")))
async def list_threads(engine: EngineDep, actor: ChatActorDep, query: ListQueryDep) -> FastJSON:
    """Threads, newest conversation first; filters is_closed, provider, property_id, unread, search."""
    items, meta = engine.chat.threads(actor, query)
    return many([thread_entity(t) for t in items], meta)


@router.get("/message_threads/{thread_id}")
async def get_thread(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    return one(thread_entity(engine.chat.thread(actor, thread_id)))


@router.get("/message_threads/{thread_id}/messages", openapi_extra=list_params())
async def thread_messages(thread_id: str, engine: EngineDep, actor: ChatActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.chat.thread_messages(actor, thread_id, query)
    return many([message_entity(m) for m in items], meta)


@router.post("/message_threads/{thread_id}/messages", openapi_extra=body_doc(MessageEnvelope))
def reply(thread_id: str, engine: EngineDep, actor: ChatActorDep, data: Any = Message) -> FastJSON:
    return one(message_entity(engine.chat.reply(actor, thread_id, data)))


@router.post("/message_threads/{thread_id}/close")
def close_thread(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    return one(thread_entity(engine.chat.close(actor, thread_id)))


@router.post("/message_threads/{thread_id}/open")
def reopen_thread(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    """Reopens a closed thread by hand (a new guest message reopens it by itself)."""
    return one(thread_entity(engine.chat.reopen(actor, thread_id)))


@router.post("/message_threads/{thread_id}/read")
def mark_thread_read(thread_id: str, engine: EngineDep, actor: ChatActorDep) -> FastJSON:
    """Clears the thread's unread count."""
    return one(thread_entity(engine.chat.mark_read(actor, thread_id)))
