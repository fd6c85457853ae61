"""Routes without a resource of their own: health on every listener; the caller's groups and served media on
the main and secure ones only (the pci listener opens nothing to a user's API token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from backend.http.deps import ActorDep, EngineDep, body_doc, envelope
from backend.http.responses import FastJSON, many, one, success
from backend.http.serialise import group_entity
from backend.identity.models import GroupEnvelope

router = APIRouter(prefix="/api/v1", tags=["system"])
api_router = APIRouter(prefix="/api/v1", tags=["system"])


@router.get("/health")
async def health(request: Request) -> FastJSON:
    """No authentication: for load balancers and `frontdesk serve` checks."""
    return one({"id": request.app.state.listener, "type": "health", "attributes": {"status": "ok"}})


Group = Depends(envelope("group"))


@api_router.get("/groups")
async def list_groups(engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The caller's groups, with their properties: a property's `group_id` must be one of them."""
    return many([group_entity(g) for g in engine.identity.groups(actor)])


@api_router.post("/groups", status_code=201, openapi_extra=body_doc(GroupEnvelope))
def create_group(engine: EngineDep, actor: ActorDep, data: Any = Group) -> FastJSON:
    """A new group; its creator is its first member."""
    return one(group_entity(engine.identity.create_group(actor, data)), 201)


@api_router.get("/groups/{group_id}")
async def get_group(group_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(group_entity(engine.identity.group(actor, group_id)))


@api_router.put("/groups/{group_id}", openapi_extra=body_doc(GroupEnvelope))
def update_group(group_id: str, engine: EngineDep, actor: ActorDep, data: Any = Group) -> FastJSON:
    return one(group_entity(engine.identity.update_group(actor, group_id, data)))


@api_router.delete("/groups/{group_id}")
def delete_group(group_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """An owner's call (403 for a `user`). Refused while properties are in the group (400), or channels, or it is
    someone's default (422, naming them)."""
    engine.identity.delete_group(actor, group_id)
    return success()


@api_router.post("/groups/{group_id}/properties/{property_id}")
def add_group_property(group_id: str, property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The property joins the group too: the group's users reach it. 422 when it is in the group already."""
    engine.properties.join_group(actor, group_id, property_id)
    return success()


@api_router.delete("/groups/{group_id}/properties/{property_id}")
def remove_group_property(group_id: str, property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The property leaves the group; 400 when it is in no other (a property is always in a group)."""
    engine.properties.leave_group(actor, group_id, property_id)
    return success()


@api_router.get("/media/{media_id}", response_class=Response)
async def media(media_id: str, engine: EngineDep) -> Response:
    """A stored image (a property logo). Public, like a CDN: its address is unguessable."""
    content_type, data = engine.media.get(media_id)
    return Response(data, media_type=content_type, headers={"Cache-Control": "public, max-age=86400",
                                                            "X-Content-Type-Options": "nosniff"})
