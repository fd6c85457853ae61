"""Nights a test sells, made sellable by the test itself: whatever the demo's restrictions say about the day the
suite runs on (its weekend minimum stays, closed Sunday arrivals, a stopped night), these nights are open."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

OPEN = {"min_stay_arrival": 1, "min_stay_through": 1, "max_stay": 0, "closed_to_arrival": False,
        "closed_to_departure": False, "stop_sell": False}


def open_for_sale(engine, actor, plan: Any, arrival: str, departure: str, rooms: int | None = None) -> None:
    """Open the rate plan `plan` (a row or dict with `id`, `property_id`, `room_type_id`) from `arrival` up to and
    including `departure` (closed to departure applies to it), and give its room type `rooms` rooms on each night
    when asked."""
    span = {"property_id": plan["property_id"], "date_from": arrival, "date_to": departure}
    engine.inventory.ari.set_restrictions(actor, [{**span, "rate_plan_id": plan["id"], **OPEN}])
    if rooms is not None:
        last_night = (date.fromisoformat(departure) - timedelta(days=1)).isoformat()
        engine.inventory.ari.set_availability(actor, [{**span, "date_to": last_night,
                                                       "room_type_id": plan["room_type_id"], "availability": rooms}])
