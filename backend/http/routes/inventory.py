"""Room types, rate plans, hotel policies, and availability and restrictions per night."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.inventory.ari import AriEnvelope
from backend.inventory.models import (
    HotelPolicyEnvelope,
    RatePlanEnvelope,
    RoomTypeEnvelope,
)

router = APIRouter(prefix="/api/v1", tags=["inventory"])
RoomType = Depends(envelope("room_type"))
RatePlan = Depends(envelope("rate_plan"))
HotelPolicy = Depends(envelope("hotel_policy"))
Values = Depends(envelope("values"))


@router.get("/room_types", openapi_extra=list_params("id", "property_id", "title"))
async def list_room_types(engine: EngineDep, actor: ActorDep, query: ListQueryDep):
    items, meta = engine.inventory.room_types.list(actor, query)
    return many([entity("room_type", r) for r in items], meta)


@router.post("/room_types", status_code=201, openapi_extra=body_doc(RoomTypeEnvelope))
def create_room_type(engine: EngineDep, actor: ActorDep, data: Any = RoomType):
    return one(entity("room_type", engine.inventory.room_types.create(actor, data)), 201)


@router.get("/room_types/{room_type_id}")
async def get_room_type(room_type_id: str, engine: EngineDep, actor: ActorDep):
    return one(entity("room_type", engine.inventory.room_types.get(actor, room_type_id)))


@router.put("/room_types/{room_type_id}", openapi_extra=body_doc(RoomTypeEnvelope))
def update_room_type(room_type_id: str, engine: EngineDep, actor: ActorDep, data: Any = RoomType):
    """Same fields as create; only the fields sent are changed."""
    return one(entity("room_type", engine.inventory.room_types.update(actor, room_type_id, data)))


@router.delete("/room_types/{room_type_id}")
def delete_room_type(room_type_id: str, engine: EngineDep, actor: ActorDep):
    """Deletes its rate plans and nights too."""
    engine.inventory.room_types.delete(actor, room_type_id)
    return success()


@router.get("/rate_plans", openapi_extra=list_params("id", "property_id", "room_type_id", "title"))
async def list_rate_plans(engine: EngineDep, actor: ActorDep, query: ListQueryDep):
    items, meta = engine.inventory.rate_plans.list(actor, query)
    return many([entity("rate_plan", r) for r in items], meta)


@router.post("/rate_plans", status_code=201, openapi_extra=body_doc(RatePlanEnvelope))
def create_rate_plan(engine: EngineDep, actor: ActorDep, data: Any = RatePlan):
    return one(entity("rate_plan", engine.inventory.rate_plans.create(actor, data)), 201)


@router.get("/rate_plans/{rate_plan_id}")
async def get_rate_plan(rate_plan_id: str, engine: EngineDep, actor: ActorDep):
    return one(entity("rate_plan", engine.inventory.rate_plans.get(actor, rate_plan_id)))


@router.put("/rate_plans/{rate_plan_id}", openapi_extra=body_doc(RatePlanEnvelope))
def update_rate_plan(rate_plan_id: str, engine: EngineDep, actor: ActorDep, data: Any = RatePlan):
    return one(entity("rate_plan", engine.inventory.rate_plans.update(actor, rate_plan_id, data)))


@router.delete("/rate_plans/{rate_plan_id}")
def delete_rate_plan(rate_plan_id: str, engine: EngineDep, actor: ActorDep):
    engine.inventory.rate_plans.delete(actor, rate_plan_id)
    return success()


@router.get("/properties/{property_id}/hotel_policy")
async def get_hotel_policy(property_id: str, engine: EngineDep, actor: ActorDep):
    """The property's policy, or `data: null` while it has none."""
    policy = engine.inventory.hotel_policies.get(actor, property_id)
    return FastJSON({"data": None if policy is None else {"id": property_id, "type": "hotel_policy",
                                                          "attributes": policy}})


@router.put("/properties/{property_id}/hotel_policy", openapi_extra=body_doc(HotelPolicyEnvelope))
def put_hotel_policy(property_id: str, engine: EngineDep, actor: ActorDep, data: Any = HotelPolicy):
    """Creates or changes the policy; only the fields sent are changed."""
    policy = engine.inventory.hotel_policies.put(actor, property_id, data)
    return one({"id": property_id, "type": "hotel_policy", "attributes": policy})


ARI_READ = {"parameters": [
    {"name": "filter[property_id]", "in": "query", "required": True, "schema": {"type": "string"}},
    {"name": "filter[date][gte]", "in": "query", "required": True, "schema": {"type": "string", "format": "date"}},
    {"name": "filter[date][lte]", "in": "query", "required": True, "schema": {"type": "string", "format": "date"}},
]}


@router.get("/availability", openapi_extra=ARI_READ)
async def read_availability(engine: EngineDep, actor: ActorDep, query: ListQueryDep):
    """`{"data": {"<room_type_id>": {"YYYY-MM-DD": availability}}}`, every night of the range."""
    return FastJSON({"data": engine.inventory.ari.availability(actor, query)})


@router.get("/restrictions", openapi_extra={"parameters": [
    *ARI_READ["parameters"], {"name": "filter[restrictions]", "in": "query", "schema": {"type": "string"}}]})
async def read_restrictions(engine: EngineDep, actor: ActorDep, query: ListQueryDep):
    """`{"data": {"<rate_plan_id>": {"YYYY-MM-DD": {"rate", ...}}}}`; `filter[restrictions]=rate,stop_sell` picks fields."""
    return FastJSON({"data": engine.inventory.ari.restrictions(actor, query)})


@router.post("/availability", openapi_extra=body_doc(AriEnvelope))
def write_availability(engine: EngineDep, actor: ActorDep, values: Any = Values):
    return _written(engine.inventory.ari.set_availability(actor, values))


@router.post("/restrictions", openapi_extra=body_doc(AriEnvelope))
def write_restrictions(engine: EngineDep, actor: ActorDep, values: Any = Values):
    """`rate` is a decimal string ("120.00") or a whole number of minor units (12000)."""
    return _written(engine.inventory.ari.set_restrictions(actor, values))


def _written(warnings: list[dict[str, Any]]) -> FastJSON:
    return FastJSON({"meta": {"message": "Success", "warnings": warnings}})


