"""What a channel that takes ARI is told when what it sells changes under it: a rate plan mapped to it, unmapped
from it, deleted (or its room type, or its property), or sold under other codes. Each is recorded as `ari` events for
that channel alone, in the transaction of the change, one per range and plan or room type:

- a plan newly mapped (or mapped under new codes): its whole window, and its room type's if no plan of the channel
  sold that room type before — as a full sync would, for that plan alone;
- a plan no longer sold there (unmapped, deleted, or sold under other codes now): a closing over the window under
  the codes the channel knew it by — stop sell — and, for a room type no mapped plan sells any more, no
  availability.
  A channel keeps what it was last sent: left open, a plan the property no longer manages there would go on selling
  nights that Frontdesk no longer holds for it, so it is closed, as a careful channel manager closes a rate before
  it lets go of it.

A channel that starts taking ARI (created so, or turned from `none`) is told nothing here: it gets what changes from
then on, and a full sync sends the rest; one that stops taking it (back to `none`, or deleted) is told nothing more.

Usage, in the change's transaction: `before = watching(conn, plan_ids, now)` (or `seen` of one channel), the change,
then `told(conn, before, now)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic_core import from_json

from backend.channels.store import touch_channel
from backend.distribution.collapse import ONE_DAY
from backend.distribution.mapped import Closing, Target, targets
from backend.distribution.store import channel_mappings, channel_settings, channels_selling, properties_in
from backend.inventory.window import Window, window_of
from backend.outbox.record import record
from storage import Connection, utc_now


@dataclass(frozen=True)
class Seen:
    """What a channel sells, as it is told of it: its mapped plans and their room types by its codes, and the window
    of each of their properties."""

    plans: dict[str, Target]
    rooms: dict[str, Target]
    windows: dict[str, Window]

    def closing(self, kind: str, target_id: str) -> Closing:
        if kind == "plan":
            plan = self.plans[target_id]
            return Closing("plan", target_id, plan.property_id, plan.code, self.rooms[plan.room_type_id].code)
        room = self.rooms[target_id]
        return Closing("room", target_id, room.property_id, room.code, room.code)


def seen(conn: Connection, channel_id: str, now: datetime) -> Seen | None:
    """The channel as it is told of what it sells; None when it takes no ARI (or is gone)."""
    settings = channel_settings(conn, channel_id)
    if settings is None or from_json(settings).get("ari_distribution", "none") not in ("pull", "push"):
        return None
    plans, rooms = targets(channel_mappings(conn, channel_id))
    ids = list({plan.property_id for plan in plans.values()})
    windows = {prop["id"]: window_of(prop, now) for prop in properties_in(conn, ids)} if ids else {}
    return Seen(plans, rooms, windows)


def watching(conn: Connection, plan_ids: list[str], now: datetime) -> dict[str, Seen | None]:
    """The channels taking ARI that sell any of these plans, as they are before a change to the plans (None for one
    that sells them but takes no ARI)."""
    found: dict[str, Seen | None] = {}
    for channel_id in channels_selling(conn, plan_ids):
        found[channel_id] = seen(conn, channel_id, now)
    return found


def told(conn: Connection, before: dict[str, Seen | None], now: datetime) -> int:
    """Record, for each channel, what it must hear now that the change is made; how many events. A channel whose
    mapping changed is stamped (its kept mapping, backend/distribution/mapped.py, is read again)."""
    recorded = 0
    for channel_id, was in before.items():
        if was is None:
            continue  # it took no ARI before the change: a full sync sends what it has
        after = seen(conn, channel_id, now)
        if after is None:
            continue  # it takes none now: nothing more goes to it
        for kind, old, new in (("room", was.rooms, after.rooms), ("plan", was.plans, after.plans)):
            gone = [i for i in old if i not in new or was.closing(kind, i) != after.closing(kind, i)]
            came = [i for i in new if i not in old or was.closing(kind, i) != after.closing(kind, i)]
            for target_id in gone:
                closing = was.closing(kind, target_id)
                recorded += _ranged(conn, channel_id, {**closing.payload(), "closed": True},
                                    was.windows.get(closing.property_id))
            key = "rate_plan_id" if kind == "plan" else "room_type_id"
            for target_id in came:
                target = new[target_id]
                recorded += _ranged(conn, channel_id, {"property_id": target.property_id, key: target_id},
                                    after.windows.get(target.property_id))
        if (was.plans, was.rooms) != (after.plans, after.rooms):
            touch_channel(conn, channel_id, utc_now())
    return recorded


def _ranged(conn: Connection, channel_id: str, payload: dict[str, Any], window: Window | None) -> int:
    """One event over the window (today up to today + state_length), for the channel alone."""
    if window is None:
        return 0
    record(conn, "ari", payload["property_id"], {**payload, "date_from": window.today.isoformat(),
                                                  "date_to": (window.end - ONE_DAY).isoformat()},
           channel_id=channel_id)
    return 1
