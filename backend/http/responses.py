"""The response envelopes: `{"data": entity}` and `{"data": [entities], "meta": {...}}`."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

SUCCESS = {"meta": {"message": "Success"}}


def entity(kind: str, attributes: dict[str, Any], relationships: dict[str, Any] | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"id": attributes["id"], "type": kind, "attributes": attributes}
    if relationships:
        item["relationships"] = relationships
    return item


def one(item: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse({"data": item}, status_code=status)


def many(items: list[dict[str, Any]], meta: dict[str, Any] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"data": items}
    if meta is not None:
        body["meta"] = meta
    return JSONResponse(body)


def success() -> JSONResponse:
    return JSONResponse(SUCCESS)
