"""What a webhook POSTs: the service's message, `{"event", "payload", "property_id", "user_id", "timestamp"}`.

`payload` is the event's own, as it was recorded (`booking_*` and `non_acked_booking`: `{booking_id, property_id,
revision_id}`; `message`: the service's message payload; `inquiry`, `thread_closed`, `thread_reopened`,
`sync_error`: see docs/http.md), except ARI's, which is read when it is sent: the written range's values as they
are now, consecutive days with equal values as one range, in the shape of an ARI write's `values`. `timestamp`
is when the event happened, as the service writes it (`2021-12-24T00:00:00.000000Z`); `user_id` is null, since
Frontdesk does not record who made a change. Without `send_data`, `payload` is left out.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, cast

from backend.distribution.collapse import collapse
from backend.inventory.ari import Ari
from backend.outbox.deliverer import Event
from backend.webhooks.store import property_rate_plan, property_room_type_id


def message(event: Event, send_data: bool, payload: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"event": event.event}
    if send_data:
        body["payload"] = payload
    return {**body, "property_id": event.property_id, "user_id": None, "timestamp": stamp(event.inserted_at)}


def stamp(inserted_at: str) -> str:
    """A stored UTC time (`2026-11-21T10:03:29.335485`) as the service writes it."""
    return inserted_at + "Z"


def ari_ranges(ari: Ari, event: Event, values: tuple[str, ...]) -> list[dict[str, Any]]:
    """The event's range, read now: `[{property_id, room_type_id, rate_plan_id?, date_from, date_to, <values>}]`;
    empty when its rate plan or room type is gone."""
    written, property_id = event.payload, cast(str, event.property_id)  # an ARI event is always a property's
    start = date.fromisoformat(written["date_from"])
    end = date.fromisoformat(written["date_to"]) + timedelta(days=1)
    if "rate_plan_id" in written:
        plan = property_rate_plan(ari.store, written["rate_plan_id"], property_id)
        if plan is None:
            return []
        target_id, target = plan["id"], {"room_type_id": plan["room_type_id"], "rate_plan_id": plan["id"]}
        nights = ari.plan_values(property_id, [plan], start, end, values)[target_id]
    else:
        target_id = property_room_type_id(ari.store, written["room_type_id"], property_id)
        if target_id is None:
            return []
        target = {"room_type_id": target_id}
        nights = {day: {"availability": n} for day, n in ari.room_values([target_id], start, end)[target_id].items()}
    spans = collapse(target_id, ((date.fromisoformat(day), tuple(night.items())) for day, night in nights.items()))
    return [{"property_id": event.property_id, **target, "date_from": span.date_from.isoformat(),
             "date_to": span.date_to.isoformat(), **dict(cast(tuple[tuple[str, Any], ...], span.values))} for span in spans]
