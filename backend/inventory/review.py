"""What a range edit would change, worked out before it is made: how many nights, which room types and rate plans,
and for each value what the nights read now against what they would hold; and whether the edit is big enough to
ask first: more than ASK_ABOVE_NIGHTS nights (counted after the weekday filter and the selling window), or a rate
that moves by more than half, up or down, on any night that has one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, cast

from backend.core.money import format_minor
from backend.inventory.ranges import Planned
from backend.inventory.stays import ROW_FIELDS, Nightly

ASK_ABOVE_NIGHTS = 31
ASK_ABOVE_SHARE = Fraction(1, 2)  # of a night's rate
FLAGS = ("closed_to_arrival", "closed_to_departure", "stop_sell")


@dataclass(frozen=True)
class Span:
    """The values some nights hold, lowest and highest (rates as decimal strings); `blank`: some have none."""

    low: Any = None
    high: Any = None
    blank: bool = False


@dataclass(frozen=True)
class Change:
    field: str  # availability, rate, min_stay_arrival, …
    now: Span
    then: Span
    currency: str | None = None  # a rate's


@dataclass(frozen=True)
class RateJump:
    """The night whose rate moves the most, when that is more than ASK_ABOVE_SHARE of it."""

    day: str
    now: str
    then: str
    currency: str
    percent: int  # the change, rounded: -65 for 280.00 → 99.00


@dataclass(frozen=True)
class Review:
    nights: int
    first: date | None
    last: date | None
    rooms: tuple[str, ...]  # titles of the room types whose availability changes
    plans: tuple[str, ...]  # titles of the rate plans whose rates or restrictions change
    changes: tuple[Change, ...]
    rate_jump: RateJump | None
    warnings: list[dict[str, Any]]  # what the write would warn about (values not written, rates clamped)

    @property
    def many_nights(self) -> bool:
        return self.nights > ASK_ABOVE_NIGHTS

    @property
    def asks(self) -> bool:
        return self.many_nights or self.rate_jump is not None


def review_of(planned: list[Planned], availability: dict[str, dict[str, int]], nights: dict[str, Nightly],
           warnings: list[dict[str, Any]]) -> Review:
    """`availability` and `nights` are what the rooms and plans read now over the planned nights (`Calendar`)."""
    dates = sorted({d for value in planned for d in value.dates})
    values: dict[tuple[str, str | None], tuple[list[Any], list[Any]]] = {}
    jump: tuple[Fraction, RateJump] | None = None
    for value in planned:
        currency = value.target["currency"] if value.kind == "restrictions" else None
        for name, new in value.fields.items():
            now, then = values.setdefault((name, currency if name == "rate" else None), ([], []))
            for day in value.days:
                old = (availability.get(value.target["id"], {}).get(day, 0) if value.kind == "availability"
                       else nights[value.target["id"]][day][ROW_FIELDS.index(name)])
                now.append(bool(old) if name in FLAGS else old)
                then.append(bool(new) if name in FLAGS else new)
                if name == "rate" and old is not None and new is not None and old != new:
                    share = Fraction(abs(new - old), old) if old else Fraction(1)
                    if share > ASK_ABOVE_SHARE and (jump is None or share > jump[0]):
                        jump = (share, RateJump(day, format_minor(old, currency), format_minor(new, currency),
                                                cast(str, currency),  # a rate is a rate plan's: it has one
                                                round((new - old) * 100 / old) if old else 100))
    changes = tuple(Change(name, _span(now, currency), _span(then, currency), currency)
                    for (name, currency), (now, then) in values.items())
    return Review(len(dates), dates[0] if dates else None, dates[-1] if dates else None,
                  _titles(planned, "availability"), _titles(planned, "restrictions"), changes,
                  jump[1] if jump else None, warnings)


def _span(values: list[Any], currency: str | None) -> Span:
    known = [v for v in values if v is not None]
    if not known:
        return Span(blank=True)
    low, high = min(known), max(known)
    if currency is not None:
        low, high = format_minor(low, currency), format_minor(high, currency)
    return Span(low, high, len(known) < len(values))


def _titles(planned: list[Planned], kind: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(value.target["title"] for value in planned if value.kind == kind))
