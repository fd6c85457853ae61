"""A date as staff type it: 2026-12-24, 24 Dec, Dec 24, 24/12, 24.12.2026, +7, -3, today, tomorrow.

Day before month where it is all numbers (24/12, as Europe writes it); a month by its name or its first three
letters, in English. Without a year, always forward in time: the next such day from today on (24 Dec in November
is this December, 5 Jan is next January, 20 Nov two days ago is next year's: staff plan ahead). A sign counts days
from today. The one parser of every date field of the console; no widgets here.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
FURTHEST = 5 * 366  # days either side of today: further is a typing slip, not a date anyone plans for
EXAMPLES = "2026-12-24, 24 Dec, 24/12 or +7"

ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
NUMBERS = re.compile(r"(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2}|\d{4}))?\.?")
NAMED = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\.?\s*([a-z]+)\.?(?:\s+(\d{4}))?|([a-z]+)\.?\s*(\d{1,2})(?:st|nd|rd|th)?"
                   r"(?:,?\s+(\d{4}))?")
OFFSET = re.compile(r"([+-])\s*(\d{1,5})\s*(?:d|days?)?")
WORDS = {"today": 0, "tomorrow": 1, "yesterday": -1}


class NotADate(ValueError):
    """What is wrong with the text, as a sentence for staff."""


def typed_date(text: str, today: date) -> date:
    """The date the text means, or NotADate saying why not."""
    typed = " ".join(text.strip().lower().split())
    if not typed:
        raise NotADate(f"Type a date: {EXAMPLES}")
    if typed in WORDS:
        return today + timedelta(days=WORDS[typed])
    if match := OFFSET.fullmatch(typed):
        days = int(match.group(2)) * (1 if match.group(1) == "+" else -1)
        return _near(today + timedelta(days=days) if abs(days) <= FURTHEST else None, today, text)
    if match := ISO.fullmatch(typed):
        return _near(_real(int(match.group(1)), int(match.group(2)), int(match.group(3)), text), today, text)
    if match := NUMBERS.fullmatch(typed):
        day, month, year = match.groups()
        return _dated(int(day), int(month), _year(year), today, text)
    if match := NAMED.fullmatch(typed):
        day, name, year = (match.group(1), match.group(2), match.group(3)) if match.group(1) else (
            match.group(5), match.group(4), match.group(6))
        month = next((index + 1 for index, full in enumerate(MONTHS) if len(name) >= 3 and full.startswith(name)),
                     None)
        if month is None:
            raise NotADate(f"“{name}” is not a month: type one as Jan, Feb, … or January, February, …")
        return _dated(int(day), month, _year(year), today, text)
    raise NotADate(f"“{text.strip()}” is not a date: type {EXAMPLES}")


def _year(text: str | None) -> int | None:
    if text is None:
        return None
    return int(text) + 2000 if len(text) == 2 else int(text)


def _dated(day: int, month: int, year: int | None, today: date, text: str) -> date:
    if year is not None:
        return _near(_real(year, month, day, text), today, text)
    # The first from today on of this year's and the next few (a 29 February only where there is one).
    candidates = [found for found in (_maybe(today.year + step, month, day) for step in range(5)) if found]
    if not candidates:
        return _real(today.year, month, day, text)  # not a real date in any year: this raises, saying why
    return next(found for found in candidates if found >= today)


def _maybe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _real(year: int, month: int, day: int, text: str) -> date:
    if not 1 <= month <= 12:
        raise NotADate(f"“{text.strip()}” has no month {month}: day first, then month (24/12)")
    found = _maybe(year, month, day)
    if found is None:
        raise NotADate(f"There is no {day} {MONTHS[month - 1][:3].title()} {year}")
    return found


def _near(found: date | None, today: date, text: str) -> date:
    if found is None or abs((found - today).days) > FURTHEST:
        raise NotADate(f"“{text.strip()}” is more than five years away")
    return found


def typed_iso(text: str, today: date) -> str:
    """A form's date field as the engine takes it (`YYYY-MM-DD`); blank stays blank, and what is not a date goes
    as typed, for the engine to refuse beside the field."""
    if not text.strip():
        return ""
    try:
        return typed_date(text, today).isoformat()
    except NotADate:
        return text.strip()
