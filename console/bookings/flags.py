"""The flags the engine puts on an OTA booking it took as sent (it overbooked, or names a room or rate the property
does not have): a mark for the list and words for the booking's page, which read without colour."""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.text import Text


class Flag(NamedTuple):
    field: str  # the booking's attribute
    mark: str
    words: str
    meaning: str
    style: str


FLAGS = (Flag("is_overbooked", "⚠", "overbooked", "sold with no room free for it", "bold red"),
         Flag("is_unmapped", "?", "unmapped", "a room or rate matches nothing here", "bold yellow"))


def flags_of(booking: dict[str, Any]) -> list[Flag]:
    return [flag for flag in FLAGS if booking.get(flag.field)]


def marks(booking: dict[str, Any]) -> Text:
    """"⚠?": one mark a flag, nothing when there is none."""
    return Text.assemble(*((flag.mark, flag.style) for flag in flags_of(booking)))


def explained(booking: dict[str, Any]) -> Text:
    """Each flag with what it means, one a line."""
    return Text("\n").join(Text.assemble((f"{flag.mark} {flag.words}", flag.style), f": {flag.meaning}")
                           for flag in flags_of(booking))
