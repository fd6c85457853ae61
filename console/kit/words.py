"""How every area writes counts, times, sizes and parties of guests: one way each, pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime

CHANNELS = {"BookingCom": "Booking.com", "AirBNB": "Airbnb"}  # the channels guests write from, as staff name them
PARTY = (("adults", "adult", "adults"), ("children", "child", "children"), ("infants", "infant", "infants"))


def channel(code: str) -> str:
    """"Booking.com" for BookingCom; a channel of another code as it is."""
    return CHANNELS.get(code, code)


def counted(count: int | str, noun: str, plural: str | None = None) -> str:
    """"1 night", "2,000 nights", "3 children": a count and its noun (`plural` where an s is wrong).
    A count typed into a form comes as text and is shown as typed."""
    shown = f"{count:,}" if isinstance(count, int) else count
    return f"{shown} {noun if str(count) == '1' else plural or noun + 's'}"


def listed(names: list[str], most: int = 3) -> str:
    """"Anna", "Anna and Ben", "Anna, Ben and 2 more": names in a sentence, the first `most` of them."""
    if len(names) <= most:
        return " and ".join(filter(None, (", ".join(names[:-1]), names[-1]))) if names else ""
    return f"{', '.join(names[:most])} and {len(names) - most} more"


def party(occupancy: Mapping[str, int | str]) -> str:
    """"2 adults, 1 child": adults always; children and infants only when there are some."""
    parts = [counted(occupancy.get(key, 0), one, many) for key, one, many in PARTY
             if key == "adults" or str(occupancy.get(key) or "0") != "0"]
    return ", ".join(parts)


def stamp(value: str) -> datetime:
    """The engine's timestamps are UTC without a zone."""
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def day(value: str) -> str:
    """A date as staff read it: "5 Feb 2027"."""
    return date.fromisoformat(value).strftime("%-d %b %Y")


def one_line(text: str) -> str:
    """A text's words on one line, for a preview."""
    return " ".join(text.split())


def when(value: str) -> str:
    """A moment as staff read it: "22 Nov 08:30" (UTC, as the engine keeps it)."""
    return stamp(value).strftime("%-d %b %H:%M")


def size(count: int) -> str:
    """A file's size: "512 B", "3.4 KB", "1.2 MB"."""
    for unit in ("B", "KB", "MB"):
        if count < 1024 or unit == "MB":
            return f"{count} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError
