from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query

from backend.channels.service import ChannelEnvelope
from backend.engine import Engine
from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import channel_entity, mapping_entity

router = APIRouter(prefix="/api/v1", tags=["channels"])
Channel = Depends(envelope("channel"))


def shown(engine: Engine, channel: dict[str, Any], status: int = 200) -> FastJSON:
    """One channel with its ARI sync state (`sync`: null for a channel that takes no ARI)."""
    return one(channel_entity({**channel, "sync": engine.distribution.sync_of(channel)}), status)


@router.get("/channels", openapi_extra=list_params("id", "title", "channel", "channel_code", "property_id"))
async def list_channels(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.channels.list(actor, query)
    return many([channel_entity(c) for c in items], meta)


@router.post("/channels", status_code=201, openapi_extra=body_doc(ChannelEnvelope))
def create_channel(engine: EngineDep, actor: ActorDep, data: Any = Channel) -> FastJSON:
    """The answer alone carries `inbound_key`, the secret of the channel's adapter, and for a push channel
    `ari_secret`, the key its ARI calls are signed with: keep them."""
    return shown(engine, engine.channels.create(actor, data), 201)


@router.get("/channels/{channel_id}")
async def get_channel(channel_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return shown(engine, engine.channels.get(actor, channel_id))


@router.put("/channels/{channel_id}", openapi_extra=body_doc(ChannelEnvelope))
def update_channel(channel_id: str, engine: EngineDep, actor: ActorDep, data: Any = Channel) -> FastJSON:
    """Only the fields sent change; `rate_plans`, when sent, replaces the mappings. A channel read and sent back
    unchanged is accepted (its read-only fields are ignored). The answer that first turns it to push carries
    `ari_secret`."""
    return shown(engine, engine.channels.update(actor, channel_id, data))


@router.get("/channels/{channel_id}/mappings")
async def channel_mappings(channel_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The channel's rooms and rates, unpaginated: each mapped rate plan with its room type, property and the
    channel's settings for it. The service documents no list of mappings; its shape is that of the mappings in
    its channel resource (https://docs.channex.io/channel-api-examples/check24), with the links spelled out."""
    return many([mapping_entity(m, channel_id) for m in engine.channels.mappings(actor, channel_id)])


@router.delete("/channels/{channel_id}")
def delete_channel(channel_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.channels.delete(actor, channel_id)
    return success()


@router.post("/channels/{channel_id}/full_sync")
def full_sync(channel_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Send the channel every mapped room type and rate plan over its property's whole window (and resume it if it
    was failing); `meta.queued` is how many ranges were queued. A channel that takes no ARI is a 422."""
    queued = engine.distribution.full_sync(actor, channel_id)
    return FastJSON({"meta": {"message": "Success", "queued": queued}})


@router.post("/channels/{channel_id}/resume_sync")
def resume_sync(channel_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """A failing channel is tried again at once, from where it stopped."""
    engine.distribution.resume(actor, channel_id)
    return success()


@router.post("/channels/{channel_id}/ari_secret")
def rotate_ari_secret(channel_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """A new signing secret for a push channel, in this answer alone (`ari_secret`); the old one stops at once."""
    secret = engine.distribution.rotate_secret(actor, channel_id)
    return shown(engine, {**engine.channels.get(actor, channel_id), "ari_secret": secret})


@router.get("/channels/{channel_id}/deliveries")
async def channel_deliveries(channel_id: str, engine: EngineDep, actor: ActorDep,
                             limit: int = Query(50, ge=1, le=500, description="how many, newest first")) -> FastJSON:
    """The channel's ARI delivery log, newest first: per event, its status (`delivered`, `retrying`, `failed`),
    attempts, the channel's answer status, what it warned of while taking it (`warnings`: an OTA answer's Warnings,
    else null), the last error and the next retry."""
    return many([entity("delivery", d) for d in engine.distribution.deliveries(actor, channel_id, limit)])
