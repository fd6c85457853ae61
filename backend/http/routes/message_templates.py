"""Saved replies: message templates for one property or every property of a group, with placeholders that a
thread fills in (`GET /message_threads/:id/message_templates`, in routes/threads.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from backend.chat.templates import TemplateEnvelope
from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import template_entity

router = APIRouter(prefix="/api/v1/message_templates", tags=["message templates"])
Template = Depends(envelope("message_template"))


@router.get("", openapi_extra=list_params("id", "property_id", "group_id", "title"))
async def list_templates(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """Your saved replies, by title: your groups' and their properties'."""
    items, meta = engine.message_templates.list(actor, query)
    return many([template_entity(t) for t in items], meta)


@router.post("", status_code=201, openapi_extra=body_doc(TemplateEnvelope))
def create_template(engine: EngineDep, actor: ActorDep, data: Any = Template) -> FastJSON:
    """`title`, `message` (placeholders such as `{guest_name}`; an unknown one is a 422), and `property_id` for one
    property or `group_id` for every property of a group (default: your default group)."""
    return one(template_entity(engine.message_templates.create(actor, data)), 201)


@router.get("/{template_id}")
async def get_template(template_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(template_entity(engine.message_templates.get(actor, template_id)))


@router.put("/{template_id}", openapi_extra=body_doc(TemplateEnvelope))
def update_template(template_id: str, engine: EngineDep, actor: ActorDep, data: Any = Template) -> FastJSON:
    """Only the fields sent change."""
    return one(template_entity(engine.message_templates.update(actor, template_id, data)))


@router.delete("/{template_id}")
def delete_template(template_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.message_templates.delete(actor, template_id)
    return success()
