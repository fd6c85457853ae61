"""Turning what a form holds into what the engine takes, and back. No widgets here."""

from __future__ import annotations

from typing import Any


def int_or_raw(text: str) -> int | str:
    """A whole number when the text is one; otherwise the text itself, for the engine to reject by name."""
    stripped = text.strip()
    try:
        return int(stripped)
    except ValueError:
        return text


def blank_to_none(text: str) -> str | None:
    return text.strip() or None


def get_path(data: dict[str, Any], path: str) -> Any:
    """`get_path(p, "settings.state_length")`: the value at a dotted path, or None where it stops."""
    value: Any = data
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for part in parents:
        data = data.setdefault(part, {})
    data[last] = value


def keep_order(chosen: list[str], stored: list[str]) -> list[str]:
    """Chosen items that were stored keep their stored order; newly chosen ones follow as listed."""
    rank = {item: index for index, item in enumerate(stored)}
    return sorted(chosen, key=lambda item: rank.get(item, len(rank)))
