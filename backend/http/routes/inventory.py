"""Room types, rate plans, hotel policies, and availability and restrictions per night."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import hotel_policy_entity, rate_plan_entity, room_type_entity
from backend.inventory.ari import READS, AriEnvelope
from backend.inventory.models import HotelPolicyEnvelope, RatePlanEnvelope, RoomTypeEnvelope

router = APIRouter(prefix="/api/v1", tags=["inventory"])
RoomType = Depends(envelope("room_type"))
RatePlan = Depends(envelope("rate_plan"))
HotelPolicy = Depends(envelope("hotel_policy"))
Values = Depends(envelope("values"))


@router.get("/room_types", openapi_extra=list_params("id", "property_id", "title"))
async def list_room_types(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.inventory.room_types.list(actor, query)
    return many([room_type_entity(r) for r in items], meta)


@router.post("/room_types", status_code=201, openapi_extra=body_doc(RoomTypeEnvelope))
def create_room_type(engine: EngineDep, actor: ActorDep, data: Any = RoomType) -> FastJSON:
    return one(room_type_entity(engine.inventory.room_types.create(actor, data)), 201)


@router.get("/room_types/options", openapi_extra=list_params("id", "property_id", "title"))
async def room_type_options(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Every room type of the account, short (`{id, title, property_id, occupancy}`), without pagination."""
    return many([entity("room_type", r) for r in engine.inventory.room_types.options(actor, query)])


@router.get("/room_types/{room_type_id}")
async def get_room_type(room_type_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(room_type_entity(engine.inventory.room_types.get(actor, room_type_id)))


@router.put("/room_types/{room_type_id}", openapi_extra=body_doc(RoomTypeEnvelope))
def update_room_type(room_type_id: str, engine: EngineDep, actor: ActorDep, data: Any = RoomType) -> FastJSON:
    """Same fields as create; only the fields sent are changed."""
    return one(room_type_entity(engine.inventory.room_types.update(actor, room_type_id, data)))


@router.delete("/room_types/{room_type_id}")
def delete_room_type(room_type_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Deletes its rate plans and nights too."""
    engine.inventory.room_types.delete(actor, room_type_id)
    return success()


@router.get("/rate_plans", openapi_extra=list_params("id", "property_id", "room_type_id", "title",
                                                    "parent_rate_plan_id"))
async def list_rate_plans(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.inventory.rate_plans.list(actor, query)
    return many([rate_plan_entity(r) for r in items], meta)


@router.post("/rate_plans", status_code=201, openapi_extra=body_doc(RatePlanEnvelope))
def create_rate_plan(engine: EngineDep, actor: ActorDep, data: Any = RatePlan) -> FastJSON:
    return one(rate_plan_entity(engine.inventory.rate_plans.create(actor, data)), 201)


@router.get("/rate_plans/options", openapi_extra=list_params("id", "property_id", "room_type_id", "title"))
async def rate_plan_options(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Every rate plan of the account, short (`{id, title, property_id, room_type_id, parent_rate_plan_id,
    currency, sell_mode, occupancy, rate_category_id}`, the last two its primary option's), without pagination."""
    return many([entity("rate_plan", r) for r in engine.inventory.rate_plans.options(actor, query)])


@router.get("/rate_plans/{rate_plan_id}")
async def get_rate_plan(rate_plan_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(rate_plan_entity(engine.inventory.rate_plans.get(actor, rate_plan_id)))


@router.put("/rate_plans/{rate_plan_id}", openapi_extra=body_doc(RatePlanEnvelope))
def update_rate_plan(rate_plan_id: str, engine: EngineDep, actor: ActorDep, data: Any = RatePlan) -> FastJSON:
    """Same fields as create; only the fields sent are changed."""
    return one(rate_plan_entity(engine.inventory.rate_plans.update(actor, rate_plan_id, data)))


@router.delete("/rate_plans/{rate_plan_id}")
def delete_rate_plan(rate_plan_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Deletes its rates and restrictions too; refused (422) while derived rate plans follow it."""
    engine.inventory.rate_plans.delete(actor, rate_plan_id)
    return success()


@router.get("/properties/{property_id}/hotel_policy")
async def get_hotel_policy(property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The property's policy, or `data: null` while it has none."""
    policy = engine.inventory.hotel_policies.get(actor, property_id)
    return FastJSON({"data": None if policy is None else hotel_policy_entity(policy)})


@router.put("/properties/{property_id}/hotel_policy", openapi_extra=body_doc(HotelPolicyEnvelope))
def put_hotel_policy(property_id: str, engine: EngineDep, actor: ActorDep, data: Any = HotelPolicy) -> FastJSON:
    """Creates or changes the policy; only the fields sent are changed."""
    return one(hotel_policy_entity(engine.inventory.hotel_policies.put(actor, property_id, data)))


@router.get("/hotel_policies", openapi_extra=list_params("id", "property_id"))
async def list_hotel_policies(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """The hotel policies of the account's properties, as the service lists them
    (https://docs.channex.io/api-v.1-documentation/hotel-policy-collection)."""
    items, meta = engine.inventory.hotel_policies.list(actor, query)
    return many([hotel_policy_entity(p) for p in items], meta)


@router.post("/hotel_policies", status_code=201, openapi_extra=body_doc(HotelPolicyEnvelope))
def create_hotel_policy(engine: EngineDep, actor: ActorDep, data: Any = HotelPolicy) -> FastJSON:
    """The policy of `property_id`, which has none yet (one policy per property)."""
    return one(hotel_policy_entity(engine.inventory.hotel_policies.create(actor, data)), 201)


@router.get("/hotel_policies/{policy_id}")
async def get_hotel_policy_by_id(policy_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(hotel_policy_entity(engine.inventory.hotel_policies.by_id(actor, policy_id)))


@router.put("/hotel_policies/{policy_id}", openapi_extra=body_doc(HotelPolicyEnvelope))
def update_hotel_policy(policy_id: str, engine: EngineDep, actor: ActorDep, data: Any = HotelPolicy) -> FastJSON:
    """Only the fields sent change; its property can't."""
    return one(hotel_policy_entity(engine.inventory.hotel_policies.update(actor, policy_id, data)))


@router.delete("/hotel_policies/{policy_id}")
def delete_hotel_policy(policy_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.inventory.hotel_policies.delete(actor, policy_id)
    return success()


ARI_READ = {"parameters": [
    {"name": "filter[property_id]", "in": "query", "required": True, "schema": {"type": "string"}},
    {"name": "filter[date][gte]", "in": "query", "required": True, "schema": {"type": "string", "format": "date"}},
    {"name": "filter[date][lte]", "in": "query", "required": True, "schema": {"type": "string", "format": "date"}},
]}


@router.get("/availability", openapi_extra=ARI_READ)
async def read_availability(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """`{"data": {"<room_type_id>": {"YYYY-MM-DD": availability}}}`, every night of the range."""
    return FastJSON({"data": engine.inventory.ari.availability(actor, query)})


@router.get("/restrictions", openapi_extra={"parameters": [
    *ARI_READ["parameters"], {"name": "filter[restrictions]", "in": "query", "schema": {"type": "string"},
                              "description": f"some of {', '.join(READS)}, comma-separated; all without it"}]})
async def read_restrictions(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """`{"data": {"<rate_plan_id>": {"YYYY-MM-DD": {"rate", ...}}}}`: each night's own values, else the plan's
    weekday defaults, a derived plan's computed from its parent's; `filter[restrictions]=rate,stop_sell` picks."""
    return FastJSON({"data": engine.inventory.ari.restrictions(actor, query)})


@router.post("/availability", openapi_extra=body_doc(AriEnvelope))
def write_availability(engine: EngineDep, actor: ActorDep, values: Any = Values) -> FastJSON:
    return _written(engine.inventory.ari.set_availability(actor, values))


@router.post("/restrictions", openapi_extra=body_doc(AriEnvelope))
def write_restrictions(engine: EngineDep, actor: ActorDep, values: Any = Values) -> FastJSON:
    """`rate` is a decimal string ("120.00") or a whole number of minor units (12000). A derived plan's values
    that follow its parent are not written: `meta.warnings` names each. `data` holds a task per property written
    to, `{"id", "type": "task"}`, stored with the values: keep the IDs as the write's audit trail."""
    edit = engine.inventory.ari.set_restrictions(actor, values)
    return _written(edit.warnings, [{"id": task, "type": "task"} for task in edit.tasks])


def _written(warnings: list[dict[str, Any]], tasks: list[dict[str, str]] | None = None) -> FastJSON:
    """The service's answers: restrictions with their tasks in `data`, availability with `meta` alone."""
    meta = {"message": "Success", "warnings": warnings}
    return FastJSON({"meta": meta} if tasks is None else {"data": tasks, "meta": meta})


