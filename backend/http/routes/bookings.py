"""Bookings, their revisions and the revision feed.

Card data leaves in clear only on the secure listener, to the tokenisation service (see deps.reveal_for);
everyone else sees the masked guarantee.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends

from backend.http.deps import (
    ActorDep,
    EngineDep,
    ListQueryDep,
    RevealEntityDep,
    RevealListDep,
    envelope,
)
from backend.http.responses import many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import booking_entity, revision_entity

router = APIRouter(prefix="/api/v1", tags=["bookings"])
Booking = Depends(envelope("booking"))
FILTERS = ("property_id", "status", "unique_id", "arrival_date", "departure_date", "inserted_at")


@router.get("/bookings", openapi_extra=list_params(*FILTERS))
async def list_bookings(engine: EngineDep, actor: ActorDep, query: ListQueryDep, reveal: RevealListDep):
    """Bookings as of their latest revision, newest first."""
    items, meta = engine.bookings.list(actor, query, reveal=reveal)
    return many([booking_entity(b) for b in items], meta)


@router.get("/bookings/{booking_id}")
async def get_booking(booking_id: str, engine: EngineDep, actor: ActorDep, reveal: RevealEntityDep):
    return one(booking_entity(engine.bookings.get(actor, booking_id, reveal=reveal)))


@router.get("/booking_revisions", openapi_extra=list_params("booking_id", "property_id", "status", "inserted_at"))
async def list_revisions(engine: EngineDep, actor: ActorDep, query: ListQueryDep, reveal: RevealListDep):
    """Every revision, newest first."""
    items, meta = engine.bookings.revisions(actor, query, reveal=reveal)
    return many([revision_entity(r) for r in items], meta)


@router.get("/booking_revisions/feed", openapi_extra=list_params("property_id"))
async def revision_feed(engine: EngineDep, actor: ActorDep, query: ListQueryDep, reveal: RevealListDep):
    """Revisions not yet acknowledged, oldest first: take them in order and ack each one."""
    items, meta = engine.bookings.revisions(actor, query, feed=True, reveal=reveal)
    return many([revision_entity(r) for r in items], meta)


@router.get("/booking_revisions/{revision_id}")
async def get_revision(revision_id: str, engine: EngineDep, actor: ActorDep, reveal: RevealEntityDep):
    return one(revision_entity(engine.bookings.revision(actor, revision_id, reveal=reveal)))


@router.post("/booking_revisions/{revision_id}/ack")
def ack_revision(revision_id: str, engine: EngineDep, actor: ActorDep):
    """Takes the revision out of the feed. Acknowledging twice is harmless."""
    engine.bookings.ack(actor, revision_id)
    return success()
