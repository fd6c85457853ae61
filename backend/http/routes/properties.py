from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import facility_entity, property_entity
from backend.properties.models import PropertyEnvelope

router = APIRouter(prefix="/api/v1", tags=["properties"])
Property = Depends(envelope("property"))


@router.get("/properties", openapi_extra=list_params("id", "title", bools=("is_active",)))
async def list_properties(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Properties of the account, 10 a page by default, with `meta` {page, limit, total}."""
    items, meta = engine.properties.list(actor, query)
    return many([property_entity(p) for p in items], meta)


@router.get("/properties/options")
async def property_options(engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Every property of the account, without details and without pagination."""
    return many([entity("properties", p) for p in engine.properties.options(actor)])  # plural, as the service


@router.post("/properties", status_code=201, openapi_extra=body_doc(PropertyEnvelope))
def create_property(engine: EngineDep, actor: ActorDep, data: Any = Property) -> FastJSON:
    return one(property_entity(engine.properties.create(actor, data)), 201)


@router.get("/properties/{property_id}")
async def get_property(property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(property_entity(engine.properties.get(actor, property_id)))


@router.put("/properties/{property_id}", openapi_extra=body_doc(PropertyEnvelope))
def update_property(property_id: str, engine: EngineDep, actor: ActorDep, data: Any = Property) -> FastJSON:
    """Same fields as create; only the fields sent are changed."""
    return one(property_entity(engine.properties.update(actor, property_id, data)))


@router.delete("/properties/{property_id}")
def delete_property(property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.properties.delete(actor, property_id)
    return success()


@router.get("/property_facilities")
async def list_facilities(engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The facility catalogue: the IDs that a property's `facilities` may hold."""
    return many([facility_entity(f) for f in engine.facilities.list()])


@router.get("/facilities/options")
@router.get("/property_facilities/options")
async def facility_options(engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The whole catalogue, without pagination, as the service's facility options
    (https://docs.channex.io/api-v.1-documentation/facilities-collection)."""
    return many([facility_entity(f) for f in engine.facilities.list()])
