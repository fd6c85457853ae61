"""Reviews and scores (reference §8) for staff and integrators, and the channels' adapters' side of them: reviews in,
replies and the host's reviews of guests out through a feed, each acknowledged or reported refused."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from backend.http.deps import ActorDep, EngineDep, ListQueryDep, body_doc, envelope
from backend.http.responses import FastJSON, many, one, success
from backend.http.routes.inbound import Channel
from backend.http.routes.params import list_params
from backend.http.serialise import review_entity, review_feed_entity, score_entity
from backend.reviews.models import DeliveryFailureEnvelope, GuestReviewEnvelope, InboundReviewEnvelope, ReplyEnvelope

router = APIRouter(prefix="/api/v1", tags=["reviews"])
inbound_router = APIRouter(prefix="/api/v1/inbound/{channel_id}/reviews", tags=["inbound"])
LIST = list_params("property_id", "channel_id", "ota", "booking_id", bools=("is_replied", "is_hidden"))
LIST["parameters"] += [{"name": f"filter[overall_score][{op}]", "in": "query", "schema": {"type": "number"}}
                       for op in ("gte", "lte")]


@router.get("/reviews", openapi_extra=LIST)
async def list_reviews(engine: EngineDep, actor: ActorDep, query: ListQueryDep) -> FastJSON:
    """The reviews of your properties, newest first (`order[received_at|overall_score|inserted_at]=asc|desc`)."""
    items, meta = engine.reviews.list(actor, query)
    return many([review_entity(r) for r in items], meta)


@router.get("/reviews/{review_id}")
async def get_review(review_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    return one(review_entity(engine.reviews.get(actor, review_id), titled=True))


@router.post("/reviews/{review_id}/reply", openapi_extra=body_doc(ReplyEnvelope))
def reply(review_id: str, engine: EngineDep, actor: ActorDep, data: Any = Depends(envelope("reply"))) -> FastJSON:
    """`{"reply": {"reply": TEXT}}`: the one answer, sent to the channel (`reply_state` pending, then delivered).
    422 when the review is hidden, expired or answered already."""
    return one(review_entity(engine.reviews.reply(actor, review_id, data), titled=True))


@router.post("/reviews/{review_id}/guest_review", openapi_extra=body_doc(GuestReviewEnvelope))
def guest_review(review_id: str, engine: EngineDep, actor: ActorDep, data: Any = Depends(envelope("review"))) -> FastJSON:
    """Airbnb only: the host's review of the guest, sent to Airbnb once."""
    return one(review_entity(engine.reviews.guest_review(actor, review_id, data), titled=True))


@router.get("/scores/{property_id}")
async def get_score(property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """The property's scores out of 10: overall and per category, with how many reviews give each."""
    return one(score_entity(engine.reviews.score(actor, property_id)))


@router.get("/scores/{property_id}/detailed")
async def get_detailed_score(property_id: str, engine: EngineDep, actor: ActorDep) -> FastJSON:
    """As the score, with one per channel in `relationships.ota_scores`."""
    return one(score_entity(engine.reviews.score(actor, property_id, detailed=True)))


@inbound_router.post("", openapi_extra=body_doc(InboundReviewEnvelope))
def inbound_review(engine: EngineDep, channel: Any = Channel, data: Any = Depends(envelope("review"))) -> FastJSON:
    """A guest's review as the channel shows it now: 201 when new; sent again under its `ota_review_id`, 200, and
    the review changed if the channel changed it."""
    review, created = engine.reviews.receive(channel, data)
    return one(review_entity(review), 201 if created else 200)


@inbound_router.get("/outbox")
async def review_outbox(engine: EngineDep, query: ListQueryDep, channel: Any = Channel) -> FastJSON:
    """Replies (`type: "review_reply"`) and host reviews of guests (`type: "guest_review"`) waiting for the
    channel, oldest first; ack each once the channel has it, or report it failed."""
    items, meta = engine.reviews.outbox(channel, query)
    return many([review_feed_entity(i) for i in items], meta)


@inbound_router.post("/{review_id}/{kind}/ack")
def ack_review_item(review_id: str, kind: str, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    """`kind`: reply or guest_review."""
    engine.reviews.delivered(channel, review_id, kind)
    return success()


async def _failure(request: Request) -> Any:
    """`{"failure": {"error": TEXT}}`, or no body at all."""
    raw = await request.body()
    return (await envelope("failure")(request)) if raw.strip() else None


@inbound_router.post("/{review_id}/{kind}/fail", openapi_extra=body_doc(DeliveryFailureEnvelope))
def fail_review_item(review_id: str, kind: str, engine: EngineDep, channel: Any = Channel,
                     data: Any = Depends(_failure)) -> FastJSON:
    """The channel refused it: shown as failed (a refused reply may be written again). `kind`: reply or
    guest_review; the body, `{"failure": {"error"}}`, may be left out."""
    engine.reviews.failed(channel, review_id, kind, data)
    return success()
