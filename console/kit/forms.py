"""Turning what a form holds into what the engine takes, and back. No widgets here."""

from __future__ import annotations

from typing import Any

from backend.core.dates import WEEKDAYS


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


def numbers_by_weekday(values: list[int]) -> str:
    """A weekday default as typed: seven alike are one number, else seven from Monday ("1 1 1 1 2 2 1")."""
    return str(values[0]) if len(set(values)) == 1 else " ".join(str(v) for v in values)


def numbers_from(text: str) -> int | list[int] | str:
    """"2" → 2, "1 1 1 1 2 2 1" → seven numbers; anything else as typed, for the engine to refuse by name."""
    words = text.replace(",", " ").split()
    if words and all(word.isdigit() for word in words):
        numbers = [int(word) for word in words]
        return numbers[0] if len(numbers) == 1 else numbers
    return text


def weekdays_of(flags: list[bool]) -> str:
    """[False] * 5 + [True, True] → "sa su": the weekdays a flag is on."""
    return " ".join(day for day, flag in zip(WEEKDAYS, flags, strict=True) if flag)


def flags_from(text: str) -> list[bool] | str:
    """"sa, su" → a flag per weekday from Monday; anything but weekdays as typed, for the engine to refuse."""
    words = {word.lower()[:2] for word in text.replace(",", " ").split()}
    if not words <= set(WEEKDAYS):
        return text
    return [day in words for day in WEEKDAYS]
