"""A parsed message, JSON or XML, whose nodes are found by compiled selectors and replaced in place.

Both kinds offer the same few operations to the tokeniser: the message nodes, the nodes a relative
selector finds under a node, a node's text, replacing it, and a writer for a placement node.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from jsonpath_ng import jsonpath as jp
from lxml import etree

from backend.card_data import json_named_values
from backend.strict_json import dump_json, read_json
from backend.vault.selectors import XmlTarget
from backend.vault.xmlsafe import dump_xml, read_xml

Writer = Callable[[str], None]


class NotText(Exception):
    """The selector found an object, a list or an element tree where a text value belongs."""


class Unplaceable(Exception):
    """A placement node that neither exists once nor can be created; the message says why, without commas."""


@dataclass(slots=True)
class JsonNode:
    value: Any
    container: dict | list  # the root sits in a one-item list, so that every node has one
    key: str | int


class JsonDocument:
    def __init__(self, body: bytes, max_bytes: int) -> None:
        self.box = [read_json(body, max_bytes, lone_surrogates=True)]  # given back as it came
        self.root = JsonNode(self.box[0], self.box, 0)

    def messages(self, selector: jp.JSONPath) -> list[JsonNode]:
        return self._found(selector, self.root)  # a null message node too: it keeps its position

    def select(self, selector: jp.JSONPath, node: JsonNode) -> list[JsonNode]:
        """Matches from `node`; a null counts as no value."""
        return [each for each in self._found(selector, node) if each.value is not None]

    def _found(self, selector: jp.JSONPath, node: JsonNode) -> list[JsonNode]:
        """`$` and `@` give the node itself; everything else is a field or an item of its container."""
        chain = selector.field_chain
        if chain is not None:
            return _walk(chain, node)
        found = []
        for match in selector.find(node.value):
            if match.context is None:
                found.append(node)
            else:
                path = match.path
                key = path.fields[0] if isinstance(path, jp.Fields) else path.indices[0]
                found.append(JsonNode(match.value, match.context.value, key))
        return found

    def text(self, node: JsonNode) -> str:
        value = node.value
        if isinstance(value, str):
            return value
        if isinstance(value, int) and not isinstance(value, bool):  # a card number or CVV sent as a number
            return str(value)
        raise NotText

    def replace(self, node: JsonNode, text: str) -> None:
        node.container[node.key] = node.value = text

    def slot(self, node: JsonNode) -> Hashable:
        return id(node.container), node.key

    def writer(self, keys: tuple[str, ...], message: JsonNode) -> Writer:
        """Field names from the message node; missing objects on the way are created."""
        place = message.value
        for key in keys[:-1]:
            place = place.setdefault(key, {}) if isinstance(place, dict) else None
        if not isinstance(place, dict):
            raise Unplaceable("has no object to go into")
        return lambda text: place.__setitem__(keys[-1], text)

    def dump(self) -> bytes:
        return dump_json(self.box[0])

    @staticmethod
    def scan_text(dumped: bytes) -> str:
        return dumped.decode("utf-8", "replace")  # dump_json writes UTF-8 only

    def named_values(self) -> Iterator[tuple[str, str]]:
        return json_named_values(self.box[0])


def _walk(chain: tuple[str, ...], node: JsonNode) -> list[JsonNode]:
    """What jsonpath-ng finds for a chain of field names: nothing unless every step is an object that
    has the field."""
    for key in chain:
        container = node.value
        if type(container) is not dict or key not in container:
            return []
        node = JsonNode(container[key], container, key)
    return [node]


class XmlDocument:
    """Nodes are elements (their own text is their value) or lxml's smart strings for attributes and
    text nodes, which know their element."""

    def __init__(self, body: bytes, max_bytes: int) -> None:
        self.root = read_xml(body, max_bytes)

    def messages(self, selector: etree.XPath) -> list[Any]:
        return selector(self.root)

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
        parent, name = parents[0], target.name
        if target.attribute:
            return lambda text: parent.set(name, text)
        children = parent.findall(name)
        if len(children) > 1:
            raise Unplaceable(f"matches {len(children)} elements where one is expected")
        child = children[0] if children else None
        return lambda text: setattr(child if child is not None else etree.SubElement(parent, name), "text", text)

    def dump(self) -> bytes:
        return dump_xml(self.root)

    def scan_text(self, dumped: bytes) -> str:
        return dumped.decode(self.root.getroottree().docinfo.encoding or "utf-8", "replace")

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
