"""The service's Webhooks API, with what Frontdesk adds: the delivery log, redelivery, resume and test calls."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.webhooks.models import WebhookEnvelope

router = APIRouter(prefix="/api/v1/webhooks", tags=["webhooks"])
Webhook = Depends(envelope("webhook"))


def webhook_entity(w: dict[str, Any]) -> dict[str, Any]:
    return entity("webhook", w, {"property": {"data": {"id": w["property_id"], "type": "property"}}})


def test_entity(t: dict[str, Any]) -> dict[str, Any]:
    return entity("webhook_test", t)


@router.get("", openapi_extra=list_params("id", "property_id", bools=("is_active",)))
async def list_webhooks(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    items, meta = engine.webhooks.list(actor, query)
    return many([webhook_entity(w) for w in items], meta)


@router.post("", status_code=201, openapi_extra=body_doc(WebhookEnvelope))
def create_webhook(engine: EngineDep, actor: ActorDep, data: Any = Webhook) -> FastJSON:
    """The answer alone carries `secret`, which signs every delivery (Standard Webhooks): keep it."""
    return one(webhook_entity(engine.webhooks.create(actor, data)), 201)


# Test calls are awaited on the loop, never on the threads every sync route shares: they run on their own
# (backend/webhooks/trials.py).
@router.post("/test", openapi_extra=body_doc(WebhookEnvelope))
async def try_webhook(engine: EngineDep, actor: ActorDep, data: Any = Webhook) -> FastJSON:
    """Sends one `test` event to the webhook described, now, signed with a secret made for it (in the answer), and
    answers the receiver's status; a receiver that does not take it is a 422 on `callback_url` saying how it went
    (the status class of its answer, `timed out` or `could not connect`). A few a minute per user (429); a 503 when
    too many test calls are under way."""
    return one(test_entity(await asyncio.wrap_future(engine.webhooks.test(actor, data))))


@router.get("/{webhook_id}")
async def get_webhook(webhook_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(webhook_entity(engine.webhooks.get(actor, webhook_id)))


@router.put("/{webhook_id}", openapi_extra=body_doc(WebhookEnvelope))
def update_webhook(webhook_id: str, engine: EngineDep, actor: ActorDep, data: Any = Webhook) -> FastJSON:
    """Only the fields sent change; `is_active: true` resumes a failing webhook too."""
    return one(webhook_entity(engine.webhooks.update(actor, webhook_id, data)))


@router.delete("/{webhook_id}")
def delete_webhook(webhook_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    engine.webhooks.delete(actor, webhook_id)
    return success()


@router.post("/{webhook_id}/test")
async def try_saved_webhook(webhook_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """One `test` event to the webhook as it is, signed with its own secret; answered as `POST /webhooks/test`."""
    return one(test_entity(await asyncio.wrap_future(engine.webhooks.test_saved(actor, webhook_id))))


@router.post("/{webhook_id}/resume")
def resume_webhook(webhook_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """A failing webhook is tried again at once, from the event it stopped at."""
    return one(webhook_entity(engine.webhooks.resume(actor, webhook_id)))


@router.get("/{webhook_id}/deliveries", openapi_extra=list_params("status", "event"))
async def list_deliveries(webhook_id: str, engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """The delivery log, latest first: status (delivered, retrying, failed), attempts, the receiver's status, the
    last error and the next retry."""
    items, meta = engine.webhooks.deliveries(actor, webhook_id, query)
    return many([entity("webhook_delivery", d) for d in items], meta)


@router.post("/{webhook_id}/deliveries/{delivery_id}/redeliver")
def redeliver(webhook_id: str, delivery_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The delivery's event is sent again, once, by the deliverer (the log shows how it went)."""
    engine.webhooks.redeliver(actor, webhook_id, delivery_id)
    return success()
