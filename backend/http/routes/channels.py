from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.channels import ChannelEnvelope
from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import channel_entity, mapping_entity

router = APIRouter(prefix="/api/v1", tags=["channels"])
Channel = Depends(envelope("channel"))


@router.get("/channels", openapi_extra=list_params("id", "title", "channel", "channel_code", "property_id"))
async def list_channels(engine: EngineDep, actor: ActorDep, query: ListQueryDep):
    items, meta = engine.channels.list(actor, query)
    return many([channel_entity(c) for c in items], meta)


@router.post("/channels", status_code=201, openapi_extra=body_doc(ChannelEnvelope))
def create_channel(engine: EngineDep, actor: ActorDep, data: Any = Channel):
    """The answer alone carries `inbound_key`, the secret of the channel's adapter: keep it."""
    return one(channel_entity(engine.channels.create(actor, data)), 201)


@router.get("/channels/{channel_id}")
async def get_channel(channel_id: str, engine: EngineDep, actor: ActorDep):
    return one(channel_entity(engine.channels.get(actor, channel_id)))


@router.put("/channels/{channel_id}", openapi_extra=body_doc(ChannelEnvelope))
def update_channel(channel_id: str, engine: EngineDep, actor: ActorDep, data: Any = Channel):
    """Only the fields sent change; `rate_plans`, when sent, replaces the mappings. A channel read and sent back
    unchanged is accepted (its read-only fields are ignored)."""
    return one(channel_entity(engine.channels.update(actor, channel_id, data)))


@router.get("/channels/{channel_id}/mappings")
async def channel_mappings(channel_id: str, engine: EngineDep, actor: ActorDep):
    """The channel's rooms and rates, unpaginated: each mapped rate plan with its room type, property and the
    channel's settings for it. The service documents no list of mappings; its shape is that of the mappings in
    its channel resource (https://docs.channex.io/channel-api-examples/check24), with the links spelled out."""
    return many([mapping_entity(m, channel_id) for m in engine.channels.mappings(actor, channel_id)])


@router.delete("/channels/{channel_id}")
def delete_channel(channel_id: str, engine: EngineDep, actor: ActorDep):
    engine.channels.delete(actor, channel_id)
    return success()
