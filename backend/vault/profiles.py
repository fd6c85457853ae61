"""Tokenisation profiles: how card data is found in a third-party message and where its token goes.

A profile is checked and every selector compiled when it is saved; a bad one is a 422 naming the
field (`card_node.card_number.selector`), all problems in one answer. What is kept is the create
shape (`stored()`), which compiles again quickly (`compiled_from_stored`, selectors cached by text).

Selectors: `schema.message_node` from the document root; `schema.card_node`, the placement nodes,
the error node and `schema.departure_node` from the message node; the `card_node` fields from the
card node. In a relative JSONPath `$` and `@` both stand for that node. JSON placement nodes are
field names (created when missing); XML ones end in a plain name (`ota:CardNumber/@Token`), an
attribute or child element created when missing under the one element their parent path finds,
or else must find exactly one existing node.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from backend.core.errors import ValidationFailed
from backend.core.validation import validate
from backend.vault import selectors
from backend.vault.selectors import Namespaces, Substring, XmlTarget

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9._-]*")
BUILTIN_NAMES = frozenset({"frontdesk", "frontdesk_entity"})
# Sent back by clients that PUT what they read; ignored rather than rejected.
READ_ONLY = frozenset({"id", "built_in", "created_at", "updated_at"})
FIELDS = ("card_number", "cardholder_name", "expiration_month", "expiration_year", "service_code")
SENSITIVE = frozenset({"card_number", "service_code"})  # masked in the message; holder and expiry stay


def _context(info: ValidationInfo) -> dict[str, Any]:
    return info.context or {}


def _name(value: str, info: ValidationInfo) -> str:
    if not NAME.fullmatch(value):
        raise ValueError("must be 1 to 64 letters, digits, '_' or '-' (it goes into the capture URL)")
    if value in BUILTIN_NAMES and not _context(info).get("builtin"):
        raise ValueError("is the name of a built-in profile")
    return value


def _selector(value: str, info: ValidationInfo) -> str:
    context = _context(info)
    if context.get("type") == "json":
        selectors.jsonpath(value)
    elif context.get("type") == "xml":
        selectors.xpath(value, context["namespaces"])
    return value


def _node(value: str, info: ValidationInfo) -> str:
    context = _context(info)
    if context.get("type") == "json":
        selectors.field_path(value)
    elif context.get("type") == "xml":
        selectors.xml_target(value, context["namespaces"])
    return value


def _transformation(value: str) -> str:
    return str(Substring.parse(value))


Expression = Annotated[StrictStr, Field(min_length=1, max_length=1000)]
Selector = Annotated[Expression, AfterValidator(_selector)]
Node = Annotated[Expression, AfterValidator(_node)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SelectorIn(Strict):
    selector: Selector


class FieldIn(Strict):
    selector: Selector
    transformation: Annotated[StrictStr, AfterValidator(_transformation)] | None = None


class SchemaIn(Strict):
    message_node: SelectorIn
    card_node: SelectorIn
    # Frontdesk's own addition: the guest's departure date (YYYY-MM-DD at the start of the value; the
    # latest one when several match), after which the vault lets the card go.
    departure_node: SelectorIn | None = None


class PlacementIn(Strict):
    type: Literal["card_node", "headers"]
    node: Node | None = Field(None, validate_default=True)  # so that a missing one is checked
    error_node: Node | None = None

    @model_validator(mode="before")
    @classmethod
    def _read_shape(cls, value: Any) -> Any:
        """Returned profiles call the node card_token_node; either name is accepted."""
        if isinstance(value, dict) and "card_token_node" in value:
            if "node" in value:
                raise ValueError("give node or card_token_node, not both")
            value = {("node" if k == "card_token_node" else k): v for k, v in value.items()}
        return value

    @field_validator("node", "error_node", mode="after")
    @classmethod
    def _used_by_card_node(cls, value: str | None, info: ValidationInfo) -> str | None:
        placement = info.data.get("type")
        if value is None and info.field_name == "node" and placement == "card_node":
            raise ValueError("is required when type is card_node")
        if value is not None and placement == "headers":
            raise ValueError("is only used when type is card_node")
        return value


class CardNodeIn(Strict):
    """The number and the expiry are needed to charge a card; the holder and the CVV often are not sent."""

    card_number: FieldIn
    cardholder_name: FieldIn | None = None
    expiration_month: FieldIn
    expiration_year: FieldIn
    service_code: FieldIn | None = None


class ProfileIn(Strict):
    """The create and update body (the inner object of `{"tokenization_profile": {...}}`)."""

    name: Annotated[StrictStr, AfterValidator(_name)]
    type: Literal["json", "xml"]
    schema_: SchemaIn = Field(alias="schema")
    card_token_placement: PlacementIn
    card_node: CardNodeIn
    namespaces: dict[StrictStr, Annotated[StrictStr, Field(min_length=1, max_length=1000)]] | None = None

    @field_validator("namespaces")
    @classmethod
    def _xml_prefixes(cls, value: dict[str, str] | None, info: ValidationInfo) -> dict[str, str] | None:
        if value and info.data.get("type") == "json":
            raise ValueError("are only used by xml profiles")
        bad = [prefix for prefix in value or {} if not PREFIX.fullmatch(prefix)]
        if bad:
            raise ValueError(f"prefixes must be XML names: {', '.join(sorted(bad))}")
        return value


class ProfileEnvelope(BaseModel):
    """Request body of create and update (documentation only: compile_profile checks the inner object)."""

    tokenization_profile: ProfileIn


@dataclass(frozen=True)
class FieldRule:
    name: str
    selector: Any  # a compiled JSONPath or XPath
    cut: Substring | None


@dataclass(frozen=True, eq=False)
class CompiledProfile:
    """A profile ready to run: every selector compiled. Immutable, so it can be cached and shared."""

    name: str
    type: Literal["json", "xml"]
    message_node: Any
    card_node: Any
    departure_node: Any | None
    placement: Literal["card_node", "headers"]
    token_node: tuple[str, ...] | XmlTarget | None
    error_node: tuple[str, ...] | XmlTarget | None
    fields: tuple[FieldRule, ...]
    source: dict[str, Any]

    def stored(self) -> dict[str, Any]:
        """The create shape, to keep in the database and to give to `compiled_from_stored`."""
        return copy.deepcopy(self.source)

    def public(self) -> dict[str, Any]:
        """`name` and `profile` of the returned attributes; the placement node is called card_token_node."""
        source = self.source
        placement = source["card_token_placement"]
        profile: dict[str, Any] = {
            "type": source["type"],
            "schema": copy.deepcopy(source["schema"]),
            "card_token_placement": {"type": placement["type"], "card_token_node": placement.get("node"),
                                     "error_node": placement.get("error_node")},
            "card_node": {name: _public_field(source["card_node"].get(name)) for name in FIELDS},
        }
        if source["type"] == "xml":
            profile["namespaces"] = dict(source.get("namespaces") or {})
        return {"name": source["name"], "profile": profile}


def compile_profile(data: Any, *, builtin: bool = False) -> CompiledProfile:
    """Check a create or update body and compile it; ValidationFailed lists every problem.
    The shape that GET returns (`profile` nested, `card_token_node`) is accepted too."""
    data = _create_shape(data)
    kind = data.get("type") if isinstance(data, dict) else None
    context = {"type": kind if kind in ("json", "xml") else None,
               "namespaces": _usable_namespaces(data.get("namespaces") if isinstance(data, dict) else None),
               "builtin": builtin}
    model = validate(ProfileIn, data, context=context)
    return compiled_from_stored(model.model_dump(by_alias=True, exclude_none=True))


def compiled_from_stored(stored: dict[str, Any]) -> CompiledProfile:
    """Build from `stored()` without checking it again: it was checked when it was saved."""
    kind = stored["type"]
    namespaces: Namespaces = tuple(sorted((stored.get("namespaces") or {}).items()))
    target: Callable[[str], Any]
    if kind == "json":
        def select(expression: str, writable: bool = True) -> Any:
            return selectors.jsonpath(expression)

        target = selectors.field_path
    else:
        def select(expression: str, writable: bool = True) -> Any:
            return selectors.xpath(expression, namespaces, writable)

        def target(expression: str) -> Any:
            return selectors.xml_target(expression, namespaces)
    schema, placement = stored["schema"], stored["card_token_placement"]
    fields = tuple(FieldRule(name, select(rule["selector"], name in SENSITIVE),
                             Substring.parse(rule["transformation"]) if rule.get("transformation") else None)
                   for name, rule in stored["card_node"].items())
    return CompiledProfile(
        name=stored["name"], type=kind,
        message_node=select(schema["message_node"]["selector"]),
        card_node=select(schema["card_node"]["selector"]),
        departure_node=(select(schema["departure_node"]["selector"], False) if schema.get("departure_node")
                        else None),
        placement=placement["type"],
        token_node=target(placement["node"]) if placement.get("node") else None,
        error_node=target(placement["error_node"]) if placement.get("error_node") else None,
        fields=fields, source=copy.deepcopy(stored))


def _create_shape(data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    data = {k: v for k, v in data.items() if k not in READ_ONLY}
    inner = data.get("profile")
    if isinstance(inner, dict):
        clash = sorted(data.keys() & inner.keys())
        if clash:
            raise ValidationFailed({name: ["give it inside profile or beside it, not both"] for name in clash})
        data = {**{k: v for k, v in data.items() if k != "profile"}, **inner}
    return data


def _usable_namespaces(value: Any) -> Namespaces:
    """The well-formed prefixes, so that XPaths are checked against them even while another
    prefix is being reported as bad."""
    if not isinstance(value, dict):
        return ()
    return tuple(sorted((k, v) for k, v in value.items()
                        if isinstance(k, str) and isinstance(v, str) and v and PREFIX.fullmatch(k)))


def _public_field(rule: dict[str, str] | None) -> dict[str, str | None] | None:
    return None if rule is None else {"selector": rule["selector"], "transformation": rule.get("transformation")}
