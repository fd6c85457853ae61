"""What a channel is told about: the rate plans mapped to it and their room types, each by the channel's own code.

A mapping's `settings` may name the channel's codes (`rate_plan_code`, `room_type_code`); without them a plan or
room type goes by its ID, the code bookings use (GET /api/v1/inbound/:channel_id lists them). A room type takes the
first `room_type_code` its mapped plans give. Only mapped plans and their room types are ever sent, and the closings
of those that stopped being mapped (backend/distribution/remap.py), which name the codes the channel knew them by.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from pydantic_core import from_json

from backend.distribution.store import channel_mappings, mapped_channel
from backend.outbox.deliverer import Event
from storage import Row, Store


@dataclass(frozen=True)
class Target:
    id: str
    property_id: str
    code: str
    room_type_id: str  # a rate plan's room type; a room type's own ID


@dataclass(frozen=True)
class Closing:
    """What a channel is told is closed: a rate plan (stop sell) or a room type (no availability), by the codes it
    knows them by. `entity` is what the channel sees: two closings of one entity close the same thing there."""

    kind: str  # "plan" or "room"
    target_id: str  # the rate plan's or the room type's ID
    property_id: str
    code: str  # the plan's rate_plan_code, or the room type's room_type_code
    room_code: str  # the room type's code (a room type's own: `code`)

    @property
    def entity(self) -> tuple[str, str, str, str]:
        return self.kind, self.property_id, self.room_code, self.code

    @classmethod
    def named(cls, payload: dict[str, Any]) -> Closing:
        """A closing as an event names it (backend/distribution/remap.py)."""
        if "rate_plan_id" in payload:
            return cls("plan", payload["rate_plan_id"], payload["property_id"], payload["rate_plan_code"],
                       payload["room_type_code"])
        return cls("room", payload["room_type_id"], payload["property_id"], payload["room_type_code"],
                   payload["room_type_code"])

    def payload(self) -> dict[str, Any]:
        """The closing's part of an event's payload: the target and the codes it is closed under."""
        if self.kind == "plan":
            return {"property_id": self.property_id, "rate_plan_id": self.target_id, "rate_plan_code": self.code,
                    "room_type_code": self.room_code}
        return {"property_id": self.property_id, "room_type_id": self.target_id, "room_type_code": self.code}


@dataclass(frozen=True)
class Mapped:
    channel_id: str
    title: str
    settings: dict[str, Any]
    plans: dict[str, Target]  # in mapping order
    rooms: dict[str, Target]

    @property
    def mode(self) -> str:
        return cast(str, self.settings.get("ari_distribution", "none"))

    def hotel_code(self, property_id: str) -> str:
        return cast(str, self.settings.get("hotel_codes", {}).get(property_id, property_id))

    def room_of(self, plan_id: str) -> Target:
        return self.rooms[self.plans[plan_id].room_type_id]

    def closing(self, kind: str, target_id: str) -> Closing:
        """A mapped plan or room type as a closing under its codes now."""
        if kind == "plan":
            plan = self.plans[target_id]
            return Closing("plan", target_id, plan.property_id, plan.code, self.room_of(target_id).code)
        room = self.rooms[target_id]
        return Closing("room", target_id, room.property_id, room.code, room.code)

    def takes(self, event: Event) -> bool:
        """An ARI event of a mapped plan or room type, not meant for another channel alone; or a closing meant for
        this channel alone, which names the codes it knew a plan or room type by (its mapping is gone since)."""
        if event.event != "ari" or event.channel_id not in (None, self.channel_id):
            return False
        if "room_type_code" in event.payload:
            return event.channel_id == self.channel_id
        return event.payload.get("rate_plan_id") in self.plans or event.payload.get("room_type_id") in self.rooms


class MappedChannels:
    """Each channel's mapping, read again only when the channel changed (every change stamps its updated_at): the
    deliverer asks for every event it looks at."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: dict[str, tuple[str, Mapped]] = {}

    def get(self, channel_id: str) -> Mapped | None:
        row = mapped_channel(self.store, channel_id)
        if row is None:
            return None
        kept = self._kept.get(channel_id)
        if kept is None or kept[0] != row["updated_at"]:
            kept = self._kept[channel_id] = (row["updated_at"], self._read(row))
        return kept[1]

    def _read(self, channel: Row) -> Mapped:
        plans, rooms = targets(channel_mappings(self.store.conn, channel["id"]))
        return Mapped(channel["id"], channel["title"], from_json(channel["settings"]), plans, rooms)


def targets(mappings: list[Row]) -> tuple[dict[str, Target], dict[str, Target]]:
    """A channel's mapped plans and their room types, by its codes, from its mappings' rows
    (backend/distribution/store.py: `channel_mappings`)."""
    plans: dict[str, Target] = {}
    rooms: dict[str, Target] = {}
    for plan_id, settings, property_id, room_type_id in mappings:
        codes = from_json(settings)
        plans[plan_id] = Target(plan_id, property_id, _code(codes, "rate_plan_code", plan_id), room_type_id)
        given = _code(codes, "room_type_code", "")
        if room_type_id not in rooms or (given and rooms[room_type_id].code == room_type_id):
            rooms[room_type_id] = Target(room_type_id, property_id, given or room_type_id, room_type_id)
    return plans, rooms


def _code(settings: dict[str, Any], name: str, default: str) -> str:
    code = settings.get(name)
    return code if isinstance(code, str) and code else default
