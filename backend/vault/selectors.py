"""Selectors and transformations of a profile, compiled once and cached by their text.

Each compiler raises ValueError with a message for the profile's 422, so a bad selector is refused
when the profile is saved, never while a message is on its way through. Compiled selectors are
immutable and shared between threads (lxml serialises evaluations of one XPath object itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from jsonpath_ng import jsonpath as jp
from jsonpath_ng.exceptions import JSONPathError
from jsonpath_ng.ext.filter import Filter
from jsonpath_ng.ext.parser import parse as parse_jsonpath
from lxml import etree

Namespaces = tuple[tuple[str, str], ...]  # hashable, for the cache

SUBSTRING = re.compile(r"substring:\s*([0-9]{1,6})\s*,\s*([0-9]{1,6})\s*")
# The last step of an XML placement node when it is a plain name, so that a missing node can be created.
LAST_STEP = re.compile(r"(?:(?P<parent>.*\S)\s*/\s*)?(?P<attribute>@)?(?P<name>[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)")
# Steps whose matches are places in the message. Anything else (length, keys, arithmetic, string
# functions, sorting) computes new values: whatever it read could be neither masked nor replaced.
# `parent` is left out because it fails on the node that a relative selector starts from, and `&`
# because jsonpath-ng does not implement it. A filter's expressions, and the right side of `where`,
# are conditions: they are never part of a result.
SELECTING = (jp.Root, jp.This, jp.Fields, jp.Wildcard, jp.Index, jp.Slice, Filter)
COMBINING = (jp.Child, jp.Descendants, jp._Union)
FILTERING = (jp.Where, jp.WhereNot)
WILDCARD = None  # a step of a JSON plan: every item or value


@dataclass(frozen=True)
class Substring:
    """`substring:<start>,<end>`: zero-based start, exclusive end, clipped to the value's length."""

    start: int
    end: int

    @classmethod
    def parse(cls, text: str) -> Substring:
        match = SUBSTRING.fullmatch(text)
        if not match or int(match[1]) >= int(match[2]):
            raise ValueError("must be substring:<start>,<end> with whole numbers and start below end")
        return cls(int(match[1]), int(match[2]))

    def span(self, length: int) -> tuple[int, int]:
        return min(self.start, length), min(self.end, length)

    def __str__(self) -> str:
        return f"substring:{self.start},{self.end}"


@dataclass(frozen=True)
class XmlTarget:
    """Where a token or an error goes in an XML message node. When the expression ends in a plain
    name (`ota:CardNumber/@Token`), that attribute or child element of the one element `parent`
    finds (None: the message node itself), created when missing. Otherwise the one existing node
    that `find` finds."""

    find: etree.XPath | None
    parent: etree.XPath | None
    name: str | None  # Clark notation
    attribute: bool


@lru_cache(maxsize=1024)
def jsonpath(expression: str) -> jp.JSONPath:
    try:
        compiled = parse_jsonpath(expression)
    except (JSONPathError, ValueError, TypeError) as exc:
        raise ValueError(f"is not a valid JSONPath: {exc}") from None
    if not _selects(compiled):
        raise ValueError("must select values of the message: functions, arithmetic, sorting, `parent` and `&` "
                         "are not supported")
    # A plain path of field names and wildcards (most selectors: `$.data[*]`, `attributes.guarantee`, `card_number`)
    # is walked by dict lookups (JsonDocument): jsonpath-ng's find costs ~20 µs a call, a dozen a card, and makes an
    # object for every value it passes, which a message of a million values would hold all at once.
    compiled.plan = _plan(compiled)  # type: ignore[attr-defined]  # our walk's plan, kept on jsonpath-ng's path
    return compiled


@lru_cache(maxsize=1024)
def field_path(expression: str) -> tuple[str, ...]:
    """A JSON placement node: field names from the message node, created when missing."""
    keys = _field_names(jsonpath(expression))
    if not keys:
        raise ValueError("must be a path of field names from the message node, e.g. attributes.guarantee.token")
    return keys


@lru_cache(maxsize=1024)
def xpath(expression: str, namespaces: Namespaces, writable: bool = True) -> etree.XPath:
    """Compiled, then tried on an empty document: that finds undefined prefixes and unknown
    functions now, and tells a node-set (a place in the message) from a computed value.
    Only a writable selector gets lxml's smart strings, which know the element of an attribute or
    text node: they cost more than the rest of evaluating a short path."""
    try:
        compiled = etree.XPath(expression, namespaces=dict(namespaces), regexp=False, smart_strings=writable)
        probe = compiled(etree.Element("probe"))
    except etree.XPathError as exc:
        raise ValueError(f"is not a valid XPath: {exc}") from None
    if isinstance(probe, list):
        return compiled
    raise ValueError("must select nodes of the message (elements, attributes or text), not compute a value")


@lru_cache(maxsize=1024)
def xml_target(expression: str, namespaces: Namespaces) -> XmlTarget:
    find = xpath(expression, namespaces)  # checked whole, even when only its parent path is used
    last = LAST_STEP.fullmatch(expression.strip())
    if last is None:
        return XmlTarget(find, None, None, False)
    parent = xpath(last["parent"], namespaces) if last["parent"] else None
    prefix, _, local = last["name"].rpartition(":")
    uri = dict(namespaces).get(prefix) if prefix else None
    return XmlTarget(None, parent, f"{{{uri}}}{local}" if uri else local, bool(last["attribute"]))


def _selects(node: jp.JSONPath) -> bool:
    if type(node) in SELECTING:  # exact types: the string functions and sorting subclass This
        return True
    either: Any = node  # each of these classes has its `left`, and a combination its `right` too
    if type(node) in COMBINING:
        return _selects(either.left) and _selects(either.right)
    if type(node) in FILTERING:
        return _selects(either.left)
    return False


def _field_names(node: jp.JSONPath) -> tuple[str, ...] | None:
    plan = _plan(node)
    return None if plan is None or WILDCARD in plan else cast(tuple[str, ...], plan)  # no wildcard: names alone


def _plan(node: jp.JSONPath) -> tuple[str | None, ...] | None:
    """Field names and WILDCARD (every item of a list, every value of an object), from the node a selector starts at;
    None for anything else (filters, slices, descendants, unions), which jsonpath-ng finds."""
    if type(node) in (jp.Root, jp.This):
        return ()
    if type(node) is jp.Fields and len(node.fields) == 1 and node.fields[0] != "*":
        return node.fields
    if type(node) is jp.Wildcard:
        return (WILDCARD,)
    if type(node) is jp.Child:
        left, right = _plan(node.left), _plan(node.right)
        return None if left is None or right is None else left + right
    return None
