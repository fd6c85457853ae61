"""The service's availability rules collection (reference §9)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.inventory.availability_rules import RuleEnvelope

router = APIRouter(prefix="/api/v1/channel_availability_rules", tags=["availability rules"])
Rule = Depends(envelope("channel_availability_rule"))


def rule_entity(rule: dict[str, Any]) -> dict[str, Any]:
    attributes = {k: v for k, v in rule.items() if k != "property_id"}
    return entity("channel_availability_rule", attributes,
                  {"property": {"data": {"id": rule["property_id"], "type": "property"}}})


@router.get("", openapi_extra=list_params("id", "property_id", "type"))
async def list_rules(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Newest first."""
    items, meta = engine.availability_rules.list(actor, query)
    return many([rule_entity(r) for r in items], meta)


@router.post("", status_code=201, openapi_extra=body_doc(RuleEnvelope))
def create_rule(engine: EngineDep, actor: ActorDep, data: Any = Rule) -> FastJSON:
    """The channels it names are sent the nights it covers again, as it leaves them."""
    return one(rule_entity(engine.availability_rules.create(actor, data)), 201)


@router.get("/{rule_id}")
async def get_rule(rule_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(rule_entity(engine.availability_rules.get(actor, rule_id)))


@router.put("/{rule_id}", openapi_extra=body_doc(RuleEnvelope))
def update_rule(rule_id: str, engine: EngineDep, actor: ActorDep, data: Any = Rule) -> FastJSON:
    """Only the fields sent change."""
    return one(rule_entity(engine.availability_rules.update(actor, rule_id, data)))


@router.delete("/{rule_id}")
def delete_rule(rule_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.availability_rules.delete(actor, rule_id)
    return success()
