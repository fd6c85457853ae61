"""The sellable index: which stays each channel can sell, kept so that the shopping property list over thousands of
properties reads one row per property instead of pricing every rate plan (backend/shopping/service.py).

A row is a shopping channel, an arrival date, a property and a kind of offer — the rate plan's currency, its room's
occupancy limits and its largest option — with `nights`, whose bit n-1 says that some mapped plan of that kind passes
every rule of backend/inventory/stays.py `open_rates` for a stay of n nights from that date (up to MAX_NIGHTS), but the
property's window: that moves with the clock, so the row carries the property's facts for it (time zone, cut-off,
state_length) and the reader applies them. Derived plans are read as pricing reads them (their parents' nights
through their modifiers). A plan sells a party when the room holds it and an option is large enough, which the
reader asks of the kind's limits.

Rows are kept only for active properties connected to the channel, so that the index alone tells which properties
a channel can sell a stay at, and how many. Beside them, `channel_sold_counts` keeps how many active properties each
shopping channel is connected to: the total of the list's plain pages, which would otherwise count every row.

`refresh` (and `recount`, for the counts) are the one writer. Every change the rows read from calls it in the
change's own transaction, under the property's write scope or unscoped (backend/core/scopes.py), so the index is
never older than what it indexes: ARI writes and their undo, a booking's rooms taken or given back (nights first to
last: the arrivals whose stays could read them), a room type or rate plan made, changed or deleted, a channel's
connections and mappings, a property's settings or active flag (every night), an availability rule made, changed or
deleted (backend/inventory/availability_rules.py). A channel that a rule names reads the room type's nights as the
rule leaves them for it (backend/inventory/channel_rules.py). `rebuild` makes it whole again (the
data step of databases from before it, backend/upgrades/).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, cast
from weakref import WeakKeyDictionary

from pydantic_core import from_json

from backend.core.dates import days
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.channel_rules import ChannelRules, nights_seen
from backend.inventory.stays import R_CTA, R_CTD, R_MAX, R_MSA, R_MST, R_RATE, R_STOP, Plan
from backend.inventory.store import (
    all_channel_ids,
    all_property_ids,
    count_sold,
    mapped_plans_of,
    plan_properties,
    property_channel_ids,
    property_row_in,
    put_sellable,
    restriction_span,
)
from storage import Row, Store

MAX_NIGHTS = 30  # the longest stay the index answers for; longer ones are priced (each write reindexes this far back)
# The channels that shop (meta channels: backend/channels/service.py, backend/shopping/): the only ones whose
# property list reads the index, so the only ones it is kept for.
SHOPPING_CODES = ("OpenShopping",)
# A store's calendar, whose parsed rate plans (kept by version: never stale) each write would otherwise parse again.
_calendars: WeakKeyDictionary[Store, Calendar] = WeakKeyDictionary()


@dataclass(frozen=True)
class Read:
    """What a caller read of a property in the open transaction and has not changed since, which `refresh` then does
    not ask for again: its row, and its availability rules (ChannelRules.of_property) when it read them."""

    prop: Row
    rules: ChannelRules | None = None


def refresh(store: Store, property_ids: Iterable[str], first: str | None = None, last: str | None = None, *,
            read: Mapping[str, Read] | None = None) -> None:
    """The index rows of these properties made again from what the open transaction reads: of the arrivals whose
    stays could read nights first to last, or of every arrival without them. `read`: by property, what the caller
    read of it (`Read`)."""
    calendar = _calendars.get(store)
    if calendar is None:
        calendar = _calendars[store] = Calendar(store)
    for property_id in dict.fromkeys(property_ids):
        _refresh(store, calendar, property_id, first, last, (read or {}).get(property_id))


def recount(store: Store, channel_ids: Iterable[str]) -> None:
    """These channels' counts of the active properties connected to them, counted again in the open transaction."""
    count_sold(store.conn, list(dict.fromkeys(channel_ids)), SHOPPING_CODES)


def properties_of(store: Store, plan_ids: Iterable[str]) -> list[str]:
    """The properties of these rate plans (those a mapping change touches)."""
    return plan_properties(store.conn, list(plan_ids))


def channels_of(store: Store, property_id: str) -> list[str]:
    """The channels whose counts a change of the property's being sold changes."""
    return property_channel_ids(store.conn, property_id)


def rebuild(store: Store) -> int:
    """Every property's rows and every channel's count made again, in the caller's transaction; how many
    properties."""
    ids = all_property_ids(store.conn)
    refresh(store, ids)
    recount(store, all_channel_ids(store.conn))
    return len(ids)


def _refresh(store: Store, calendar: Calendar, property_id: str, first: str | None, last: str | None,
             read: Read | None) -> None:
    conn = store.conn
    prop = read.prop if read is not None else property_row_in(conn, property_id)
    found = mapped_plans_of(conn, property_id, SHOPPING_CODES) if prop is not None else []
    mappings = [(channel_id, plan_id) for channel_id, plan_id, *_ in found]
    plans = calendar.plans_at(dict.fromkeys((plan_id, stamp) for _, plan_id, stamp, _, _ in found))
    rooms = calendar.rooms_at(dict.fromkeys((room_id, stamp) for *_, room_id, stamp in found))
    parents = {p.parent_id for p in plans.values() if p.parent_id}
    if first is None:
        span_low, span_high = restriction_span(conn, list(plans.keys() | parents)) if plans else (None, None)
        arrivals = (date.fromisoformat(span_low), date.fromisoformat(span_high)) if span_low and span_high else None
    else:
        arrivals = date.fromisoformat(first) - timedelta(days=MAX_NIGHTS), date.fromisoformat(cast(str, last))
    rows: list[tuple[Any, ...]] = []
    if arrivals is not None and plans and prop is not None:
        settings = from_json(prop["settings"])
        facts = (prop["timezone"] or "", settings["cut_off_time"], settings["cut_off_days"], settings["state_length"])
        keys = [d.isoformat() for d in days(arrivals[0], arrivals[1] + timedelta(days=MAX_NIGHTS + 1))]
        nights = calendar.restrictions(Scope(tuple(plans)), keys[0], keys[-1], plans.values())
        availability = calendar.availability(Scope(tuple(rooms)), keys[0], keys[-1])
        count = (arrivals[1] - arrivals[0]).days + 1
        kinds: dict[tuple[Any, ...], list[int]] = {}
        available = {room_id: [availability.get(room_id, {}).get(k, 0) for k in keys] for room_id in rooms}
        masks = {plan_id: _masks(plan, [nights[plan_id][k] for k in keys], available[plan.room_type_id],
                                 settings["min_stay_type"], count)
                 for plan_id, plan in plans.items()}
        rules = read.rules if read is not None and read.rules is not None else ChannelRules.of_property(conn, property_id)
        for channel_id, plan_id in mappings:
            plan, room = plans[plan_id], rooms[plans[plan_id].room_type_id]
            kind = (channel_id, plan.currency, room.occ_adults, room.occ_children, room.occ_infants,
                    max(occupancy for occupancy, _ in plan.options))
            merged = kinds.setdefault(kind, [0] * count)
            own = masks[plan_id]
            if rules.touch(channel_id, room.id):  # the channel sees fewer rooms than there are
                seen = nights_seen(rules, channel_id, room.id, keys, available[room.id])
                own = _masks(plan, [nights[plan_id][k] for k in keys], seen, settings["min_stay_type"], count)
            for index, mask in enumerate(own):
                merged[index] |= mask
        for (channel_id, *party), merged in kinds.items():
            rows += [(channel_id, keys[index], property_id, *party, mask, *facts)
                     for index, mask in enumerate(merged) if mask]
    lower, upper = (arrivals[0].isoformat(), arrivals[1].isoformat()) if first is not None and arrivals else (None, None)
    put_sellable(conn, property_id, lower, upper, rows)


def _masks(plan: Plan, rows: list[tuple[Any, ...]], available: list[int], min_stay_type: str, count: int) -> list[int]:
    """Per arrival (the first `count` of the nights), the stay lengths the plan can sell from it as bits: the rules
    of `open_rates` on every night, computed at once for a run of open nights, night by night only where a closed
    to departure or a min stay through lies within reach."""
    total = len(rows)
    run = [0] * (total + 1)  # open nights in a row from each one
    for i in range(total - 1, -1, -1):
        row = rows[i]
        if available[i] > 0 and row[R_RATE] is not None and not row[R_STOP]:
            run[i] = run[i + 1] + 1
    ctd, through = [0] * (total + 1), [0] * (total + 1)  # how many nights before each close to departure / need more
    for i, row in enumerate(rows):
        ctd[i + 1] = ctd[i] + bool(row[R_CTD])
        through[i + 1] = through[i] + (row[R_MST] > 1)
    arrival_rule, through_rule = min_stay_type != "through", min_stay_type != "arrival"
    masks = [0] * count
    for i in range(count):
        first = rows[i]
        if not run[i] or first[R_CTA]:
            continue
        shortest = max(first[R_MSA], 1) if arrival_rule else 1
        longest = min(run[i], MAX_NIGHTS, first[R_MAX] or MAX_NIGHTS)
        if shortest > longest:
            continue
        if ctd[i + longest + 1] == ctd[i + shortest] and (not through_rule or through[i + longest] == through[i]):
            masks[i] = (1 << longest) - (1 << (shortest - 1))
            continue
        mask, needed = 0, 1
        for n in range(1, longest + 1):
            needed = max(needed, rows[i + n - 1][R_MST])
            if n >= shortest and not rows[i + n][R_CTD] and (not through_rule or needed <= n):
                mask |= 1 << (n - 1)
        masks[i] = mask
    return masks
