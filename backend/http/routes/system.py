"""Routes without a resource of their own: health on every listener; the caller's groups and served media on
the main and secure ones only (the pci listener opens nothing to a user's API token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from backend.http.deps import ActorDep, EngineDep, body_doc, envelope
from backend.http.responses import many, one, success
from backend.http.serialise import group_entity
from backend.identity.models import GroupEnvelope

router = APIRouter(prefix="/api/v1", tags=["system"])
api_router = APIRouter(prefix="/api/v1", tags=["system"])


@router.get("/health")
async def health(request: Request):
    """No authentication: for load balancers and `frontdesk serve` checks."""
    return one({"id": request.app.state.listener, "type": "health", "attributes": {"status": "ok"}})


Group = Depends(envelope("group"))


@api_router.get("/groups")
async def list_groups(engine: EngineDep, actor: ActorDep):
    """The caller's groups, with their properties: a property's `group_id` must be one of them."""
    return many([group_entity(g) for g in engine.identity.groups(actor)])


@api_router.post("/groups", status_code=201, openapi_extra=body_doc(GroupEnvelope))
def create_group(engine: EngineDep, actor: ActorDep, data: Any = Group):
    """A new group; its creator is its first member."""
    return one(group_entity(engine.identity.create_group(actor, data)), 201)


@api_router.get("/groups/{group_id}")
async def get_group(group_id: str, engine: EngineDep, actor: ActorDep):
    return one(group_entity(engine.identity.group(actor, group_id)))


@api_router.put("/groups/{group_id}", openapi_extra=body_doc(GroupEnvelope))
def update_group(group_id: str, engine: EngineDep, actor: ActorDep, data: Any = Group):
    return one(group_entity(engine.identity.update_group(actor, group_id, data)))


@api_router.delete("/groups/{group_id}")
def delete_group(group_id: str, engine: EngineDep, actor: ActorDep):
    """Refused (422, naming them) while properties or channels are in the group, or it is someone's default."""
    engine.identity.delete_group(actor, group_id)
    return success()


@api_router.get("/media/{media_id}", response_class=Response)
async def media(media_id: str, engine: EngineDep):
    """A stored image (a property logo). Public, like a CDN: its address is unguessable."""
    content_type, data = engine.media.get(media_id)
    return Response(data, media_type=content_type, headers={"Cache-Control": "public, max-age=86400",
                                                            "X-Content-Type-Options": "nosniff"})
