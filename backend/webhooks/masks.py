"""A webhook's `event_mask`: which of its property's events it gets.

The grammar, as the service writes masks:

    mask     = item *("," item)              ; spaces around items are ignored
    item     = "*" / event / ari-mask
    ari-mask = "ari" [":" kind [":" room [":" plan]]]
    kind     = "*" / an ARI value name        ; availability, rate, min_stay_arrival, stop_sell, ...
    room     = "*" / a room type's ID         ; missing trailing parts are "*"
    plan     = "*" / a rate plan's ID

`*` is every event. `booking` is booking_new, booking_modification and booking_cancellation. An event the
service lists that Frontdesk never sends (`reservation_request`, `new_channel`, ...) is accepted, so that an
integrator's mask works unchanged, and matches nothing.

An ARI event is a written range of one rate plan (its rates and restrictions) or one room type (its
availability). An ARI mask picks both the events and the values they carry: `ari:rate:*:<plan>` gets that
plan's ranges with their `rate` only; `ari:availability:<room>` that room type's availability; a plan segment
also picks its room type's availability, a room segment every plan of that room type. The event says which
nights were written, not which values: a stop-sell written to a plan reaches an `ari:rate` mask with the rates
as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from backend.inventory.ari import NOT_KEPT, READS
from backend.outbox.record import BOOKING_EVENTS, EVENTS

GROUPS = {"booking": frozenset(BOOKING_EVENTS.values())}
# The service's events that nothing in Frontdesk causes: accepted in a mask, never sent.
SERVICE_ONLY = ("booking_unmapped_room", "booking_unmapped_rate", "sync_warning", "rate_error", "reservation_request",
                "alteration_request", "accepted_reservation", "declined_reservation", "new_channel")
NAMES = frozenset((*EVENTS, *GROUPS, *SERVICE_ONLY))
ROOM_VALUES = ("availability",)
PLAN_VALUES = tuple(name for name in READS if name not in ROOM_VALUES and name not in NOT_KEPT)
KINDS = frozenset(("*", *READS))
ANY = "*"


@dataclass(frozen=True)
class AriMask:
    kind: str = ANY
    room: str = ANY
    plan: str = ANY


@dataclass(frozen=True)
class Target:
    """What an ARI event is about: a rate plan (of a room type) or a room type alone."""

    room_type_id: str | None
    rate_plan_id: str | None = None


@dataclass(frozen=True)
class Mask:
    events: frozenset[str]  # wanted whole: every event for `*`, every ARI value for `ari`
    ari: tuple[AriMask, ...]

    def wants(self, event: str) -> bool:
        return ANY in self.events or event in self.events or any(event in GROUPS.get(e, ()) for e in self.events)

    def ari_values(self, target: Target, room_of: Callable[[str], str | None]) -> tuple[str, ...]:
        """The values of the event's target this mask wants (none: not the event); `room_of` tells a rate plan's
        room type, read only when a mask names one."""
        values = PLAN_VALUES if target.rate_plan_id else ROOM_VALUES
        if ANY in self.events or "ari" in self.events:
            return values
        wanted: set[str] = set()
        for mask in self.ari:
            if mask.kind not in (ANY, *values) or not _reaches(mask, target, room_of):
                continue
            wanted.update(values if mask.kind == ANY else (mask.kind,))
        return tuple(name for name in values if name in wanted)

    def named_ids(self) -> tuple[set[str], set[str]]:
        """The room type and rate plan IDs the mask names: they must be the webhook property's."""
        return ({m.room for m in self.ari if m.room != ANY}, {m.plan for m in self.ari if m.plan != ANY})


def _reaches(mask: AriMask, target: Target, room_of: Callable[[str], str | None]) -> bool:
    if target.rate_plan_id:
        return mask.plan in (ANY, target.rate_plan_id) and (
            mask.room == ANY or mask.room == room_of(target.rate_plan_id))
    return mask.room in (ANY, target.room_type_id) and (mask.plan == ANY or room_of(mask.plan) == target.room_type_id)


def parse(text: str) -> Mask:
    """The mask, or ValueError saying what is wrong with it."""
    events: set[str] = set()
    ari: list[AriMask] = []
    for item in (part.strip() for part in text.split(",")):
        if item == ANY or item in NAMES:
            events.add(item)
        elif item.startswith("ari:"):
            ari.append(_ari_mask(item))
        elif not item:
            raise ValueError("has an empty item: separate events with single commas")
        else:
            raise ValueError(f"names an unknown event {item[:40]!r}; use *, {', '.join(sorted(NAMES))} or "
                             "ari:<kind>:<room_type_id>:<rate_plan_id>")
    return Mask(frozenset(events), tuple(ari))


def _ari_mask(item: str) -> AriMask:
    parts = item.split(":")[1:]
    if len(parts) > 3 or not all(parts):
        raise ValueError(f"has a malformed ARI mask {item[:80]!r}: write ari:<kind>:<room_type_id or *>:"
                         "<rate_plan_id or *>")
    if parts[0] not in KINDS:
        raise ValueError(f"has an unknown ARI value {parts[0][:40]!r}; use * or one of {', '.join(READS)}")
    return AriMask(*parts)
