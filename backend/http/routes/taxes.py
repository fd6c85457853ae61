"""Taxes and tax sets (reference §10): the service's collections, and the update path its page prints
(`PUT /api/v1/tax_set/:id`, the body under `tax`) as an alias."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.inventory.taxes import TaxEnvelope, TaxSetEnvelope

router = APIRouter(prefix="/api/v1", tags=["taxes"])
Tax = Depends(envelope("tax"))
TaxSet = Depends(envelope("tax_set"))
TaxSetAsPrinted = Depends(envelope("tax_set", "tax"))  # the page's update example wraps a set in `tax`


def _property(item: dict[str, Any]) -> dict[str, Any]:
    return {"property": {"data": {"id": item["property_id"], "type": "property"}}}


def tax_entity(t: dict[str, Any]) -> dict[str, Any]:
    return entity("tax", t, _property(t))


def tax_set_entity(s: dict[str, Any]) -> dict[str, Any]:
    return entity("tax_set", s, _property(s))


@router.get("/taxes", openapi_extra=list_params("id", "property_id", "title", "logic", "type"))
async def list_taxes(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.inventory.taxes.list(actor, query)
    return many([tax_entity(t) for t in items], meta)


@router.post("/taxes", status_code=201, openapi_extra=body_doc(TaxEnvelope))
def create_tax(engine: EngineDep, actor: ActorDep, data: Any = Tax) -> FastJSON:
    return one(tax_entity(engine.inventory.taxes.create(actor, data)), 201)


@router.get("/taxes/{tax_id}")
async def get_tax(tax_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(tax_entity(engine.inventory.taxes.get(actor, tax_id)))


@router.put("/taxes/{tax_id}", openapi_extra=body_doc(TaxEnvelope))
def update_tax(tax_id: str, engine: EngineDep, actor: ActorDep, data: Any = Tax) -> FastJSON:
    """Only the fields sent change; the sets holding it price with it at once."""
    return one(tax_entity(engine.inventory.taxes.update(actor, tax_id, data)))


@router.delete("/taxes/{tax_id}")
def delete_tax(tax_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Refused (422 naming them) while tax sets hold it."""
    engine.inventory.taxes.delete(actor, tax_id)
    return success()


@router.get("/tax_sets", openapi_extra=list_params("id", "property_id", "title", "currency"))
async def list_tax_sets(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.inventory.tax_sets.list(actor, query)
    return many([tax_set_entity(s) for s in items], meta)


@router.post("/tax_sets", status_code=201, openapi_extra=body_doc(TaxSetEnvelope))
def create_tax_set(engine: EngineDep, actor: ActorDep, data: Any = TaxSet) -> FastJSON:
    """The property's first set becomes its default (`is_default`), which new rate plans are priced with."""
    return one(tax_set_entity(engine.inventory.tax_sets.create(actor, data)), 201)


@router.get("/tax_sets/{tax_set_id}")
async def get_tax_set(tax_set_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(tax_set_entity(engine.inventory.tax_sets.get(actor, tax_set_id)))


@router.put("/tax_sets/{tax_set_id}", openapi_extra=body_doc(TaxSetEnvelope))
def update_tax_set(tax_set_id: str, engine: EngineDep, actor: ActorDep, data: Any = TaxSet) -> FastJSON:
    """Only the fields sent change; `taxes` sent is the whole list, `associated_rate_plan_ids` sent too."""
    return one(tax_set_entity(engine.inventory.tax_sets.update(actor, tax_set_id, data)))


@router.put("/tax_set/{tax_set_id}", openapi_extra=body_doc(TaxSetEnvelope), include_in_schema=False)
def update_tax_set_as_printed(tax_set_id: str, engine: EngineDep, actor: ActorDep, data: Any = TaxSetAsPrinted) -> FastJSON:
    """The path and body key the service's page prints for the update (`PUT /tax_set/:id`, `{"tax": {...}}`): the
    same update."""
    return update_tax_set(tax_set_id, engine, actor, data)


@router.delete("/tax_sets/{tax_set_id}")
def delete_tax_set(tax_set_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Refused (422 naming them) while rate plans are priced with it."""
    engine.inventory.tax_sets.delete(actor, tax_set_id)
    return success()
