"""Guests in words, as the shopping and booking screens both say them: "2 adults, 1 child"."""

from __future__ import annotations

from collections.abc import Mapping

PLURALS = {"adult": "adults", "child": "children", "infant": "infants"}


def counted(count: int | str, noun: str) -> str:
    return f"{count} {noun if str(count) == '1' else PLURALS[noun]}"


def party(occupancy: Mapping[str, int | str]) -> str:
    """Adults always; children and infants only when there are some."""
    parts = [counted(occupancy.get("adults", 0), "adult")]
    parts += [counted(occupancy[key], noun) for key, noun in (("children", "child"), ("infants", "infant"))
              if str(occupancy.get(key) or "0") != "0"]
    return ", ".join(parts)
