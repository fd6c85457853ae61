"""OpenAPI descriptions of the list query parameters, which the routes read through ListQuery."""

from __future__ import annotations

from typing import Any


def list_params(*filters: str, bools: tuple[str, ...] = (), views: dict[str, tuple[str, ...]] | None = None
                ) -> dict[str, Any]:
    """`views`: filters that take one of some values, or several with commas (`filter[stay]=in_house`)."""
    params: list[dict[str, Any]] = [
        {"name": "pagination[page]", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "pagination[limit]", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    ]
    for name in filters:
        params.append({"name": f"filter[{name}]", "in": "query", "schema": {"type": "string"}})
        params.append({"name": f"filter[{name}][has]", "in": "query", "schema": {"type": "string"}})
    for name in bools:
        params.append({"name": f"filter[{name}]", "in": "query", "schema": {"type": "boolean"}})
    for name, values in (views or {}).items():
        params.append({"name": f"filter[{name}]", "in": "query", "schema": {"type": "string", "enum": list(values)}})
    return {"parameters": params}
