"""Consecutive days with the same values, as one range: a year of one rate is one value, not 365."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class Span:
    """One room type's or rate plan's values over date_from..date_to, both days included."""

    target_id: str
    date_from: date
    date_to: date
    values: Any  # a room type's availability (int), a rate plan's night (tuple: backend/inventory/stays.py ROW_FIELDS)


def collapse(target_id: str, nights: Iterable[tuple[date, Hashable]]) -> list[Span]:
    """The nights (in date order, each day once) as ranges of consecutive days with equal values."""
    spans: list[Span] = []
    first: date | None = None
    last: date | None = None
    values: Hashable = None
    for day, value in nights:
        if last is not None and value == values and last + ONE_DAY == day:
            last = day
            continue
        if first is not None and last is not None:
            spans.append(Span(target_id, first, last, values))
        first = last = day
        values = value
    if first is not None and last is not None:
        spans.append(Span(target_id, first, last, values))
    return spans
