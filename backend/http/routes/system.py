"""Routes without a resource of their own: health on every listener; the caller's groups and served media on
the main and secure ones only (the pci listener opens nothing to a user's API token)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from backend.http.deps import ActorDep, EngineDep
from backend.http.responses import entity, many, one

router = APIRouter(prefix="/api/v1", tags=["system"])
api_router = APIRouter(prefix="/api/v1", tags=["system"])


@router.get("/health")
async def health(request: Request):
    """No authentication: for load balancers and `frontdesk serve` checks."""
    return one({"id": request.app.state.listener, "type": "health", "attributes": {"status": "ok"}})


@api_router.get("/groups")
async def list_groups(engine: EngineDep, actor: ActorDep):
    """The caller's groups: a property's `group_id` must be one of them."""
    return many([entity("group", g) for g in engine.identity.groups(actor)])


@api_router.get("/media/{media_id}", response_class=Response)
async def media(media_id: str, engine: EngineDep):
    """A stored image (a property logo). Public, like a CDN: its address is unguessable."""
    content_type, data = engine.media.get(media_id)
    return Response(data, media_type=content_type, headers={"Cache-Control": "public, max-age=86400",
                                                            "X-Content-Type-Options": "nosniff"})
