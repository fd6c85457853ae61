"""The values of what some events say changed, read when they leave, never when they were written: the events only
name ranges, so a batch sent late carries today's values, and a later change is never overwritten by an older one.

Ranges of one plan or room type merge (ten events over overlapping weeks read each night once), are cut to the
property's window (nothing before its today, nothing from today + state_length on), and are read through the
engine's own ARI reads (backend/inventory/calendar.py): a night without values of its own reads its weekday's
defaults, a derived plan's nights are computed from its parent's. Consecutive days with the same values collapse
into one range.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from backend.dates import days
from backend.distribution.collapse import ONE_DAY, Span, collapse
from backend.distribution.mapped import Mapped
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.stays import Plan
from backend.inventory.window import Window, window_of
from backend.outbox.deliverer import Event
from storage import Store

Ranges = list[tuple[date, date]]  # sorted, disjoint, both days included


@dataclass(frozen=True)
class Changes:
    """The days each mapped room type and rate plan changed on, as the channel's events say."""

    rooms: dict[str, Ranges]
    plans: dict[str, Ranges]

    @classmethod
    def of(cls, events: Iterable[Event], mapped: Mapped) -> Changes:
        rooms: dict[str, Ranges] = defaultdict(list)
        plans: dict[str, Ranges] = defaultdict(list)
        for event in events:
            if mapped.takes(event):
                payload = event.payload
                changed = (date.fromisoformat(payload["date_from"]), date.fromisoformat(payload["date_to"]))
                if "rate_plan_id" in payload:
                    plans[payload["rate_plan_id"]].append(changed)
                else:
                    rooms[payload["room_type_id"]].append(changed)
        return cls({k: merged(v) for k, v in rooms.items()}, {k: merged(v) for k, v in plans.items()})


def merged(ranges: Ranges) -> Ranges:
    """Overlapping and adjacent ranges as one."""
    result: Ranges = []
    for first, last in sorted(ranges):
        if result and first <= result[-1][1] + ONE_DAY:
            result[-1] = (result[-1][0], max(last, result[-1][1]))
        else:
            result.append((first, last))
    return result


@dataclass(frozen=True)
class Read:
    rooms: list[Span]  # values: the availability
    plans: list[Span]  # values: a night's row, backend/inventory/stays.py ROW_FIELDS
    plan_of: dict[str, Plan]  # the plans read, for their currency and occupancy


class Reader:
    def __init__(self, store: Store, calendar: Calendar, clock: Callable[[], datetime]) -> None:
        self.store, self.calendar, self.clock = store, calendar, clock

    def read(self, mapped: Mapped, changes: Changes) -> Read:
        windows = windows_of(self.store, {mapped.rooms[i].property_id for i in changes.rooms} |
                             {mapped.plans[i].property_id for i in changes.plans}, self.clock())
        rooms = {room_id: cut for room_id, ranges in changes.rooms.items()
                 if (cut := _within(ranges, windows.get(mapped.rooms[room_id].property_id)))}
        plans = {plan_id: cut for plan_id, ranges in changes.plans.items()
                 if (cut := _within(ranges, windows.get(mapped.plans[plan_id].property_id)))}
        bounds = [day for ranges in (*rooms.values(), *plans.values()) for day in (ranges[0][0], ranges[-1][1])]
        if not bounds:
            return Read([], [], {})
        first, last = min(bounds).isoformat(), max(bounds).isoformat()
        found = self.calendar.plans(plans)
        nights = self.calendar.restrictions(Scope(tuple(found)), first, last, found.values()) if found else {}
        existing = self.calendar.rooms(rooms) if rooms else {}
        available = self.calendar.availability(Scope(tuple(existing)), first, last) if existing else {}
        return Read([span for room_id in mapped.rooms if room_id in existing
                     for span in collapse(room_id, _each(available.get(room_id, {}), rooms[room_id], 0))],
                    [span for plan_id in mapped.plans if plan_id in found
                     for span in collapse(plan_id, _each(nights[plan_id], plans[plan_id]))],
                    found)


def windows_of(store: Store, property_ids: set[str], now: datetime) -> dict[str, Window]:
    """The nights each property sells now (a property that is gone has none)."""
    ids = list(property_ids)
    return {row["id"]: window_of(row, now) for row in store.query(
        f"SELECT * FROM properties WHERE id IN ({','.join('?' * len(ids))})", ids)} if ids else {}


def _within(ranges: Ranges, window: Window | None) -> Ranges:
    """The ranges cut to the property's window (none when the property is gone)."""
    if window is None:
        return []
    end = window.end - ONE_DAY
    return [(max(first, window.today), min(last, end)) for first, last in ranges
            if last >= window.today and first <= end]


def _each(nights: Mapping[str, Any], ranges: Ranges, default: Any = None) -> Iterator[tuple[date, Any]]:
    """Each day of the ranges with its value (a plan's `Nightly` gives its weekday's defaults by itself)."""
    for first, last in ranges:
        for day in days(first, last + ONE_DAY):
            yield day, nights.get(day.isoformat(), default)
