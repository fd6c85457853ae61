"""Availability rules as channels see them (reference §9): how many rooms of a room type a channel is sent, shown and
sold on a night.

A rule names some of a property's channels and room types, nights from start_date to end_date (on and on without
one) and, optionally, weekdays. On a night it covers, for a channel and room type it names:
- close_out: the channel has none;
- availability_offset: the room type's availability less `value`;
- max_availability: at most `value`.
Several rules on one night combine so that the strictest wins: a close out closes; else the lowest of the room type's
availability, of that availability less each offset and of each ceiling (so the largest offset and the lowest ceiling
count, offsets never add up); never below 0. A rule only ever lowers what a channel sees. `channel_availability` is
that rule, the one place it is computed: what a channel is sent or pulls (backend/distribution/reading.py), what the
shopping API shows and sells (backend/shopping/service.py), the sellable index (backend/inventory/sellable.py) and a
booking's check (backend/bookings/service.py: a push refused, an OTA's booking flagged) all ask it through
`ChannelRules`.

Rules are few per property: a call reads those of its channels once (`ChannelRules.of`), never per night, and a
channel without rules reads the room types' availability untouched.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal, cast, get_args

from pydantic_core import from_json

from backend.inventory.store import rules_of_channels, rules_of_property
from storage import Connection, Reads, Row

Weekday = Literal["mo", "tu", "we", "th", "fr", "sa", "su"]
WEEKDAYS: tuple[Weekday, ...] = get_args(Weekday)
RuleType = Literal["close_out", "availability_offset", "max_availability"]
TYPES: tuple[RuleType, ...] = get_args(RuleType)
Availability = dict[str, dict[str, int]]  # room type → night → rooms, as backend/inventory/calendar.py reads it


@dataclass(frozen=True)
class Rule:
    id: str
    type: str
    value: int | None  # None for a close out
    weekdays: frozenset[int]  # date.weekday() numbers; empty: every day
    start: str
    end: str | None  # None: open-ended
    rooms: frozenset[str]

    @classmethod
    def of(cls, row: Row) -> Rule:
        return cls(row["id"], row["type"], row["value"], frozenset(WEEKDAYS.index(d) for d in from_json(row["days"])),
                   row["start_date"], row["end_date"], frozenset(from_json(row["affected_room_types"])))

    def covers(self, night: str, weekday: int) -> bool:
        return (self.start <= night and (self.end is None or night <= self.end)
                and (not self.weekdays or weekday in self.weekdays))


def channel_availability(available: int, rules: Iterable[Rule]) -> int:
    """A channel's availability of a room type on a night: the room type's own `available`, under the rules that
    cover that channel, room type and night (the module's docstring says how they combine)."""
    seen = available
    for rule in rules:
        if rule.type == "close_out":
            return 0
        value = cast(int, rule.value)  # every rule but a close out has one
        seen = min(seen, available - value if rule.type == "availability_offset" else value)
    return max(seen, 0)


class ChannelRules:
    """The rules of some channels, by channel and room type."""

    def __init__(self, rows: Iterable[Row]) -> None:
        """`rows`: one per rule and channel it names (backend/inventory/store.py `rules_of_channels`)."""
        self._rules: dict[tuple[str, str], list[Rule]] = defaultdict(list)
        for row in rows:
            rule = Rule.of(row)
            for room_id in rule.rooms:
                self._rules[(row["channel_id"], room_id)].append(rule)

    @classmethod
    def of(cls, store: Reads, channel_ids: Iterable[str], first: str, last: str) -> ChannelRules:
        """The rules of these channels that reach into the nights first..last: one read."""
        ids = list(dict.fromkeys(channel_ids))
        return cls(rules_of_channels(store, ids, first, last) if ids else [])

    @classmethod
    def of_property(cls, conn: Connection, property_id: str) -> ChannelRules:
        """Every rule of the property, as the open transaction reads them."""
        return cls(rules_of_property(conn, property_id))

    def __bool__(self) -> bool:
        return bool(self._rules)

    def touch(self, channel_id: str, room_id: str) -> bool:
        """Whether any rule names this channel and room type."""
        return (channel_id, room_id) in self._rules

    def night(self, channel_id: str, room_id: str, night: str, available: int) -> int:
        """What the channel sees of the room type's `available` rooms on the night."""
        rules = self._rules.get((channel_id, room_id))
        if not rules:
            return available
        weekday = date.fromisoformat(night).weekday()
        return channel_availability(available, (rule for rule in rules if rule.covers(night, weekday)))

    def apply(self, channel_ids: Iterable[str], availability: Availability) -> Availability:
        """The availability (changed in place, and returned) as these channels see it. A call that reaches several
        channels at once (a shopping name shared by channels of one group) sees a night as the most open of them
        does: a rule of one channel leaves what the others sell as it is."""
        if not self._rules:
            return availability
        ids = list(channel_ids)
        for room_id, nights in availability.items():
            if ids and all(self.touch(channel_id, room_id) for channel_id in ids):
                availability[room_id] = {night: max(self.night(channel_id, room_id, night, value) for channel_id in ids)
                                         for night, value in nights.items()}
        return availability


def nights_seen(rules: ChannelRules, channel_id: str, room_id: str, keys: list[str], available: list[int]) -> list[int]:
    """`available` (the room type's rooms on the nights `keys`, in order) as the channel sees them."""
    if not rules.touch(channel_id, room_id):
        return available
    return [rules.night(channel_id, room_id, key, value) for key, value in zip(keys, available, strict=True)]

