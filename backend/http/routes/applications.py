from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import installation_entity
from backend.properties.applications import InstallationEnvelope

router = APIRouter(prefix="/api/v1/applications", tags=["applications"])
Installation = Depends(envelope("application_installation"))


@router.get("")
async def list_applications(engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Applications that can be installed on a property (`chat` switches on guest chat)."""
    return many([{"id": a["code"], "type": "application", "attributes": a} for a in engine.applications.available()])


@router.post("/install", status_code=201, openapi_extra=body_doc(InstallationEnvelope))
def install(engine: EngineDep, actor: ActorDep, data: Any = Installation) -> FastJSON:
    return one(installation_entity(engine.applications.install(actor, data)), 201)


@router.get("/installed", openapi_extra=list_params("property_id", "application_code"))
async def installed(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.applications.installed(actor, query)
    return many([installation_entity(i) for i in items], meta)


@router.delete("/installed/{installation_id}")
def uninstall(installation_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.applications.uninstall(actor, installation_id)
    return success()
