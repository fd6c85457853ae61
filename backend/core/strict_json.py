"""Strict JSON for every request body: what a lenient reader would guess at is refused, with one 400.

UTF-8 only, no duplicate keys (two readers could take different card numbers from one object: the last
`card_number` would win in one, the first in another), no NaN or Infinity, no number too large to read
or write back (an integer of over 4,300 digits, `1e999999`), nesting capped, size capped. Lone surrogate
escapes ("\\ud800") are refused too, as they are not text and could be neither stored nor sent, and so is
the NUL character ("\\u0000"), which no field of ours means and PostgreSQL can neither store nor compare in text
(a 422 naming the first field that holds one, as the field's own rules name it: inside the body's envelope); both
are taken where a message only passes through (the card vault gives it back as it came). Messages name the
problem, never the content.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pydantic_core import PydanticSerializationError, to_json

from backend.core.errors import BadRequest, PayloadTooLarge, ValidationFailed

MAX_DEPTH = 64
TOO_LARGE = "the body holds a number too large to read"
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # how a surrogate, paired or not, is written in JSON
NUL_ESCAPE = b"\\u0000"  # how a NUL is written in JSON (a raw one is no JSON at all)
CONTAINERS = (dict, list)  # exactly what json.loads makes: compared by type(), the fastest test


class _Refused(ValueError):
    pass


def read_json(body: bytes, max_bytes: int, *, passing_through: bool = False) -> Any:
    if len(body) > max_bytes:
        raise PayloadTooLarge([f"the body is larger than {max_bytes} bytes"])
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(["the body must be UTF-8"]) from None
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_constant=_constant, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise BadRequest([f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"]) from None
    except _Refused as exc:
        raise BadRequest([str(exc)]) from None
    except RecursionError:
        raise BadRequest([f"the body nests deeper than {MAX_DEPTH} levels"]) from None
    except ValueError:  # Python's own cap on reading an integer (4,300 digits)
        raise BadRequest([TOO_LARGE]) from None
    if not _within(data, MAX_DEPTH):
        raise BadRequest([f"the body nests deeper than {MAX_DEPTH} levels"])
    if passing_through:
        return data
    if SURROGATE_ESCAPE.search(body) and not _is_text(data):
        raise BadRequest(["the body holds a lone surrogate escape, which is not text"])
    if NUL_ESCAPE in body and (where := _nul_at(data)) is not None:
        inside = where[1:] if isinstance(data, dict) and len(data) == 1 and len(where) > 1 else where  # the envelope
        raise ValidationFailed.one(".".join(map(str, inside)) or "body", "must not hold a NUL character")
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


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999999 would come back as Infinity, which is not JSON
        raise _Refused(TOO_LARGE)
    return value


def _is_text(data: Any) -> bool:
    """Whether every string is text: a lone surrogate can't be UTF-8 (a pair was joined by the reader)."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _nul_at(data: Any) -> tuple[str | int, ...] | None:
    """Where the first key or string holding a NUL is (the escape found may be a backslash's, `\\\\u0000`)."""
    if type(data) is str:
        return () if "\0" in data else None
    items = data.items() if type(data) is dict else enumerate(data) if type(data) is list else ()
    for key, value in items:
        if isinstance(key, str) and "\0" in key:
            return (key.replace("\0", ""),)
        if (inner := _nul_at(value)) is not None:
            return (key, *inner)
    return None


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
