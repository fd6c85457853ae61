"""Calendar dates as the API writes them (YYYY-MM-DD), and a property's own "today"."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
WEEKDAYS = ("mo", "tu", "we", "th", "fr", "sa", "su")


def parse_date(value: object) -> date:
    """A strict YYYY-MM-DD date; ValueError with a message fit for a field error."""
    if not isinstance(value, str) or not DATE.match(value):
        raise ValueError("must be a date YYYY-MM-DD")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError("is not a real date") from None


def local_now(timezone: str | None, now: datetime) -> datetime:
    """The wall-clock time at the property (UTC when it has no time zone)."""
    zone = zoneinfo.ZoneInfo(timezone) if timezone else UTC
    return now.astimezone(zone)


def days(start: date, end: date) -> Iterator[date]:
    """Every date from start up to, not including, end."""
    for offset in range((end - start).days):
        yield start + timedelta(days=offset)


def utc_clock() -> datetime:
    return datetime.now(UTC)
