"""Messages that send themselves: rules that send a saved reply on a booking event (backend/message_rules/)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import rule_entity
from backend.message_rules.service import MessageRuleEnvelope, MessageRulePreviewEnvelope

router = APIRouter(prefix="/api/v1/message_rules", tags=["message rules"])
Rule = Depends(envelope("message_rule"))
Preview = Depends(envelope("preview"))


@router.get("", openapi_extra=list_params("id", "property_id", "group_id", "title", "trigger", bools=("is_paused",)))
async def list_rules(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Your message rules, by title: your groups' and their properties'."""
    items, meta = engine.message_rules.list(actor, query)
    return many([rule_entity(r) for r in items], meta)


@router.post("", status_code=201, openapi_extra=body_doc(MessageRuleEnvelope))
def create_rule(engine: EngineDep, actor: ActorDep, data: Any = Rule) -> FastJSON:
    """`title`, `trigger` (booking_confirmed, before_arrival, arrival_day, after_departure), `days` (0-60, before
    arrival or after departure), `send_at` (HH:MM at the property), `message_template_id` (the saved reply it
    sends), `is_paused`, and `property_id` or `group_id` (default: your default group)."""
    return one(rule_entity(engine.message_rules.create(actor, data)), 201)


@router.get("/{rule_id}")
async def get_rule(rule_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(rule_entity(engine.message_rules.get(actor, rule_id)))


@router.put("/{rule_id}", openapi_extra=body_doc(MessageRuleEnvelope))
def update_rule(rule_id: str, engine: EngineDep, actor: ActorDep, data: Any = Rule) -> FastJSON:
    """Only the fields sent change; `is_paused: false` resumes a paused rule from now on."""
    return one(rule_entity(engine.message_rules.update(actor, rule_id, data)))


@router.delete("/{rule_id}")
def delete_rule(rule_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.message_rules.delete(actor, rule_id)
    return success()


@router.post("/{rule_id}/preview", openapi_extra=body_doc(MessageRulePreviewEnvelope))
def preview_rule(rule_id: str, engine: EngineDep, actor: ActorDep, data: Any = Preview) -> FastJSON:
    """What the rule sends to one of its bookings (`booking_id`): the filled `message`, `at` (UTC), `would_send`
    and, when not, why (`skipped`)."""
    return one(entity("message_rule_preview", engine.message_rules.preview(actor, rule_id, data)))
