"""The inbound surface of channel adapters: OTA bookings, guest messages, inquiries and attachments in,
property replies out through an outbox, the property's reports about bookings (no-show, invalid card)
through a report feed, and a pull channel's ARI through a cursor feed. Each call names its channel and carries
its inbound key in the header `api-key`, checked before the body is read."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel

from backend.bookings.models import BookingEnvelope
from backend.chat.attachments import AttachmentEnvelope
from backend.chat.inquiry import InquiryEnvelope
from backend.chat.service import InboundMessageInput
from backend.distribution.pull import AckBody
from backend.http.deps import ApiKeyDep, EngineDep, ListQueryDep, SecureDep, accepted, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.chat import file_response
from backend.http.serialise import booking_entity, message_entity, report_entity, thread_entity

router = APIRouter(prefix="/api/v1/inbound/{channel_id}", tags=["inbound"])


class InboundMessageEnvelope(BaseModel):
    """The OpenAPI shape of a guest message's body; the engine validates what is inside."""

    message: InboundMessageInput


async def get_inbound_channel(channel_id: str, request: Request, engine: EngineDep, api_key: ApiKeyDep) -> Any:
    return accepted(request, engine.bookings.channel_by_key(channel_id, api_key))


Channel = Depends(get_inbound_channel)


@router.get("")
async def inbound_channel(engine: EngineDep, channel: Any = Channel) -> FastJSON:
    """The channel as its adapter sees it: connected properties and mapped rate plans (room and rate codes)."""
    return one(entity("channel", engine.channels.adapter_view(channel)))


@router.post("/bookings", openapi_extra=body_doc(BookingEnvelope))
def inbound_booking(engine: EngineDep, secure: SecureDep, channel: Any = Channel,
                    data: Any = Depends(envelope("booking"))) -> FastJSON:
    """An OTA booking, with `property_id`. Always accepted: flagged `is_overbooked` or `is_unmapped`
    rather than refused."""
    booking, created = engine.bookings.inbound(channel, data, secure=secure)
    return one(booking_entity(booking), 201 if created else 200)


@router.post("/messages", openapi_extra=body_doc(InboundMessageEnvelope))
def inbound_message(engine: EngineDep, channel: Any = Channel, data: Any = Depends(envelope("message"))) -> FastJSON:
    """A guest message: `{"booking_id" | "thread_id", "message", "attachments": [ids]}`."""
    return one(message_entity(engine.chat.receive(channel, data)))


@router.post("/inquiries", openapi_extra=body_doc(InquiryEnvelope))
def inbound_inquiry(engine: EngineDep, channel: Any = Channel, data: Any = Depends(envelope("inquiry"))) -> FastJSON:
    """An Airbnb inquiry: a thread without a booking, holding the system `inquiry` message."""
    return one(thread_entity(engine.chat.inquiry(channel, data)), 201)


@router.post("/attachments", openapi_extra=body_doc(AttachmentEnvelope))
def inbound_attachment(engine: EngineDep, channel: Any = Channel, data: Any = Depends(envelope("attachment"))) -> FastJSON:
    return one(entity("attachment", engine.chat.attachments.upload(data, channel_id=channel["id"])))


@router.get("/attachments/{attachment_id}")
async def inbound_attachment_file(attachment_id: str, engine: EngineDep, channel: Any = Channel) -> Response:
    return file_response(engine.chat.channel_attachment(channel, attachment_id))


@router.get("/outbox")
async def outbox(engine: EngineDep, query: ListQueryDep, channel: Any = Channel) -> FastJSON:
    """Property replies not yet taken, oldest first; ack each once delivered to the guest."""
    items, meta = engine.chat.outbox(channel, query)
    return many([message_entity(m) for m in items], meta)


@router.post("/outbox/{message_id}/ack")
def ack_outbox(message_id: str, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    engine.chat.delivered(channel, message_id)
    return success()


@router.get("/reports")
async def reports(engine: EngineDep, query: ListQueryDep, channel: Any = Channel) -> FastJSON:
    """The property's reports about the channel's bookings (`no_show` with `waived_fees`, `invalid_card`,
    `cancel_due_invalid_card`) not yet acknowledged, oldest first: tell the channel, then ack each."""
    items, meta = engine.bookings.reports.feed(channel, query)
    return many([report_entity(r) for r in items], meta)


@router.post("/reports/{report_id}/ack")
def ack_report(report_id: str, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    engine.bookings.reports.delivered(channel, report_id)
    return success()


@router.get("/ari")
def ari_feed(engine: EngineDep, channel: Any = Channel,
             cursor: int | None = Query(None, ge=0, description="read on from here (default: the acked cursor)")) -> FastJSON:
    """A pull channel's ARI changes since the cursor, for its mapped room types and rate plans by their codes, values
    read now, consecutive days collapsed: the service's availability and restriction values. `meta.cursor` is where
    the page ends (read on from it, ack it once applied), `meta.has_more` whether more came after it."""
    page = engine.distribution.feed(channel, cursor)
    return many(page.values, {"cursor": page.cursor, "has_more": page.has_more})


@router.post("/ari/ack", openapi_extra=body_doc(AckBody))
def ari_ack(engine: EngineDep, channel: Any = Channel, cursor: Any = Depends(envelope("cursor"))) -> FastJSON:
    """`{"cursor": N}`: the channel has applied everything up to N. The cursor never moves back; one beyond the
    newest event is a 422."""
    return FastJSON({"meta": {"message": "Success", "cursor": engine.distribution.ack(channel, cursor)}})
