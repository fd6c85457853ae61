"""Hardened XML for messages that carry card data.

No DTD of any kind: a DOCTYPE is refused before parsing when it stands in the prolog (the usual
place), and after parsing wherever else the parser met it, so no external entity (XXE) is ever
fetched and no entity expands (billion laughs). No network, no huge trees, size capped. Depth is
capped by libxml2 itself at 256 levels while huge_tree is off: a lower cap of our own would need a
walk over the tree costing a third of the parse. Messages give a position, never the content.
"""

from __future__ import annotations

import re
from typing import cast

from lxml import etree

from backend.core.errors import BadRequest, PayloadTooLarge

MAX_DEPTH = 256  # libxml2's limit without XML_PARSE_HUGE
# Up to the first element: the XML declaration, comments, processing instructions and a DOCTYPE.
PROLOG = re.compile(rb"[^<]*(?:<[?!][^<]*)*")
NO_DOCTYPE = "the body must not have a DOCTYPE: DTDs and entities are refused"


def read_xml(body: bytes, max_bytes: int) -> etree._Element:
    if len(body) > max_bytes:
        raise PayloadTooLarge([f"the body is larger than {max_bytes} bytes"])
    if b"<!DOCTYPE" in cast(re.Match[bytes], PROLOG.match(body)).group():  # it matches every body, if only emptily
        raise BadRequest([NO_DOCTYPE])
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False)  # a parser per call: lxml parsers are not thread-safe
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise BadRequest([_syntax_message(exc)]) from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None:
        raise BadRequest([NO_DOCTYPE])
    return root


def dump_xml(root: etree._Element) -> bytes:
    tree = root.getroottree()
    return etree.tostring(tree, xml_declaration=True, encoding=tree.docinfo.encoding or "UTF-8")


def _syntax_message(exc: etree.XMLSyntaxError) -> str:
    # libxml2's own text may quote names from the body; only its kind and position are passed on.
    if "Excessive depth" in str(exc):
        return f"the body nests deeper than {MAX_DEPTH} levels"
    if "amplification" in str(exc) or "entity" in str(exc).lower():
        return "the body must not declare or use entities"
    line, column = exc.position
    return f"the body is not well-formed XML (line {line} column {column})"
