"""A parsed message, JSON or XML, whose nodes are found by compiled selectors and replaced in place.

Both kinds offer the same few operations to the tokeniser: the message nodes, the nodes a relative
selector finds under a node, a node's text, replacing it, and a writer for a placement node.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from jsonpath_ng import jsonpath as jp
from lxml import etree

from backend.core.card_data import json_named_values
from backend.core.errors import PayloadTooLarge
from backend.core.strict_json import CONTAINERS, dump_json, read_json
from backend.vault.selectors import WILDCARD, XmlTarget
from backend.vault.xmlsafe import dump_xml, read_xml

Writer = Callable[[str], None]
# What one message may hold, so that its memory stays within a few times its size (an 8 MiB message of a million
# empty objects once took 1.8 GB): objects and arrays; elements and attributes; values, for a profile whose selectors
# jsonpath-ng must find. Each is several times what a message of 8 MiB of bookings or reservations holds.
MAX_CONTAINERS = 500_000
MAX_MARKUP = 500_000
MAX_VALUES = 500_000


class NotText(Exception):
    """The selector found an object, a list or an element tree where a text value belongs."""


class Unplaceable(Exception):
    """A placement node that neither exists once nor can be created; the message says why, without commas."""


@dataclass(slots=True)
class JsonNode:
    value: Any
    container: dict[str, Any] | list[Any]  # the root sits in a one-item list, so that every node has one
    key: str | int


class JsonDocument:
    def __init__(self, body: bytes, max_bytes: int) -> None:
        if len(body) <= max_bytes and body.count(b"{") + body.count(b"[") > MAX_CONTAINERS:
            raise PayloadTooLarge([f"the message holds more than {MAX_CONTAINERS:,} objects and arrays "
                                   "(counted by their brackets)"])
        self.box = [read_json(body, max_bytes, passing_through=True)]  # given back as it came
        self.root = JsonNode(self.box[0], self.box, 0)
        self._values: int | None = None

    def messages(self, selector: jp.JSONPath) -> Iterable[JsonNode]:
        return self._found(selector, self.root)  # a null message node too: it keeps its position

    def select(self, selector: jp.JSONPath, node: JsonNode) -> list[JsonNode]:
        """Matches from `node`; a null counts as no value."""
        return [each for each in self._found(selector, node) if each.value is not None]

    def _found(self, selector: jp.JSONPath, node: JsonNode) -> Iterable[JsonNode]:
        """`$` and `@` give the node itself; everything else is a field or an item of its container. A plain path
        is walked as it goes (a message's nodes one by one); jsonpath-ng makes an object of every value it passes,
        all at once, so it takes messages of MAX_VALUES at most."""
        if selector.plan is not None:  # type: ignore[attr-defined]  # kept on the path by selectors.jsonpath
            return _walk(selector.plan, node)  # type: ignore[attr-defined]  # as above
        self._within_values()
        found = []
        for match in selector.find(node.value):
            if match.context is None:
                found.append(node)
            else:
                path = match.path
                key = path.fields[0] if isinstance(path, jp.Fields) else cast(jp.Index, path).indices[0]
                found.append(JsonNode(match.value, match.context.value, key))
        return found

    def _within_values(self) -> None:
        if self._values is None:
            self._values = _values(self.box[0])
        if self._values > MAX_VALUES:
            raise PayloadTooLarge([f"the message holds more than {MAX_VALUES:,} values: a profile whose selectors "
                                   "are more than names and [*] takes no more"])

    def text(self, node: JsonNode) -> str:
        value = node.value
        if isinstance(value, str):
            return value
        if isinstance(value, int) and not isinstance(value, bool):  # a card number or CVV sent as a number
            return str(value)
        raise NotText

    def replace(self, node: JsonNode, text: str) -> None:
        container: Any = node.container  # a dict by its key, a list by its index
        container[node.key] = node.value = text

    def slot(self, node: JsonNode) -> Hashable:
        return id(node.container), node.key

    def writer(self, keys: tuple[str, ...], message: JsonNode) -> Writer:
        """Field names from the message node; missing objects on the way are created."""
        place = message.value
        for key in keys[:-1]:
            place = place.setdefault(key, {}) if isinstance(place, dict) else None
        if not isinstance(place, dict):
            raise Unplaceable("has no object to go into")
        return partial(place.__setitem__, keys[-1])  # lighter than a closure: a message may hold 50,000 cards

    encoding = None  # dumped as JSON: UTF-8

    def dump(self) -> bytes:
        return dump_json(self.box[0])

    @staticmethod
    def scan_text(dumped: bytes) -> str:
        return dumped.decode("utf-8", "replace")  # dump_json writes UTF-8 only

    def named_values(self) -> Iterator[tuple[str, str]]:
        return json_named_values(self.box[0])


def _walk(plan: tuple[str | None, ...], node: JsonNode) -> Iterable[JsonNode]:
    """What jsonpath-ng finds for a plan: a field name finds nothing unless the node is an object that has the field;
    WILDCARD finds every item of a list or value of an object, in order."""
    for index, key in enumerate(plan):
        container = node.value
        if key is WILDCARD:
            return _fan(plan[index + 1:], container)
        if type(container) is not dict or key not in container:
            return ()
        node = JsonNode(container[key], container, key)
    return (node,)


def _fan(rest: tuple[str | None, ...], container: Any) -> Iterator[JsonNode]:
    items = enumerate(container) if type(container) is list else container.items() if type(container) is dict else ()
    for key, value in items:
        yield from _walk(rest, JsonNode(value, container, key))


def _values(document: Any) -> int:
    """How many values the document holds, level by level as strict_json measures its depth."""
    count, level = 1, [document]
    while level:
        level = [child for each in level if type(each) in CONTAINERS
                 for child in (each.values() if type(each) is dict else each)]
        count += len(level)
    return count


class XmlDocument:
    """Nodes are elements (their own text is their value) or lxml's smart strings for attributes and
    text nodes, which know their element."""

    def __init__(self, body: bytes, max_bytes: int) -> None:
        # libxml2 takes some 250 bytes a node: the tags and attributes are counted before it parses.
        if len(body) <= max_bytes and body.count(b"<") - body.count(b"</") + body.count(b"=") > MAX_MARKUP:
            raise PayloadTooLarge([f"the message holds more than {MAX_MARKUP:,} elements and attributes "
                                   "(counted by their < and =)"])
        self.root = read_xml(body, max_bytes)

    def messages(self, selector: etree.XPath) -> list[Any]:
        return cast(list[Any], selector(self.root))

    def select(self, selector: etree.XPath, node: Any) -> list[Any]:
        return selector(node) if isinstance(node, etree._Element) else []

    def text(self, node: Any) -> str:
        if isinstance(node, etree._Element):
            return node.text or ""
        if isinstance(node, str):
            return str(node)
        raise NotText

    def replace(self, node: Any, text: str) -> None:
        if isinstance(node, etree._Element):
            node.text = text
        elif node.is_attribute:
            node.getparent().set(node.attrname, text)
        elif node.is_tail:
            node.getparent().tail = text
        else:
            node.getparent().text = text

    def slot(self, node: Any) -> Hashable:
        # The element itself is part of the key, which keeps lxml's proxy for it (and its identity) alive.
        # An element and its text node share a slot: both are its .text.
        if isinstance(node, etree._Element):
            return node, False
        return node.getparent(), node.attrname if node.is_attribute else node.is_tail

    def writer(self, target: XmlTarget, message: Any) -> Writer:
        if target.find is not None:
            found = self.select(target.find, message)
            if len(found) != 1:
                raise Unplaceable(f"matches {len(found)} nodes where one is expected")
            if not isinstance(found[0], etree._Element | str):
                raise Unplaceable("matches a node that holds no text")
            return lambda text: self.replace(found[0], text)
        parents = [message] if target.parent is None else self.select(target.parent, message)
        if len(parents) != 1:
            raise Unplaceable(f"has {len(parents)} elements to go into where one is expected")
        if not isinstance(parents[0], etree._Element):
            raise Unplaceable("has no element to go into")
        parent, name = parents[0], cast(str, target.name)  # a target without a parent has a name
        if target.attribute:
            return lambda text: parent.set(name, text)
        children = parent.findall(name)
        if len(children) > 1:
            raise Unplaceable(f"matches {len(children)} elements where one is expected")
        child = children[0] if children else None
        return lambda text: setattr(child if child is not None else etree.SubElement(parent, name), "text", text)

    def dump(self) -> bytes:
        return dump_xml(self.root)

    @property
    def encoding(self) -> str:
        return self.root.getroottree().docinfo.encoding or "utf-8"

    def scan_text(self, dumped: bytes) -> str:
        return dumped.decode(self.encoding, "replace")

    def named_values(self) -> Iterator[tuple[str, str]]:
        """Every text, tail and attribute, with the local name of the element that holds it; comments and
        processing instructions, before and after the root too, under no name."""
        root = self.root
        for top in (*root.itersiblings(preceding=True), root, *root.itersiblings()):
            for node in top.iter():
                name = etree.QName(node).localname if isinstance(node.tag, str) else ""
                parent = node.getparent()
                if node.text:
                    yield name, node.text
                if node.tail:
                    yield etree.QName(parent).localname if parent is not None else "", node.tail
                for attribute, value in node.attrib.items():
                    yield etree.QName(attribute).localname, value
