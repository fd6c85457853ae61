"""Strict JSON for messages that carry card data: what a lenient reader would guess at is refused.

UTF-8 only, no duplicate keys (two readers could take different card numbers from one object),
no NaN or Infinity, nesting capped, size capped. Messages name the problem, never the content.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import PydanticSerializationError, to_json

from backend.errors import BadRequest, PayloadTooLarge

MAX_DEPTH = 64
CONTAINERS = (dict, list)  # exactly what json.loads makes: compared by type(), the fastest test


class _Refused(ValueError):
    pass


def read_json(body: bytes, max_bytes: int) -> Any:
    if len(body) > max_bytes:
        raise PayloadTooLarge([f"the body is larger than {max_bytes} bytes"])
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(["the body must be UTF-8"]) from None
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise BadRequest([f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"]) from None
    except _Refused as exc:
        raise BadRequest([str(exc)]) from None
    except RecursionError:
        raise BadRequest([f"the body nests deeper than {MAX_DEPTH} levels"]) from None
    if not _within(data, MAX_DEPTH):
        raise BadRequest([f"the body nests deeper than {MAX_DEPTH} levels"])
    return data


def dump_json(data: Any) -> bytes:
    """Compact UTF-8. pydantic-core writes it in a third of json.dumps' time; a lone surrogate (from a
    "\\udXXX" escape in the input) cannot be UTF-8, so such a message goes through json.dumps, with
    backslashreplace writing it back as the same JSON escape, valid inside the string that holds it."""
    try:
        return to_json(data)
    except PydanticSerializationError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Refused("the body has an object with a duplicate key")
    return result


def _constant(name: str) -> Any:
    raise _Refused(f"the body holds {name}, which is not JSON")


def _within(value: Any, levels: int) -> bool:
    """Whether no container nests deeper than `levels`. Level by level, each one list comprehension:
    a recursive walk cost more than the parse itself on a page of bookings."""
    level = [value] if type(value) in CONTAINERS else []
    for _ in range(levels):
        if not level:
            return True
        level = [child for each in level for child in (each.values() if type(each) is dict else each)
                 if type(child) in CONTAINERS]
    return not level
