"""Tokenising a message with a profile: card data out, tokens in, card data masked in what is returned.

Two phases, so that the vault can keep every card of a message in one transaction:

1. Parse strictly, find every message node and its card node, extract, transform and check each
   field, mask the card number (first 6 and last 4 digits) and the CVV (`***`) in the message, and
   make sure the token has somewhere to go. Problems are per message node.
2. Call `issue` once with the valid cards and their guests' departures, in order, then place each
   token (and each error, when the profile has an error node).

Before anything is returned, the whole message is scanned for card data in clear (`card_data_left`):
a card the profile's selectors did not reach refuses the message rather than leaving with it.

Every message node has one position in `tokens`, `errors` and `warnings`: a node without a card
gets an empty token and the warning "no card"; a card that is present but can't be tokenised gets
an error there and no token, and is never passed to `issue`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, cast
from urllib.parse import quote

from pydantic_core import to_json

from backend.core.card_data import MASKED_CVV, card_data_left
from backend.core.errors import PayloadTooLarge, ValidationFailed
from backend.vault.cards import CardData, masked_number
from backend.vault.documents import JsonDocument, NotText, Unplaceable, Writer, XmlDocument
from backend.vault.profiles import SENSITIVE, CompiledProfile

Issue = Callable[[list[CardData], list[date | None]], list[str]]
HEADER = "X-PCI-FRONTDESK"
# Each header position is percent-encoded except for these, so a comma never splits a position and a
# non-ASCII character never breaks the header. Messages of our own read as plain text.
HEADER_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) not in ",%")
SEPARATOR = "; "  # between several errors or warnings of one message node
NO_CARD = ("no card",)  # the warnings of a message node without a card: one tuple for all of them
# The three per-position headers while they fit in this, names and all; beyond it, a summary header and the lists in
# the body. With the rest of an answer's headers the set stays under 8 KB, which every client takes (a header line
# over 8 or 64 KiB is refused by common clients and proxies): about 180 positions of tokens.
HEADER_BUDGET = 6 * 1024
# Message nodes a message may have: several times the reservations of 8 MiB; each is a position in three lists.
MAX_MESSAGES = 100_000
XML_DECLARATION = re.compile(r"\A<\?xml[^>]*\?>\s*")


@dataclass(frozen=True, slots=True)
class NodeReport:
    """One message node, for the console's profile tester: the card as extracted but masked."""

    position: int
    card: dict[str, str | None]  # empty when the node has no card
    token: str
    errors: tuple[str, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class Tokenised:
    """The message as tokenised, and for each of its message nodes (its position) a token, errors and warnings.
    Kept as three lists whose empty positions share one value, so that a message of many nodes without cards
    costs a few pointers a node."""

    body: bytes  # the message with card data masked and, with card_node placement, tokens in place
    tokens: list[str]
    node_errors: list[tuple[str, ...]]
    node_warnings: list[tuple[str, ...]]
    cards: dict[int, CardData] = field(default_factory=dict)  # the card of a node as extracted, by position
    encoding: str | None = None  # an XML message's own; None for JSON

    @property
    def errors(self) -> list[str]:
        return [SEPARATOR.join(errors) for errors in self.node_errors]

    @property
    def warnings(self) -> list[str]:
        return [SEPARATOR.join(warnings) for warnings in self.node_warnings]

    @property
    def nodes(self) -> tuple[NodeReport, ...]:
        return tuple(NodeReport(position, self.cards[position].masked() if position in self.cards else {}, *each)
                     for position, each in enumerate(zip(self.tokens, self.node_errors, self.node_warnings)))

    def headers(self) -> dict[str, str]:
        """The answer's headers: the three per-position lists while they fit in HEADER_BUDGET, else the summary."""
        listed = self._listed()
        return listed if listed is not None else {f"{HEADER}-SUMMARY": self._summary()}

    def answer(self, media_type: str) -> tuple[bytes, str, dict[str, str]]:
        """Body, media type and headers of the answer to tokenize or capture. Beyond HEADER_BUDGET the body is a JSON
        object: `message` (the tokenised message: JSON as such, XML as a string without its declaration) and
        `tokens`, `errors` and `warnings`, lists of one string per position, as the headers would have held them."""
        listed = self._listed()
        if listed is not None:
            return self.body, media_type, listed
        message = self.body if self.encoding is None else to_json(
            XML_DECLARATION.sub("", self.body.decode(self.encoding), count=1))
        body = b"".join((b'{"message":', message, b',"tokens":', to_json(self.tokens), b',"errors":',
                         to_json(self.errors), b',"warnings":', to_json(self.warnings), b"}"))
        return body, "application/json", {f"{HEADER}-SUMMARY": self._summary()}

    def _listed(self) -> dict[str, str] | None:
        if 3 * len(self.tokens) > HEADER_BUDGET:  # a comma a position in each: no need to build them
            return None
        listed = {f"{HEADER}-TOKENS": _header(self.tokens), f"{HEADER}-ERRORS": _header(self.errors),
                  f"{HEADER}-WARNINGS": _header(self.warnings)}
        return listed if sum(len(name) + len(value) + 4 for name, value in listed.items()) <= HEADER_BUDGET else None

    def _summary(self) -> str:
        """How many positions, tokens, errors and warnings (by kind: they are few and ours), and where the lists are."""
        kinds = Counter(warning for warnings in self.node_warnings for warning in warnings)
        return (f"positions={len(self.tokens)}; tokens={sum(1 for token in self.tokens if token)}; "
                f"errors={sum(1 for errors in self.node_errors if errors)}; "
                f"warnings={sum(1 for warnings in self.node_warnings if warnings)}"
                + (f" ({', '.join(f'{kind}: {n}' for kind, n in kinds.most_common())})" if kinds else "")
                + "; lists=body")


@dataclass(slots=True)
class _Node:
    """A message node with a card node, while the message is tokenised."""

    message: Any
    position: int
    extracted: CardData | None = None  # the first card node's fields, as the report shows them
    card: CardData | None = None  # normalised, once it is known to be valid
    departure: date | None = None
    place_token: Writer | None = None
    token: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: tuple[str, ...] = ()


@dataclass(slots=True)
class _Mask:
    node: Any
    raw: str
    cuts: list[tuple[int, int, str]]


class CardDataLeft(ValidationFailed):
    """The message would leave with card data in clear that the profile does not cut out: a 422 on the
    profile for tokenize; capture makes it a 502. `kind` says what ("a card number", "a security code"),
    never where or which."""

    def __init__(self, kind: str) -> None:
        super().__init__({"profile": [f"leaves {kind} in clear outside the cards it cuts out; nothing was kept"]})
        self.kind = kind


def tokenise(profile: CompiledProfile, body: bytes, issue: Issue, *, max_bytes: int, today: date | None = None,
             transaction: Callable[[], AbstractContextManager[Any]] = nullcontext) -> Tokenised:
    """`issue` gets the valid cards (normalised) with the departure of each one's message node (None
    when the profile or the node has none) and returns one token each, in order. It is called once
    per message, and not at all when no card is valid. Raises BadRequest or PayloadTooLarge for a
    body that is not acceptable JSON or XML, and CardDataLeft for one that would leave with a card
    in clear. Phase 2 runs inside `transaction()`: the vault's, so that a message refused at the last
    look takes its cards back out, while parsing stays outside it."""
    document = (JsonDocument if profile.type == "json" else XmlDocument)(body, max_bytes)
    today = today or datetime.now(UTC).date()
    examined, count = [], 0  # the message nodes with a card node; how many there are in all
    for count, message in enumerate(document.messages(profile.message_node), 1):
        if count > MAX_MESSAGES:
            raise PayloadTooLarge([f"the message has more than {MAX_MESSAGES:,} message nodes: send it in parts"])
        node = _examine(profile, document, message, count - 1, today)
        if node is not None:
            examined.append(node)
    with transaction():
        return _issue_and_place(profile, document, count, examined, issue)


def _issue_and_place(profile: CompiledProfile, document: Any, count: int, examined: list[_Node],
                     issue: Issue) -> Tokenised:
    valid = [node for node in examined if node.card is not None]
    tokens = issue([node.card for node in valid if node.card is not None], [node.departure for node in valid]) if valid else []
    if len(tokens) != len(valid):
        raise RuntimeError(f"issue() returned {len(tokens)} tokens for {len(valid)} cards")
    for node, token in zip(valid, tokens, strict=True):
        node.token = token
        if node.place_token is not None:
            node.place_token(token)
    if profile.placement == "card_node" and profile.error_node is not None:
        for node in examined:
            if node.errors:
                _place_error(profile, document, node)

    every_token: list[str] = [""] * count
    errors: list[tuple[str, ...]] = [()] * count
    warnings: list[tuple[str, ...]] = [NO_CARD] * count
    for node in examined:
        every_token[node.position], errors[node.position] = node.token, tuple(node.errors)
        warnings[node.position] = node.warnings
    cards = {node.position: cast(CardData, node.extracted) for node in examined}  # _examine sets it on each
    examined.clear()  # what a card took while it was tokenised, before the message is written out and looked over
    dumped = document.dump()
    left = card_data_left(document.scan_text(dumped), document.named_values)
    if left is not None:  # the last look: whatever the profile missed never leaves in clear
        raise CardDataLeft(left)
    return Tokenised(dumped, every_token, errors, warnings, cards, document.encoding)


def _examine(profile: CompiledProfile, document: Any, message: Any, position: int, today: date) -> _Node | None:
    """The message node's card, extracted, checked and masked in the message; None when it has no card node."""
    cards = document.select(profile.card_node, message)
    if not cards:
        return None
    node = _Node(message, position)
    if len(cards) > 1:
        node.errors.append(f"{len(cards)} card nodes where one is expected")
    masks: dict[Hashable, _Mask] = {}
    extracted = [_extract(profile, document, each, node.errors, masks) for each in cards]
    card = node.extracted = extracted[0]  # every card node is masked, but only a single one is tokenised
    for mask in masks.values():
        document.replace(mask.node, _masked(mask))
    if node.errors:
        return node
    node.errors += card.problems()
    if node.errors:
        return node
    card = card.normalised()
    if card.expired(today):
        node.warnings = ("card has expired",)
    if profile.placement == "card_node":
        try:
            node.place_token = document.writer(profile.token_node, node.message)
        except Unplaceable as exc:
            node.errors.append(f"token node {exc}")
            return node
    node.card = card
    if profile.departure_node is not None:
        node.departure = _departure(document, document.select(profile.departure_node, node.message))
    return node


def _extract(profile: CompiledProfile, document: Any, card: Any, errors: list[str],
             masks: dict[Hashable, _Mask]) -> CardData:
    """Every field of one card node. The number and the CVV are marked for masking wherever they
    were found, even when the card turns out invalid."""
    values: dict[str, str | None] = {}
    found_by: dict[int, list[Any]] = {}  # month and year usually share one selector
    for rule in profile.fields:
        found = found_by.get(id(rule.selector))
        if found is None:
            found = found_by[id(rule.selector)] = document.select(rule.selector, card)
        if len(found) > 1:
            errors.append(f"{rule.name} matched {len(found)} values where one is expected")
        for each in found:
            try:
                raw = document.text(each)
            except NotText:
                errors.append(f"{rule.name} is not a text value")
                continue
            start, end = rule.cut.span(len(raw)) if rule.cut else (0, len(raw))
            if rule.name in SENSITIVE and start < end:
                cut = raw[start:end]
                shown = masked_number(cut) if rule.name == "card_number" else MASKED_CVV
                masks.setdefault(document.slot(each), _Mask(each, raw, [])).cuts.append((start, end, shown))
            if len(found) == 1:
                values[rule.name] = raw[start:end].strip() or None
    return CardData(**values)


def _departure(document: Any, found: list[Any]) -> date | None:
    """The latest YYYY-MM-DD that starts a value (a stay of several rooms ends with its last one)."""
    dates = []
    for each in found:
        try:
            dates.append(date.fromisoformat(document.text(each).strip()[:10]))
        except (NotText, ValueError):
            continue
    return max(dates, default=None)


def _masked(mask: _Mask) -> str:
    """Cuts from the end backwards, so that one cut's new length doesn't move the others."""
    text = mask.raw
    for start, end, shown in sorted(mask.cuts, reverse=True):
        text = text[:start] + shown + text[end:]
    return text


def _place_error(profile: CompiledProfile, document: Any, node: _Node) -> None:
    try:
        document.writer(profile.error_node, node.message)(SEPARATOR.join(node.errors))
    except Unplaceable:
        pass  # the error still reaches the caller in its header position and in the report


def _header(values: list[str]) -> str:
    return ",".join(quote(value, safe=HEADER_SAFE) for value in values)
