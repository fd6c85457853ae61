"""The service's own ARI shapes, as its `POST /api/v1/availability` and `POST /api/v1/restrictions` take them, in
one list: a room type's availability

    {"property_id", "room_type_id", "room_type_code", "date_from", "date_to", "availability"}

and a rate plan's rate and restrictions

    {"property_id", "rate_plan_id", "rate_plan_code", "room_type_code", "date_from", "date_to", "rate",
     "min_stay_arrival", "min_stay_through", "max_stay", "closed_to_arrival", "closed_to_departure", "stop_sell"}

(`rate` a decimal string in the plan's currency, or null for nights without a rate, which Frontdesk does not sell;
`max_stay` 0 for no limit). Nights the channel must stop selling (backend/distribution/reading.py: closed by the
cut-off, left the window, a plan unmapped or deleted, a room type no mapped plan sells any more) come after them as
a room type's `{"property_id", "room_type_id", "room_type_code", "date_from", "date_to", "availability": 0}` and a
plan's `{"property_id", "rate_plan_id", "rate_plan_code", "room_type_code", "date_from", "date_to", "stop_sell":
true}` (the service's restrictions write takes a value with only some fields). A push is `{"values": [...]}`; the
pull feed answers the same values as its `data`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from backend.core.money import format_minor
from backend.distribution.collapse import Span
from backend.distribution.mapped import Mapped
from backend.distribution.message import Call, accepted, chunks
from backend.distribution.reading import Closed, Read
from backend.inventory.stays import ROW_FIELDS, Plan
from backend.outbox.sending import Answer

CONTENT_TYPE = "application/json"
BOOLEANS = ("closed_to_arrival", "closed_to_departure", "stop_sell")


def values(read: Read, mapped: Mapped) -> list[dict[str, Any]]:
    return [*(_availability(span, mapped) for span in read.rooms),
            *(_restrictions(span, read.plan_of[span.target_id], mapped) for span in read.plans),
            *(_closed(closed) for closed in read.closed)]


def calls(read: Read, mapped: Mapped, ids: Iterator[str]) -> list[Call]:
    return [Call(next(ids), CONTENT_TYPE, json.dumps({"values": list(chunk)}, separators=(",", ":")))
            for chunk in chunks(values(read, mapped))]


def check(answer: Answer) -> list[str]:
    """Any 2xx answer takes the call; no warnings."""
    accepted(answer)
    return []


def _availability(span: Span, mapped: Mapped) -> dict[str, Any]:
    room = mapped.rooms[span.target_id]
    return {"property_id": room.property_id, "room_type_id": room.id, "room_type_code": room.code,
            **_dates(span), "availability": span.values}


def _restrictions(span: Span, plan: Plan, mapped: Mapped) -> dict[str, Any]:
    fields = dict(zip(ROW_FIELDS, span.values, strict=True))
    rate = fields.pop("rate")
    return {"property_id": plan.property_id, "rate_plan_id": plan.id, "rate_plan_code": mapped.plans[plan.id].code,
            "room_type_code": mapped.room_of(plan.id).code, **_dates(span),
            "rate": None if rate is None else format_minor(rate, plan.currency),
            **{name: bool(value) if name in BOOLEANS else value for name, value in fields.items()}}


def _closed(closed: Closed) -> dict[str, Any]:
    value = {**closed.closing.payload(), **_dates(closed)}
    return {**value, "stop_sell": True} if closed.closing.kind == "plan" else {**value, "availability": 0}


def _dates(span: Span | Closed) -> dict[str, str]:
    return {"date_from": span.date_from.isoformat(), "date_to": span.date_to.isoformat()}
