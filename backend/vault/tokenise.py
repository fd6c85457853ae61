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

from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import quote

from backend.card_data import MASKED_CVV, card_data_left
from backend.errors import ValidationFailed
from backend.vault.cards import CardData, masked_number
from backend.vault.documents import (
    JsonDocument,
    NotText,
    Unplaceable,
    Writer,
    XmlDocument,
)
from backend.vault.profiles import SENSITIVE, CompiledProfile

Issue = Callable[[list[CardData], list[date | None]], list[str]]
HEADER = "X-PCI-FRONTDESK"
# Each header position is percent-encoded except for these, so a comma never splits a position and a
# non-ASCII character never breaks the header. Messages of our own read as plain text.
HEADER_SAFE = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) not in ",%")
SEPARATOR = "; "  # between several errors or warnings of one message node


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
    body: bytes  # the message with card data masked and, with card_node placement, tokens in place
    nodes: tuple[NodeReport, ...]

    @property
    def tokens(self) -> list[str]:
        return [node.token for node in self.nodes]

    @property
    def errors(self) -> list[str]:
        return [SEPARATOR.join(node.errors) for node in self.nodes]

    @property
    def warnings(self) -> list[str]:
        return [SEPARATOR.join(node.warnings) for node in self.nodes]

    def headers(self) -> dict[str, str]:
        return {f"{HEADER}-TOKENS": _header(self.tokens), f"{HEADER}-ERRORS": _header(self.errors),
                f"{HEADER}-WARNINGS": _header(self.warnings)}


@dataclass(slots=True)
class _Node:
    message: Any
    card: CardData | None = None  # normalised, once it is known to be valid
    departure: date | None = None
    shown: dict[str, str | None] = field(default_factory=dict)
    place_token: Writer | None = None
    token: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


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
    nodes = [_examine(profile, document, _Node(message), today)
             for message in document.messages(profile.message_node)]
    with transaction():
        return _issue_and_place(profile, document, nodes, issue)


def _issue_and_place(profile: CompiledProfile, document: Any, nodes: list[_Node], issue: Issue) -> Tokenised:
    valid = [(node, node.card) for node in nodes if node.card is not None]
    tokens = issue([card for _, card in valid], [node.departure for node, _ in valid]) if valid else []
    if len(tokens) != len(valid):
        raise RuntimeError(f"issue() returned {len(tokens)} tokens for {len(valid)} cards")
    for (node, _), token in zip(valid, tokens, strict=True):
        node.token = token
        if node.place_token is not None:
            node.place_token(token)
    if profile.placement == "card_node" and profile.error_node is not None:
        for node in nodes:
            if node.errors:
                _place_error(profile, document, node)

    dumped = document.dump()
    left = card_data_left(document.scan_text(dumped), document.named_values)
    if left is not None:  # the last look: whatever the profile missed never leaves in clear
        raise CardDataLeft(left)
    return Tokenised(body=dumped, nodes=tuple(
        NodeReport(position, node.shown, node.token, tuple(node.errors), tuple(node.warnings))
        for position, node in enumerate(nodes)))


def _examine(profile: CompiledProfile, document: Any, node: _Node, today: date) -> _Node:
    cards = document.select(profile.card_node, node.message)
    if not cards:
        node.warnings.append("no card")
        return node
    if len(cards) > 1:
        node.errors.append(f"{len(cards)} card nodes where one is expected")
    masks: dict[Hashable, _Mask] = {}
    extracted = [_extract(profile, document, each, node.errors, masks) for each in cards]
    card = extracted[0]  # every card node is masked, but only a single one is tokenised
    for mask in masks.values():
        document.replace(mask.node, _masked(mask))
    node.shown = card.masked()
    if node.errors:
        return node
    node.errors += card.problems()
    if node.errors:
        return node
    card = card.normalised()
    if card.expired(today):
        node.warnings.append("card has expired")
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
