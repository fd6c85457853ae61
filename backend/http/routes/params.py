"""OpenAPI descriptions of the list query parameters, which the routes read through ListQuery."""

from __future__ import annotations

from typing import Any


def list_params(*filters: str, bools: tuple[str, ...] = ()) -> dict[str, Any]:
    params: list[dict[str, Any]] = [
        {"name": "pagination[page]", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "pagination[limit]", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    ]
    for name in filters:
        params.append({"name": f"filter[{name}]", "in": "query", "schema": {"type": "string"}})
        params.append({"name": f"filter[{name}][has]", "in": "query", "schema": {"type": "string"}})
    for name in bools:
        params.append({"name": f"filter[{name}]", "in": "query", "schema": {"type": "boolean"}})
    return {"parameters": params}
