"""Run a pydantic input model and report its failures as one 422 with dotted field names."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from backend.core.errors import BadRequest, ValidationFailed

M = TypeVar("M", bound=BaseModel)

# Friendlier words for pydantic's most common complaints; the rest keep pydantic's own text.
MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not a known field",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "list_type": "must be a list",
    "model_type": "must be an object",
    "dict_type": "must be an object",
    "model_attributes_type": "must be an object",
    "decimal_type": "must be a number",
    "decimal_parsing": "must be a number",
}


def validate(model: type[M], data: Any, context: dict[str, Any] | None = None) -> M:
    if not isinstance(data, dict):
        raise BadRequest(["the entity must be a JSON object"])
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise ValidationFailed(details_of(exc)) from None


def validate_partly(model: type[M], data: dict[str, Any], context: dict[str, Any] | None = None,
                    stand_ins: dict[str, Any] | None = None) -> tuple[M | None, dict[str, list[str]]]:
    """The model and every problem of the data. Where fields fail, the model is made again without them (a failed
    required field takes its stand-in), so that the rules that read other records can still judge the fields that
    passed and one answer names every problem; None when even that fails. The caller drops what those rules say
    about the failed fields (`failed`): the stand-ins are no one's input."""
    try:
        return model.model_validate(data, context=context), {}
    except ValidationError as exc:
        details = details_of(exc)
    bad = failed(details)
    rest = {k: v for k, v in data.items() if k not in bad} | {k: v for k, v in (stand_ins or {}).items() if k in bad}
    try:
        return model.model_validate(rest, context=context), details
    except ValidationError:
        return None, details


def failed(details: dict[str, list[str]]) -> set[str]:
    """The top-level fields that problems name: `options` for `options.1.rate`."""
    return {path.split(".")[0] for path in details}


def as_input(model: type[BaseModel], record: dict[str, Any]) -> dict[str, Any]:
    """A stored record in the shape that create accepts: its read-only and derived keys left out."""
    return {k: v for k, v in record.items() if k in model.model_fields}


def as_sent(details: dict[str, list[str]], renames: dict[str, str]) -> dict[str, list[str]]:
    """Problems of an input alias under the name the client sent: `renames` maps a path the engine checks to the
    one sent (`content.photos` → `photos`, so `content.photos.0.url` → `photos.0.url`); the first that fits wins."""
    renamed: dict[str, list[str]] = {}
    for field, messages in details.items():
        for checked, sent in renames.items():
            if field == checked or field.startswith(checked + "."):
                field = sent + field[len(checked):]
                break
        renamed.setdefault(field, []).extend(messages)
    return renamed


def details_of(exc: ValidationError) -> dict[str, list[str]]:
    details: dict[str, list[str]] = {}
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "base"
        details.setdefault(field, []).append(_message(error))
    return details


def _message(error: ErrorDetails) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    if kind in {"greater_than_equal", "greater_than"}:
        return f"must be at least {ctx.get('ge', ctx.get('gt'))}"
    if kind in {"less_than_equal", "less_than"}:
        return f"must be at most {ctx.get('le', ctx.get('lt'))}"
    if kind == "string_too_short":
        return f"must be at least {ctx.get('min_length')} characters"
    if kind == "too_long":
        return f"must have at most {ctx.get('max_length')} items"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected')}"
    return MESSAGES.get(kind, error["msg"])
