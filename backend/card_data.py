"""Card data wherever it turns up: the Luhn check, the one masking rule, card numbers and security codes
found in free text, and the last look at anything about to leave the card vault.

A card number is written as 13 to 19 digits, in a row or with single spaces or dashes between them
("4111 1111 1111 1111", "3782-822463-10005"), not glued to letters or to a word and a dash on either
side (so a run of digits inside a UUID or a hex token is never one). A run longer than 19 digits may hold one
between its spaces ("4111111111111111 2027"); a date written YYYY-MM-DD is never part of one. Masked,
a number keeps its first 6 and last 4 digits.

Identifiers and phone numbers are left alone (`is_exempt`): a reservation code of 16 digits or a phone
of 13 to 15 digits (E.164 allows at most 15) may pass the Luhn check without being a card, and masking
it would break what it is for. A field named like a security code (`cvv`, `cvc`, `service_code`,
`SeriesCode`, ...) holding digits is one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

MASKED_CVV = "***"
LUHN_DOUBLED = str.maketrans("0123456789", "0246813579")  # each digit doubled, its two digits summed
# A run of 13 digits or more, single spaces or dashes between them; possessive, so it is always the whole run.
# It starts with a digit, so that the engine skips ahead to digits; the look-behinds then test what precedes it.
# Nor may it end glued to a dash and a word: a UUID whose first groups are all digits ("41111111-1111-4008-a1...")
# happens about once in 20,000 random ones, and a page of bookings holds hundreds.
RUN = re.compile(r"\d(?<![0-9A-Za-z]\d)(?<![0-9A-Za-z]-\d)(?:[ -]?\d){12,}+(?!-?[0-9A-Za-z])")
# Where a run may be: a few times cheaper to scan a whole message for, as it asserts nothing.
STRETCH = re.compile(r"[0-9][0-9 -]{12,}")
DATE = re.compile(r"\d{4}-\d\d-\d\d")
NUMBER_LENGTHS = range(13, 20)
# A security code: 3 or 4 digits right after a field named like one (`"cvv": "737"`, `SeriesCode="4021"`,
# `<SeriesCode><PlainText>318`), past nothing but quotes, colons, spaces and tags.
CVV_NAMES = r"cvv2?|cvc2?|csc|series_?code|security_?code|service_?code"
CVV_LIKE = re.compile(rf"(?i)(?<![a-z])(?:{CVV_NAMES})(?![a-z0-9])(?:[\s\"':=>]|<[\w:.-]+>){{1,8}}(\d{{3,4}})(?!\d)")
# Found first: CVV_LIKE alone costs a look-behind at every character. The stems start every name above.
CVV_STEMS = ("cvv", "cvc", "csc", "series", "security", "service")
CVV_NAME = re.compile(rf"(?i){'|'.join(CVV_STEMS)}")
IDENTIFIERS = frozenset({"reservationid", "uniqueid", "otareservationcode", "residvalue", "roomtypecode",
                         "rateplancode"})


def luhn_ok(digits: str) -> bool:
    """`digits` must be ASCII digits. Every second digit from the right is doubled (by table), then all
    are summed as bytes: the card vault checks a thousand cards a message, so this stays at C speed."""
    mixed = digits[-1::-2] + digits[-2::-2].translate(LUHN_DOUBLED)
    return (sum(mixed.encode()) - ord("0") * len(mixed)) % 10 == 0


def mask_number(digits: str) -> str:
    """The one masking rule: first 6 and last 4 digits, a star for each one between."""
    return digits[:6] + "*" * (len(digits) - 10) + digits[-4:]


def is_exempt(name: str) -> bool:
    """Whether a field of this name holds an identifier or a phone number, never to be masked."""
    folded = name.lower().replace("_", "").replace("-", "")
    return "phone" in folded or folded in IDENTIFIERS


def card_spans(text: str, *, valid_only: bool = True) -> Iterator[tuple[int, int, str]]:
    """(start, end, digits) of each card number written in `text`: Luhn-valid ones, or with
    `valid_only=False` every 13-19 digit run (a mistyped card is still one, to a screen)."""
    for run in _runs(text):
        chunks = _chunks(run)
        start = 0
        while start < len(chunks):
            found = _card_at(chunks, start, valid_only)
            if found is None:
                start += 1
                continue
            end, digits = found
            yield chunks[start][0], chunks[end - 1][1], digits
            start = end


def _runs(text: str) -> Iterator[re.Match[str]]:
    for stretch in STRETCH.finditer(text):
        yield from RUN.finditer(text, stretch.start(), stretch.end() + 1)


def _security_codes(text: str) -> Iterator[re.Match[str]]:
    end = 0
    for start in _name_starts(text):
        found = CVV_LIKE.match(text, start) if start >= end else None
        if found:
            end = found.end()
            yield found


def _name_starts(text: str) -> list[int]:
    """Where a security code's name may start. Found with str.find in the lower-cased text, which is many
    times quicker than any pattern; by CVV_NAME where lower-casing changed the length (a dotted İ)."""
    lower = text.lower()
    if len(lower) != len(text):
        return [name.start() for name in CVV_NAME.finditer(text)]
    starts = []
    for stem in CVV_STEMS:
        found = lower.find(stem)
        while found != -1:
            starts.append(found)
            found = lower.find(stem, found + 1)
    return sorted(starts)


def _chunks(run: re.Match[str]) -> list[tuple[int, int, str]]:
    """The run's space-separated parts as (start, end, digits), a date ending one stretch and starting
    the next (marked by a None entry, which no card spans)."""
    chunks: list[Any] = []
    position = run.start()
    for part in run[0].split(" "):
        chunks.append(None if DATE.fullmatch(part) else (position, position + len(part), part.replace("-", "")))
        position += len(part) + 1
    return chunks


def _card_at(chunks: list[Any], start: int, valid_only: bool) -> tuple[int, str] | None:
    """The longest card that starts at chunk `start`: (the chunk after it, its digits)."""
    best, digits = None, ""
    for end in range(start, len(chunks)):
        if chunks[end] is None:
            break
        digits += chunks[end][2]
        if len(digits) > NUMBER_LENGTHS.stop - 1:
            break
        if len(digits) in NUMBER_LENGTHS and (not valid_only or luhn_ok(digits)):
            best = end + 1, digits
    return best


def hide_card_data(text: str, *, valid_only: bool = True) -> tuple[str, list[tuple[str, str]]]:
    """`text` with every card number masked and every security code beside its name starred; with the
    (shown, original) pairs, so that the one who holds the original can put them back."""
    hidden: list[tuple[str, str]] = []
    parts, last = [], 0
    for start, end, digits in card_spans(text, valid_only=valid_only):
        parts += [text[last:start], mask_number(digits)]
        hidden.append((mask_number(digits), text[start:end]))
        last = end
    shown = "".join(parts) + text[last:] if parts else text

    parts, last = [], 0
    for found in _security_codes(shown):
        hidden.append((found[0][:found.start(1) - found.start()] + MASKED_CVV, found[0]))
        parts += [shown[last:found.start()], hidden[-1][0]]
        last = found.end()
    return "".join(parts) + shown[last:] if parts else shown, hidden


def mask_text(text: str) -> str:
    """Free text as it may be stored: every valid card number masked, every security code starred."""
    if not STRETCH.search(text) and not _name_starts(text):
        return text  # the common case, at the speed of a few C scans
    return hide_card_data(text)[0]


def mask_cards_in(value: Any, name: str = "") -> Any:
    """A JSON-like value with card data masked in every string and number, except in fields that hold
    identifiers or phone numbers. A number that is a card comes back as the masked string."""
    if name and is_exempt(name):
        return value
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, dict):
        return {key: mask_cards_in(item, key) for key, item in value.items()}
    if isinstance(value, list):
        return [mask_cards_in(item, name) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and len(str(value)) in NUMBER_LENGTHS:
        return mask_text(str(value)) if luhn_ok(str(value)) else value
    return value


def json_named_values(document: Any) -> Iterator[tuple[str, str]]:
    """Every string and number of a parsed JSON document with the key that holds it (a list's items, its key)."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        name, value = stack.pop()
        if type(value) is dict:
            stack.extend(value.items())
        elif type(value) is list:
            stack.extend((name, item) for item in value)
        elif type(value) is str:
            yield name, value
        elif type(value) is int:
            yield name, str(value)


def card_data_left(text: str, named_values: Callable[[], Iterable[tuple[str, str]]]) -> str | None:
    """What a message still holds in clear, by kind ("a card number", "a security code"), or None.

    `text` is the message as it would leave; `named_values` gives its text values with the name of the
    field that holds each (a JSON key, an XML element or attribute). The text is scanned at C speed
    first; only a message with a candidate is walked, to leave identifiers and phone numbers out."""
    if next(_security_codes(text), None) is not None:
        return "a security code"
    if next(card_spans(text), None) is None:
        return None
    for name, value in named_values():
        if not is_exempt(name) and next(card_spans(value), None) is not None:
            return "a card number"
    return None
