"""What operators are shown of the outbox: for each destination a caller may manage (a webhook of its properties, a
channel of its groups that takes ARI), how many changes wait for it and since when; and the oldest change waiting
for any of the active ones, the one figure that says whether deliveries keep up."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from backend.core.errors import Forbidden
from backend.core.listing import MAX_LIMIT, ListQuery
from backend.outbox.store import stamp_positions
from storage import Store


def destination_status(kind: str, destination_id: str, name: str, active: bool,
                       state: dict[str, Any] | None) -> dict[str, Any]:
    """One destination's line, from its outbox state (backend/outbox/deliverer.py `state`)."""
    state = state or {}
    return {"type": kind, "id": destination_id, "name": name, "is_active": active,
            "waiting": state.get("waiting", 0), "oldest_waiting_at": state.get("oldest_waiting_at"),
            "failing_since": state.get("failing_since")}


def summary(store: Store, destinations: Callable[[], list[dict[str, Any]]], now: datetime) -> dict[str, Any]:
    """The `destinations` (read once every event committed has its position, so none is left out) with the age of
    their oldest change waiting (seconds, None when none waits), and the oldest of the active ones. Forbidden to a
    caller who manages no webhook and no channel: nothing here is theirs."""
    stamp_positions(store)
    listed = destinations()
    if not listed:
        raise Forbidden("the outbox's status is for those who manage webhooks or channels: you manage none")
    shown = [{**each, "oldest_waiting_age": age(each["oldest_waiting_at"], now)} for each in listed]
    held = [each for each in shown if each["is_active"] and each["oldest_waiting_at"]]
    oldest = min(held, key=lambda each: each["oldest_waiting_at"], default=None)
    return {"oldest_waiting_at": oldest and oldest["oldest_waiting_at"],
            "oldest_waiting_age": oldest and oldest["oldest_waiting_age"],
            "oldest_waiting_for": oldest and {key: oldest[key] for key in ("type", "id", "name")},
            "destinations": shown}


def age(stamp: str | None, now: datetime) -> int | None:
    """Whole seconds since a stored UTC time (never below 0)."""
    if stamp is None:
        return None
    return max(0, int((now.replace(tzinfo=None) - datetime.fromisoformat(stamp)).total_seconds()))


def every_page(read: Callable[[ListQuery], tuple[list[Any], dict[str, Any]]]) -> list[Any]:
    """Every item of a paged list that `read(query)` answers (items, meta) for, page by page."""
    found: list[Any] = []
    number = 1
    while True:
        items, meta = read(ListQuery(page=number, limit=MAX_LIMIT))
        found += items
        if not items or len(found) >= meta["total"]:
            return found
        number += 1
