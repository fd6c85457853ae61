"""Bookings, their revisions and the revision feed; bookings the property takes itself (the service's CRS create)
and its reports about a booking to the channel (no-show, invalid card).

Card data leaves in clear only on the secure listener, to the tokenisation service (see deps.reveal_for);
everyone else sees the masked guarantee.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from backend.bookings.models import BookingEnvelope
from backend.bookings.reports import NoShowEnvelope
from backend.bookings.store import STAYS
from backend.http.deps import (
    ActorDep,
    EngineDep,
    ListQueryDep,
    RevealEntityDep,
    RevealListDep,
    SecureDep,
    body_doc,
    envelope,
)
from backend.http.responses import FastJSON, entity, many, one, success
from backend.http.routes.params import list_params
from backend.http.serialise import booking_entity, revision_entity

router = APIRouter(prefix="/api/v1", tags=["bookings"])
Booking = Depends(envelope("booking"))
FILTERS = ("property_id", "status", "unique_id", "ota_reservation_code", "arrival_date", "departure_date", "inserted_at",
           "guest_name", "search")


async def no_body(request: Request) -> None:
    """The service documents these calls without a body: a client's `{}` is ignored, anything over the route's
    tiny limit (backend/http/limits.py) is a 413, as on every route. A route takes it after its credential, so
    that a caller without one is answered before any body is read."""
    await request.body()


NoBody = Depends(no_body)


@router.get("/bookings", openapi_extra=list_params(*FILTERS, bools=("is_acked", "is_overbooked", "is_unmapped"),
                                                   views={"stay": tuple(STAYS)}))
async def list_bookings(engine: EngineDep, actor: ActorDep, query: ListQueryDep, reveal: RevealListDep) -> FastJSON:
    """Bookings as of their latest revision, newest first. `filter[guest_name]` finds a guest's name (the customer's
    or a room guest's) containing the words, whatever their case or accents; `filter[search]` that or the booking's
    number; `filter[stay]` = `arriving_today`, `departing_today` or `in_house` (staying tonight), by each property's
    own today."""
    items, meta = engine.bookings.list(actor, query, reveal=reveal)
    return many([booking_entity(b) for b in items], meta)


@router.post("/bookings", openapi_extra=body_doc(BookingEnvelope))
def take_booking(engine: EngineDep, actor: ActorDep, secure: SecureDep, data: Any = Booking) -> FastJSON:
    """A booking the property takes itself, with `property_id`: new (201), modified or cancelled (200), numbered
    `OFL-<reservation_id>`, checked against availability and restrictions as push_booking is. Send card data to
    the secure listener: on the main one it is masked at once and can't be restored."""
    booking, created = engine.bookings.take(actor, data, secure=secure)
    return one(_short(booking), 201 if created else 200)


def _short(booking: dict[str, Any]) -> dict[str, Any]:
    return entity("booking", {"id": booking["id"], "status": booking["status"], "booking_id": booking["id"],
                              "unique_id": booking["unique_id"], "revision_id": booking["revision_id"]})


@router.put("/bookings/{booking_id}", openapi_extra=body_doc(BookingEnvelope))
def update_booking(booking_id: str, engine: EngineDep, actor: ActorDep, secure: SecureDep, data: Any = Booking) -> FastJSON:
    """The service's CRS update, on the property's own bookings and OTA ones: status `modified` (the new stay
    checked against availability and restrictions, as a create is) or `cancelled`. The body may be the booking's
    own answer, changed. Answers as the create does."""
    return one(_short(engine.bookings.update(actor, booking_id, data, secure=secure)))


@router.get("/bookings/{booking_id}")
async def get_booking(booking_id: str, engine: EngineDep, actor: ActorDep, reveal: RevealEntityDep) -> FastJSON:
    return one(booking_entity(engine.bookings.get(actor, booking_id, reveal=reveal)))


@router.post("/bookings/{booking_id}/no_show", openapi_extra=body_doc(NoShowEnvelope))
def report_no_show(booking_id: str, engine: EngineDep, actor: ActorDep,
                   data: Any = Depends(envelope("no_show_report"))) -> FastJSON:
    """Booking.com bookings, from 00:00 of the arrival date for 48 hours: `{"no_show_report": {"waived_fees"}}`."""
    engine.bookings.reports.no_show(actor, booking_id, data)
    return success()


@router.post("/bookings/{booking_id}/invalid_card")
def report_invalid_card(booking_id: str, engine: EngineDep, actor: ActorDep, _: None = NoBody) -> FastJSON:
    """Booking.com bookings with a card, until the end of the arrival date. No body."""
    engine.bookings.reports.invalid_card(actor, booking_id)
    return success()


@router.post("/bookings/{booking_id}/cancel_due_invalid_card")
def cancel_due_invalid_card(booking_id: str, engine: EngineDep, actor: ActorDep, _: None = NoBody) -> FastJSON:
    """After an invalid-card report and the guest's time to send another card: cancels the booking. No body."""
    engine.bookings.reports.cancel_due_invalid_card(actor, booking_id)
    return success()


@router.get("/booking_revisions", openapi_extra=list_params("booking_id", "property_id", "status", "inserted_at"))
async def list_revisions(engine: EngineDep, actor: ActorDep, query: ListQueryDep, reveal: RevealListDep) -> FastJSON:
    """Every revision, newest first."""
    items, meta = engine.bookings.revisions(actor, query, reveal=reveal)
    return many([revision_entity(r) for r in items], meta)


@router.get("/booking_revisions/feed", openapi_extra=list_params("property_id"))
async def revision_feed(engine: EngineDep, actor: ActorDep, query: ListQueryDep, reveal: RevealListDep) -> FastJSON:
    """Revisions not yet acknowledged, oldest first: take them in order and ack each one."""
    items, meta = engine.bookings.revisions(actor, query, feed=True, reveal=reveal)
    return many([revision_entity(r) for r in items], meta)


@router.get("/booking_revisions/{revision_id}")
async def get_revision(revision_id: str, engine: EngineDep, actor: ActorDep, reveal: RevealEntityDep) -> FastJSON:
    return one(revision_entity(engine.bookings.revision(actor, revision_id, reveal=reveal)))


@router.post("/booking_revisions/{revision_id}/ack")
def ack_revision(revision_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """Takes the revision out of the feed. Acknowledging twice is harmless."""
    engine.bookings.ack(actor, revision_id)
    return success()
