"""The values of what some events say changed, read when they leave, never when they were written: the events only
name ranges, so a batch sent late carries today's values, and a later change is never overwritten by an older one.

Ranges of one plan or room type merge (ten events over overlapping weeks read each night once), are cut to the
property's window and read through the engine's own ARI reads (backend/inventory/calendar.py): a night without values
of its own reads its weekday's defaults, a derived plan's nights are computed from its parent's; a room type's
availability is the channel's own, as its availability rules leave it. Consecutive days with the same values collapse
into one range. Nothing before the property's today is sent, nor anything from today +
state_length on; the nights the cut-off has closed (today to today + cut_off_days, once cut_off_time has passed)
are sent closed.

Some events are closings (`"closed": true`): nights a channel must stop selling — a plan unmapped or deleted, a room
type no plan of the channel sells any more (they name the codes the channel knew them by), nights that left the
window (backend/distribution/window_moves.py). A closed plan is a stop sell, a closed room type no availability.
Closings and reads of one thing the channel sees (its codes) apply in the order of their events: the last says what
the channel gets.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from backend.core.dates import days
from backend.distribution.collapse import ONE_DAY, Span, collapse
from backend.distribution.mapped import Closing, Mapped, Target
from backend.distribution.store import properties_in
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.channel_rules import ChannelRules
from backend.inventory.stays import Plan
from backend.inventory.window import Window, window_of
from backend.outbox.deliverer import Event
from storage import Store

Ranges = list[tuple[date, date]]  # sorted, disjoint, both days included


@dataclass(frozen=True)
class Change:
    """One event as a channel takes it: a mapped plan's or room type's range to read, or a range to close."""

    kind: str  # "plan" or "room"
    target_id: str
    span: tuple[date, date]
    closing: Closing | None  # a closing: under the codes its event names, else the target's as mapped


@dataclass(frozen=True)
class Changes:
    """What a channel's events say changed, in their order."""

    items: list[Change]

    @classmethod
    def of(cls, events: Iterable[Event], mapped: Mapped) -> Changes:
        items = []
        for event in events:
            if mapped.takes(event):
                payload = event.payload
                kind, target = (("plan", payload["rate_plan_id"]) if "rate_plan_id" in payload
                                else ("room", payload["room_type_id"]))
                span = (date.fromisoformat(payload["date_from"]), date.fromisoformat(payload["date_to"]))
                closing = None
                if payload.get("closed"):
                    closing = (Closing.named(payload) if "room_type_code" in payload
                               else mapped.closing(kind, target))
                items.append(Change(kind, target, span, closing))
        return cls(items)


def merged(ranges: Ranges) -> Ranges:
    """Overlapping and adjacent ranges as one."""
    result: Ranges = []
    for first, last in sorted(ranges):
        if result and first <= result[-1][1] + ONE_DAY:
            result[-1] = (result[-1][0], max(last, result[-1][1]))
        else:
            result.append((first, last))
    return result


def without(ranges: Ranges, cuts: Ranges) -> Ranges:
    """The nights of `ranges` that are in none of `cuts`."""
    for cut_first, cut_last in cuts:
        left: Ranges = []
        for first, last in ranges:
            if last < cut_first or first > cut_last:
                left.append((first, last))
                continue
            if first < cut_first:
                left.append((first, cut_first - ONE_DAY))
            if last > cut_last:
                left.append((cut_last + ONE_DAY, last))
        ranges = left
    return ranges


@dataclass(frozen=True)
class Closed:
    closing: Closing
    date_from: date
    date_to: date


@dataclass(frozen=True)
class Read:
    rooms: list[Span]  # values: the availability
    plans: list[Span]  # values: a night's row, backend/inventory/stays.py ROW_FIELDS
    plan_of: dict[str, Plan]  # the plans read, for their currency and occupancy
    closed: list[Closed] = field(default_factory=list)  # room types first, then plans


class Resolved:
    """The changes of one batch in order: per target, the ranges to read; per entity the channel sees, the ranges to
    close. A read removes its nights from its entity's closings, a closing from the reads of its entity."""

    def __init__(self, mapped: Mapped) -> None:
        self.mapped = mapped
        self.opened: dict[tuple[str, str], Ranges] = defaultdict(list)
        self.closed: dict[tuple[Any, ...], tuple[Closing, Ranges]] = {}
        self.reading: dict[tuple[Any, ...], set[tuple[str, str]]] = defaultdict(set)  # entity: the targets read under it

    def open(self, kind: str, target_id: str, ranges: Ranges) -> None:
        entity = self.mapped.closing(kind, target_id).entity
        self.opened[(kind, target_id)] += ranges
        self.reading[entity].add((kind, target_id))
        if entity in self.closed:
            closing, shut = self.closed[entity]
            self.closed[entity] = (closing, without(shut, ranges))

    def close(self, closing: Closing, ranges: Ranges) -> None:
        _, shut = self.closed.get(closing.entity, (closing, []))
        self.closed[closing.entity] = (closing, shut + ranges)
        for key in self.reading.get(closing.entity, ()):
            self.opened[key] = without(self.opened[key], ranges)

    def reads(self, kind: str) -> dict[str, Ranges]:
        return {target: cut for (k, target), ranges in self.opened.items() if k == kind and (cut := merged(ranges))}

    def closings(self) -> list[Closed]:
        found = [Closed(closing, first, last) for closing, ranges in self.closed.values()
                 for first, last in merged(ranges)]
        return sorted(found, key=lambda c: (c.closing.kind != "room", c.closing.entity, c.date_from))


class Reader:
    def __init__(self, store: Store, calendar: Calendar, clock: Callable[[], datetime]) -> None:
        self.store, self.calendar, self.clock = store, calendar, clock

    def read(self, mapped: Mapped, changes: Changes) -> Read:
        now = self.clock()
        windows = windows_of(self.store, {item.closing.property_id if item.closing else
                                          _target(mapped, item).property_id for item in changes.items}, now)
        resolved = Resolved(mapped)
        for item in changes.items:
            if item.closing is not None:
                window = windows.get(item.closing.property_id)
                since = window.today if window else now.astimezone(UTC).date() - ONE_DAY  # its property is gone
                if item.span[1] >= since:
                    resolved.close(item.closing, [(max(item.span[0], since), item.span[1])])
                continue
            window = windows.get(_target(mapped, item).property_id)
            if window is None:
                continue
            shut, open_ = _split(item.span, window)
            if shut:
                resolved.close(mapped.closing(item.kind, item.target_id), shut)
            if open_:
                resolved.open(item.kind, item.target_id, open_)
        rooms, plans = resolved.reads("room"), resolved.reads("plan")
        closed = resolved.closings()
        bounds = [day for ranges in (*rooms.values(), *plans.values()) for day in (ranges[0][0], ranges[-1][1])]
        if not bounds:
            return Read([], [], {}, closed)
        first, last = min(bounds).isoformat(), max(bounds).isoformat()
        found = self.calendar.plans(plans)
        nights = self.calendar.restrictions(Scope(tuple(found)), first, last, found.values()) if found else {}
        existing = self.calendar.rooms(rooms) if rooms else {}
        available = self.calendar.availability(Scope(tuple(existing)), first, last) if existing else {}
        if available:  # as the channel's availability rules leave it (backend/inventory/channel_rules.py)
            ChannelRules.of(self.store, [mapped.channel_id], first, last).apply([mapped.channel_id], available)
        return Read([span for room_id in mapped.rooms if room_id in existing
                     for span in collapse(room_id, _each(available.get(room_id, {}), rooms[room_id], 0))],
                    [span for plan_id in mapped.plans if plan_id in found
                     for span in collapse(plan_id, _each(nights[plan_id], plans[plan_id]))],
                    found, closed)


def windows_of(store: Store, property_ids: set[str], now: datetime) -> dict[str, Window]:
    """The nights each property sells now (a property that is gone has none)."""
    ids = list(property_ids)
    return {row["id"]: window_of(row, now) for row in properties_in(store.conn, ids)} if ids else {}


def _target(mapped: Mapped, item: Change) -> Target:
    return mapped.plans[item.target_id] if item.kind == "plan" else mapped.rooms[item.target_id]


def _split(span: tuple[date, date], window: Window) -> tuple[Ranges, Ranges]:
    """The nights of a range the channel is told are closed (closed by the cut-off: today up to the first open
    night) and those it is told the values of (the first open night up to today + state_length); the rest, past or
    beyond the window, is not sent."""
    first, last = span
    end = window.end - ONE_DAY
    shut = [(max(first, window.today), min(last, window.first - ONE_DAY))]
    open_ = [(max(first, window.first), min(last, end))]
    return [r for r in shut if r[0] <= r[1]], [r for r in open_ if r[0] <= r[1]]


def _each(nights: Mapping[str, Any], ranges: Ranges, default: Any = None) -> Iterator[tuple[date, Any]]:
    """Each day of the ranges with its value (a plan's `Nightly` gives its weekday's defaults by itself)."""
    for first, last in ranges:
        for day in days(first, last + ONE_DAY):
            yield day, nights.get(day.isoformat(), default)
