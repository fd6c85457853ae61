"""What is written for a property or for every property of a group (saved replies, message rules): the choice of
whom it is for, as the dialogs offer it, and the engine's fields for it."""

from __future__ import annotations

from typing import Any

GROUP, PROPERTY = "group:", "property:"  # the scope select's values: a group's id or a property's, so marked


def scopes(groups: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """What it may be for, as the select offers it: every property of each group, then each property."""
    whole = [(f"Every property of {g['title']}", GROUP + g["id"]) for g in groups if g["properties"]]
    one = sorted(((p["title"], PROPERTY + p["id"]) for g in groups for p in g["properties"]), key=lambda o: o[0])
    return whole + one


def scope_of(row: dict[str, Any]) -> str:
    return PROPERTY + row["property_id"] if row["property_id"] else GROUP + row["group_id"]


def scope_fields(scope: str) -> dict[str, str]:
    """The engine's field for a scope value."""
    kind, _, scope_id = scope.partition(":")
    return {f"{kind}_id": scope_id}
