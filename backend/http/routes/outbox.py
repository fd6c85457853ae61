"""The outbox's status for operators: how far behind deliveries are for the webhooks and channels the caller manages."""

from __future__ import annotations

from fastapi import APIRouter

from backend.http.deps import ActorDep, EngineDep
from backend.http.responses import FastJSON, one
from backend.outbox.answer import OutboxStatusEnvelope

router = APIRouter(prefix="/api/v1/outbox", tags=["outbox"])


@router.get("/status", response_model=OutboxStatusEnvelope)
def outbox_status(engine: EngineDep, actor: ActorDep) -> FastJSON:
    """For each webhook of the caller's properties and each channel of its groups that takes ARI: the changes waiting
    for it, the oldest one's time (`oldest_waiting_at`, UTC) and age in seconds (`oldest_waiting_age`), and whether
    it is failing; and the oldest change waiting for any active one, and for which (null when all are up to date);
    and each read replica (`--read-db`) of the process that answers: in use, or why not (down, lagging past the bound,
    refused), its lag and since when, by its address without credentials. 403 for a caller who manages no webhook and
    no channel."""
    return one({"id": "outbox", "type": "outbox_status", "attributes": engine.outbox_status(actor)})
