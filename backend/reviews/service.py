"""Guests' reviews of their stays on Booking.com and Airbnb (reference §8): staff read and answer them, Airbnb hosts
review their guests, and the channels' adapters bring reviews in and take the answers out.

Access is the property's group's, as for threads; no application needs installing. A review is the channel's by
its own id: sent again, it is one review, changed (`updated_review`) or, unchanged, left alone. A review takes one
reply, as the channels allow: not while it is hidden (an Airbnb review, until the host reviews the guest), not once
it has expired. The reply and the host's review of the guest are written with the review, in one transaction, as
waiting for the channel's adapter (`reply_state` "pending"), which takes them from a feed and acknowledges each
("delivered") or reports the channel's refusal ("failed": a refused reply may be written again). Each write keeps
the property's scores (backend/reviews/scores.py) in the same transaction.
"""

from __future__ import annotations

import builtins
import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from pydantic import BaseModel
from pydantic_core import from_json

from backend.channels.store import is_connected
from backend.core.card_data import mask_text
from backend.core.errors import (
    BadRequest,
    Errors,
    NotFound,
    NotFoundAsSpelt,
    NotSupported,
    Unauthorized,
    ValidationFailed,
)
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.scopes import property_scope
from backend.core.validation import validate
from backend.identity.access import reaches
from backend.identity.models import Actor
from backend.outbox import record as outbox
from backend.reviews import store as sql
from backend.reviews.models import (
    CATEGORIES,
    OTAS,
    DeliveryFailure,
    GuestReviewInput,
    InboundReviewInput,
    ReplyInput,
    category,
    in_range,
    scaled,
)
from backend.reviews.scores import score, tally
from storage import Connection, Row, Store, new_id, timestamp

M = TypeVar("M", bound=BaseModel)
NEWEST_FIRST = {"order_by": "received_at", "order_direction": "desc"}
KINDS = sql.KINDS


class Reviews:
    def __init__(self, store: Store, events: EventBus, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.events = events
        self.clock = clock

    def now(self) -> str:
        return timestamp(self.clock())

    # --- staff ---------------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The reviews of the actor's properties, newest first (`order[field]` otherwise). Filters: property_id,
        channel_id, ota, is_replied, is_hidden, booking_id, overall_score (with gt/gte/lt/lte), received_at."""
        for f in query.filters:
            if f.field == "property_id" and f.op == "eq":
                for property_id in f.value.split(","):
                    self._property(actor, property_id, Unauthorized)
        order = "r.received_at DESC, r.id"
        rows, meta = sql.review_page(self.store, query, actor, order)
        shown = ({"order_by": query.order[0][0], "order_direction": query.order[0][1]} if query.order
                 else NEWEST_FIRST)
        now = self.now()
        return [_review(r, now) for r in rows], {**meta, **shown}

    def get(self, actor: Actor, review_id: str) -> dict[str, Any]:
        return _review(self._row(actor, review_id, NotFound), self.now())

    def properties(self, actor: Actor) -> builtins.list[dict[str, Any]]:
        """Every property the actor reaches (id and title), by title: the Reviews area's filter. Read here, not from
        the properties' service, whose modules (inventory, distribution) the area would otherwise load first."""
        return [dict(r) for r in sql.reached_properties(self.store, actor)]

    def unanswered(self, actor: Actor) -> int:
        """How many of the actor's reviews can be answered now (the Reviews tab's count): no reply yet (nor one
        waiting), not hidden, not expired, their channel still there."""
        return sql.answerable_count(self.store, actor, self.now())

    def score(self, actor: Actor, property_id: str, detailed: bool = False) -> dict[str, Any]:
        prop = self._property(actor, property_id, NotFoundAsSpelt)
        return score(prop, sql.property_counts(self.store, property_id), sql.property_scores(self.store, property_id),
                     detailed)

    def reply(self, actor: Actor, review_id: str, data: Any) -> dict[str, Any]:
        """`{"reply": TEXT}`: the property's answer, sent to the channel once. 422 when the review takes none now."""
        row = self._row(actor, review_id, NotFoundAsSpelt)
        text = mask_text(_input(ReplyInput, data, "reply").reply)
        if not text.strip():
            raise ValidationFailed.one("reply", "can't be blank")
        now = self.now()
        with self.store.transaction(property_scope(row["property_id"])) as conn:
            if not sql.set_reply(conn, review_id, text, actor.user_id, now):
                raise ValidationFailed.one("reply", _why_no_reply(sql.review_in(conn, review_id)))
            sql.add_counts(conn, row["property_id"], row["channel_id"], row["ota"], (0, -1, 0, 0), now)
            self._told(conn, "updated_review", review_id)
        self.events.publish("review.changed", review_id, action="replied")
        return self.get(actor, review_id)

    def guest_review(self, actor: Actor, review_id: str, data: Any) -> dict[str, Any]:
        """The host's review of an Airbnb guest (reference §8's body), sent to Airbnb once; once it is there, Airbnb
        shows the guest's review (`is_hidden` false). Booking.com has none: 422."""
        row = self._row(actor, review_id, NotFoundAsSpelt)
        if row["ota"] != "AirBNB":
            raise NotSupported("only Airbnb hosts review their guests; a Booking.com review takes a reply")
        model = _input(GuestReviewInput, data, "review")
        body = model.model_dump()
        for text in ("public_review", "private_review"):
            body[text] = mask_text(body[text]) if body[text] is not None else None
        now = self.now()
        with self.store.transaction(property_scope(row["property_id"])) as conn:
            if not sql.set_guest_review(conn, review_id, json.dumps(body), now):
                raise ValidationFailed.one("review", _why_no_guest_review(sql.review_in(conn, review_id)))
            self._told(conn, "updated_review", review_id)
        self.events.publish("review.changed", review_id, action="guest_reviewed")
        return self.get(actor, review_id)

    # --- channels ------------------------------------------------------------------------------

    def receive(self, channel: Row, data: Any) -> tuple[dict[str, Any], bool]:
        """A review from the channel's adapter (`channel` from `channel_by_key`); whether it is new. The same
        review sent again is the review's new state: unchanged, nothing happens; changed, its scores are counted
        anew and `updated_review` is told."""
        if channel["channel_code"] not in OTAS:
            raise NotSupported(f"{channel['channel_code']} channels have no guest reviews")
        ota, model = channel["channel_code"], validate(InboundReviewInput, data)
        property_id, booking_id = self._placed(channel, model)
        now = self.now()
        values = _channel_values(ota, model, booking_id, property_id, now)
        with self.store.transaction(property_scope(property_id)) as conn:
            review_id = new_id()
            created = sql.insert_review(conn, {
                "id": review_id, "property_id": property_id, "channel_id": channel["id"], "ota": ota,
                "ota_review_id": model.ota_review_id, **values, "is_replied": int(model.reply is not None),
                **_replied_on_channel(model, now), "inserted_at": now, "updated_at": now})
            if created:
                tally(conn, sql.review_in(conn, review_id), 1, now)
                self._told(conn, "review", review_id)
            else:
                old = cast(Row, sql.channel_review(conn, channel["id"], model.ota_review_id))  # not created: there
                review_id = old["id"]
                if old["property_id"] != property_id:
                    raise ValidationFailed.one("property_id", "is not the property of the review sent before")
                if old["body_hash"] != values["body_hash"]:
                    changed = {**values, "updated_at": now}
                    if model.reply is not None and not old["is_replied"]:  # answered on the channel itself
                        changed.update(is_replied=1, **_replied_on_channel(model, now))
                    tally(conn, old, -1, now)
                    sql.update_from_channel(conn, review_id, changed, old["body_hash"])
                    tally(conn, sql.review_in(conn, review_id), 1, now)
                    self._told(conn, "updated_review", review_id)
        self.events.publish("review.received" if created else "review.changed", review_id, action="received")
        return _review(cast(Row, sql.review_row(self.store, review_id)), now), created

    def outbox(self, channel: Row, query: ListQuery) -> tuple[builtins.list[dict[str, Any]], dict[str, Any]]:
        """Replies and guest reviews waiting for the channel, oldest first; ack each once the channel has it."""
        rows, meta = sql.pending_page(self.store, query, channel["id"])
        reviews = {r["id"]: r for r in sql.reviews_by_id(self.store, [r["review_id"] for r in rows])} if rows else {}
        items = []
        for r in rows:
            review = reviews[r["review_id"]]
            items.append({"id": review["id"], "kind": r["kind"], "review_id": review["id"],
                          "ota_review_id": review["ota_review_id"], "ota_reservation_id": review["ota_reservation_id"],
                          "listing_id": review["listing_id"], "property_id": review["property_id"],
                          "reply": review["reply"] if r["kind"] == "reply" else None,
                          "guest_review": from_json(review["guest_review"]) if r["kind"] == "guest_review" else None,
                          "scheduled_at": review[f"{r['kind']}_scheduled_at"]})
        return items, meta

    def delivered(self, channel: Row, review_id: str, kind: str) -> None:
        """The channel has the reply (or guest review). Acknowledging again changes nothing; a guest review that
        reached Airbnb shows the guest's review."""
        row = self._waiting(channel, review_id, kind)
        now = self.now()
        with self.store.transaction(property_scope(row["property_id"])) as conn:
            state = sql.review_in(conn, review_id)[f"{kind}_state"]
            if sql.mark_delivered(conn, review_id, kind, now) and kind == "reply" and state == "failed":
                sql.add_counts(conn, row["property_id"], channel["id"], channel["channel_code"], (0, -1, 0, 0), now)
            if kind == "guest_review" and sql.reveal(conn, review_id, now):
                self._told(conn, "updated_review", review_id)
        self.events.publish("review.changed", review_id, action="delivered")

    def failed(self, channel: Row, review_id: str, kind: str, data: Any) -> None:
        """The channel refused the reply (or guest review): shown as failed; a refused reply may be written again."""
        row = self._waiting(channel, review_id, kind)
        error = mask_text(validate(DeliveryFailure, data if data is not None else {}).error)
        now = self.now()
        with self.store.transaction(property_scope(row["property_id"])) as conn:
            if sql.review_in(conn, review_id)[f"{kind}_state"] == "delivered":
                raise ValidationFailed.one("failure", f"the {kind} was acknowledged as delivered")
            if sql.mark_failed(conn, review_id, kind, error, now) and kind == "reply":
                sql.add_counts(conn, row["property_id"], channel["id"], channel["channel_code"], (0, 1, 0, 0), now)
        self.events.publish("review.changed", review_id, action="failed")

    # --- the pieces ----------------------------------------------------------------------------

    def _waiting(self, channel: Row, review_id: str, kind: str) -> Row:
        if kind not in KINDS:
            raise NotFound(f"a review has no {kind}; use one of {', '.join(KINDS)}")
        row = sql.channel_review_state(self.store, review_id, channel["id"], kind)
        if row is None or row["state"] is None:
            raise NotFound(f"review {review_id} has no {kind} for this channel")
        return row

    def _placed(self, channel: Row, model: InboundReviewInput) -> tuple[str, str | None]:
        """The review's property and booking: the booking's, or the property named (connected to the channel) and
        the channel's booking of the reservation number, if there is one."""
        if model.booking_id is not None:
            booking = sql.channel_booking(self.store, model.booking_id, channel["id"])
            if booking is None:
                raise ValidationFailed.one("booking_id", "is not a booking of this channel")
            if model.property_id not in (None, booking["property_id"]):
                raise ValidationFailed.one("property_id", "is not the booking's property")
            return booking["property_id"], booking["id"]
        if model.property_id is None:
            raise ValidationFailed.one("property_id", "can't be blank without booking_id")
        if not is_connected(self.store, channel["id"], model.property_id):
            raise ValidationFailed.one("property_id", "is not a property connected to this channel")
        booking_id = (sql.booking_of_reservation(self.store, channel["id"], model.ota_reservation_id, model.property_id)
                      if model.ota_reservation_id else None)
        return model.property_id, booking_id

    def _row(self, actor: Actor, review_id: str, missing: type[NotFound]) -> Row:
        row = sql.review_row(self.store, review_id)
        if row is None:
            raise missing(f"review {review_id} does not exist")
        if not reaches(self.store, actor, row["property_id"], row["group_id"]):
            raise Unauthorized("you have no access to this review")
        return row

    def _property(self, actor: Actor, property_id: str, missing: type[Exception]) -> Row:
        row = sql.property_row(self.store, property_id)
        if row is None:
            raise missing(f"property {property_id} does not exist")
        if not reaches(self.store, actor, property_id, row["group_id"]):
            raise Unauthorized("you have no access to this property")
        return row

    def _told(self, conn: Connection, event: str, review_id: str) -> None:
        """The webhooks' event of the review as it is now, in the caller's transaction: the service's flat payload
        (reference §8)."""
        review = sql.review_in(conn, review_id)
        outbox.record(conn, event, review["property_id"], payload(review, self.now()))

def _review(row: Row, now: str) -> dict[str, Any]:
    """The review as the engine hands it out, `now` telling whether it has expired."""
    r = dict(zip(row.keys(), row))  # by position: a row's lookup by name walks its columns
    guest_review = from_json(r["guest_review"]) if r["guest_review"] else None
    if guest_review is not None:
        guest_review.update(state=r["guest_review_state"], sent_at=r["guest_review_sent_at"],
                            error=r["guest_review_error"])
    return {"id": r["id"], "property_id": r["property_id"], "property_title": r["property_title"],
            "channel_id": r["channel_id"], "ota": r["ota"], "ota_review_id": r["ota_review_id"],
            "ota_reservation_id": r["ota_reservation_id"], "booking_id": r["booking_id"],
            "guest_name": r["guest_name"], "content": r["content"], "raw_content": from_json(r["raw_content"]),
            "overall_score": r["overall_score"], "scores": from_json(r["scores"]), "tags": from_json(r["tags"]),
            "received_at": r["received_at"], "inserted_at": r["inserted_at"], "updated_at": r["updated_at"],
            "is_hidden": bool(r["is_hidden"]), "is_expired": _expired(r["expired_at"], now),
            "expired_at": r["expired_at"], "is_replied": bool(r["is_replied"]), "reply": r["reply"],
            "reply_state": r["reply_state"], "reply_sent_at": r["reply_sent_at"], "reply_error": r["reply_error"],
            "guest_review": guest_review, "listing_id": r["listing_id"]}


def payload(r: Row, now: str) -> dict[str, Any]:
    """The service's `review` / `updated_review` webhook payload: flat, with the channel's own scores beside ours."""
    raw = from_json(r["raw_content"])
    return {"id": r["id"], "reply": r["reply"], "content": r["content"], "channel_id": r["channel_id"],
            "scores": from_json(r["scores"]), "ota": r["ota"], "property_id": r["property_id"],
            "expired_at": r["expired_at"], "is_hidden": bool(r["is_hidden"]), "is_replied": bool(r["is_replied"]),
            "ota_overall_score": raw.get("overall_score"), "ota_reservation_id": r["ota_reservation_id"],
            "ota_review_id": r["ota_review_id"], "ota_scores": raw.get("scores", []),
            "overall_score": r["overall_score"], "raw_content": raw, "received_at": r["received_at"],
            "reviewer_name": r["guest_name"], "booking_id": r["booking_id"], "live_feed_event_id": new_id(),
            "ota_inserted_at": r["received_at"], "reply_scheduled_at": r["reply_scheduled_at"],
            "reply_sent_at": r["reply_sent_at"], "tags": from_json(r["tags"]), "listing_id": r["listing_id"],
            "is_expired": _expired(r["expired_at"], now)}


def _input(model: type[M], data: Any, name: str) -> M:
    if not isinstance(data, dict):
        raise BadRequest([f"the {name} must be a JSON object"])
    return validate(model, data)


def _expired(expired_at: str | None, now: str) -> bool:
    return expired_at is not None and expired_at <= now


def _why_no_reply(review: Row) -> str:
    if review["is_replied"]:
        return "the review has a reply already: a review takes one"
    if review["channel_id"] is None:
        return "the review's channel is gone: nothing can reach the guest"
    if review["is_hidden"]:
        return "the review is hidden until you review the guest (guest_review)"
    return "the review has expired: the channel takes no reply now"


def _why_no_guest_review(review: Row) -> str:
    if review["guest_review_state"] in ("pending", "delivered"):
        return "the guest has been reviewed already"
    if review["channel_id"] is None:
        return "the review's channel is gone: nothing can reach the guest"
    return "the review has expired: Airbnb takes no review of the guest now"


def _replied_on_channel(model: InboundReviewInput, now: str) -> dict[str, Any]:
    """A reply the channel says was made there: delivered as it is."""
    if model.reply is None:
        return {}
    return {"reply": mask_text(model.reply), "reply_state": "delivered", "reply_sent_at": now}


def _channel_values(ota: str, model: InboundReviewInput, booking_id: str | None, property_id: str,
                    now: str) -> dict[str, Any]:
    """The columns the channel's review sets, its scores out of 10 (reference §8); 422 naming each bad score."""
    errors, seen = Errors(), set()
    scores: list[dict[str, Any]] = []
    for n, given in enumerate(model.scores):
        name, value = category(ota, given.category), given.value()
        if name is None:
            errors.add(f"scores.{n}.category", f"is not one {ota} rates; use one of {', '.join(CATEGORIES[ota])}")
        elif name in seen:
            errors.add(f"scores.{n}.category", "is given twice")
        if not in_range(ota, value):
            errors.add(f"scores.{n}.score", _range(ota))
        if name and name not in seen and in_range(ota, value) and value is not None:
            seen.add(name)
            scores.append({"category": name, "score": scaled(ota, value)})
    if model.overall_score is not None and not in_range(ota, model.overall_score):
        errors.add("overall_score", _range(ota))
    received_at = _stamp(model.received_at, "received_at", now, errors, future=False) or now
    expired_at = _stamp(model.expired_at, "expired_at", now, errors, future=True)
    errors.raise_if_any()
    overall: float | None
    if model.overall_score is not None:
        overall = scaled(ota, model.overall_score)
    else:
        overall = round(sum(s["score"] for s in scores) / len(scores), 2) if scores else None
    raw = {"content": mask_text(model.content) if model.content else model.content,
           "private_feedback": mask_text(model.private_feedback) if model.private_feedback else model.private_feedback,
           "overall_score": model.overall_score,
           "scores": [{"category": s.category, "score": s.value()} for s in model.scores]}
    values = {"booking_id": booking_id, "ota_reservation_id": model.ota_reservation_id, "listing_id": model.listing_id,
              "guest_name": mask_text(model.guest_name), "content": raw["content"], "raw_content": json.dumps(raw),
              "overall_score": overall, "scores": json.dumps(sorted(scores, key=lambda s: s["category"])),
              "tags": json.dumps(model.tags), "received_at": received_at, "expired_at": expired_at,
              "is_hidden": int(model.is_hidden)}
    sent = {**model.model_dump(), "property_id": property_id, "booking_id": booking_id}
    values["body_hash"] = hashlib.sha256(json.dumps(sent, sort_keys=True).encode()).hexdigest()
    return values


def _range(ota: str) -> str:
    return "must be a number from 1 to 5 (Airbnb's stars)" if ota == "AirBNB" else "must be a number from 0 to 10"


def _stamp(value: str | None, field: str, now: str, errors: Errors, *, future: bool) -> str | None:
    """A channel's time as the service writes times (UTC, no zone, microseconds); a review is never written in the
    future."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        errors.add(field, "must be an ISO 8601 timestamp, e.g. 2026-11-21T10:03:29Z")
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    stamp = moment.isoformat(timespec="microseconds")
    if not future and stamp > now:
        errors.add(field, "is in the future")
    return stamp
