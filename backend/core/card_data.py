"""Card data wherever it turns up: the Luhn check, the one masking rule, card numbers and security codes
found in text, and the last look at anything about to leave the card vault.

A card number is 13 to 19 digits, in a row or in groups: between two groups up to three separators (spaces of
any width, tabs, line breaks, dots, slashes, underscores, hyphens and dashes: "4111 1111 1111 1111",
"4111.1111.1111.1111", "4111\u00a01111–1111_1111"), in any script's digits ("４１１１…"), and it may be glued to
letters ("VISA4111111111111111exp"). What is not one: a run of more than 19 digits in a row (an identifier), a
date (2026-11-20, 20.11.2026, 11/20/2026), the one or two decimals after a dot (120.00), a UUID, a valid IBAN, and
digits in a word of hexadecimal letters and digits only (a token such as "9f1c4111111111111111a0"). A run of
groups may hold a card between other digits ("room 12 4111 1111 1111 1111"): every Luhn-valid stretch of 13 to 19
digits in it is found, and overlapping ones are masked together. Masked, a number keeps its first 6 and last 4
digits.

No field is exempt, identifiers included; a field named like a phone (`phone`, `mobilePhone`) holds a phone when
it has at most 15 digits (E.164), so only a longer card is masked there, or one of a length and start that no phone
number has (American Express, Diners Club). A field named like a security code
(`cvv`, `cardCvv`, `cvvNumber`, `cid`, `card_code`, `SeriesCode`, ...) holding 3 or 4 digits holds one.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Any

MASKED_CVV = "***"
LUHN_DOUBLED = str.maketrans("0123456789", "0246813579")  # each digit doubled, its two digits summed
NUMBER_LENGTHS = range(13, 20)
PHONE_DIGITS = 15  # E.164: a phone number has at most 15 digits
# Cards as short as a phone that no phone number is like (no country code gives these lengths): American Express
# (15 digits, 34 or 37) and Diners Club (14 digits, 30, 36, 38 or 39).
NEVER_A_PHONE = re.compile(r"3[47]\d{13}|3[0689]\d{12}")
# What may stand between two groups of a card's digits, up to three in a row.
SEPARATORS = " \t\n\r\v\f\u00a0\u2007\u2009\u202f\u3000._/\\-\u2010-\u2015\u2212\uff0d\uff0e\uff0f"
MAX_SEPARATORS = 3
# Where a card may be: a digit and twelve or more digits or separators. The cheap first look, at C speed; twice as
# quick again where the text is ASCII (known without reading it), as a digit is then one of ten characters.
STRETCH = re.compile(rf"\d[\d{SEPARATORS}]{{12,}}")
ASCII_STRETCH = re.compile(rf"[0-9][0-9{SEPARATORS}]{{12,}}")
# How a serialised message may write a separator or a digit: JSON's \n or \uff11, XML's &#10;.
JSON_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\r": "\r", "\\f": "\f", "\\/": "/"}
UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
GROUP = re.compile(rf"\d+|[{SEPARATORS}]+")
# In a stretch whose digits are ASCII: what is never part of a card.
DATE = re.compile(r"(?<!\d)(?:(?:19|20)\d\d([-./])[01]?\d\1[0-3]?\d|[0-3]?\d([-./])[0-3]?\d\2(?:19|20)\d\d)(?!\d)")
DECIMALS = re.compile(r"(?<=\d\.)\d{1,2}(?!\d)")
# Around a stretch: a UUID, an IBAN (checked by its own check digits).
UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d\d(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])")
AROUND = 50  # how far from a stretch a UUID or an IBAN that holds it may start or end
HEX_WORD = re.compile(r"[0-9a-fA-F]+")
# A security code: 3 or 4 digits right after a field named like one (`"cvv": "737"`, `cardCvv=737`,
# `SeriesCode="4021"`, `<SeriesCode><PlainText>318`), past nothing but quotes, colons, spaces and tags. The name
# starts a word, a camelCase part (`cardCvv`) or follows `card`.
CVV_NAMES = (r"(?:card[_-]?)?(?:cvv2?|cvc2?|csc|ccv|cvn|cv2|cid|series[_-]?code|security[_-]?code|service[_-]?code"
             r"|card[_-]?code)(?:[_-]?(?:number|num|no|nr|code|value))?")
CVV_LIKE = re.compile(rf"(?:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z])|(?<=[Cc][Aa][Rr][Dd])|(?<=[Cc][Aa][Rr][Dd][_-]))"
                      rf"(?i:{CVV_NAMES})(?![A-Za-z0-9])(?:[\s\"':=>]|<[\w:.-]+>){{1,8}}(\d{{3,4}})(?!\d)")
CVV_FIELD = re.compile(rf"(?i:{CVV_NAMES})")
# Found first: CVV_LIKE alone costs a look-behind at every character. Every name above holds one of these.
CVV_STEMS = ("cv", "csc", "ccv", "cid", "series", "security", "service", "cardcode", "card_code", "card-code")
CVV_NAME = re.compile(rf"(?i){'|'.join(CVV_STEMS)}")
SECURITY_CODE = re.compile(r"\d{3,4}")


def luhn_ok(digits: str) -> bool:
    """`digits` must be ASCII digits. Every second digit from the right is doubled (by table), then all
    are summed as bytes: the card vault checks a thousand cards a message, so this stays at C speed."""
    mixed = digits[-1::-2] + digits[-2::-2].translate(LUHN_DOUBLED)
    return (sum(mixed.encode()) - ord("0") * len(mixed)) % 10 == 0


def mask_number(digits: str) -> str:
    """The one masking rule: first 6 and last 4 digits, a star for each one between."""
    return digits[:6] + "*" * (len(digits) - 10) + digits[-4:]


def is_phone(name: str) -> bool:
    """Whether a field of this name holds a phone number: there, at most 15 digits are a phone, not a card."""
    return "phone" in name.lower()


def is_security_code(name: str) -> bool:
    return CVV_FIELD.fullmatch(name) is not None


def shortest_card(name: str) -> int:
    """The fewest digits a card has in a field of this name: past a phone's 15 digits in a phone field."""
    return PHONE_DIGITS + 1 if name and is_phone(name) else NUMBER_LENGTHS.start


def card_spans(text: str, *, valid_only: bool = True, shortest: int = NUMBER_LENGTHS.start,
               ) -> Iterator[tuple[int, int, str]]:
    """(start, end, digits) of each stretch of `text` that is or holds a card number: Luhn-valid ones, or with
    `valid_only=False` every 13-19 digit one (a mistyped card is still one, to a screen). Cards that overlap, or
    touch in one run of groups, come as one stretch with all their digits; `digits` are ASCII."""
    for stretch in (ASCII_STRETCH if text.isascii() else STRETCH).finditer(text):
        written = stretch[0] if stretch[0].isascii() else "".join(
            str(unicodedata.decimal(c)) if c.isdecimal() else c for c in stretch[0])
        groups = _groups(written, stretch.start())
        if not any(_covered(groups, valid_only, shortest)):
            continue  # most stretches (dates, phone numbers, ids): what is never a card needs no looking for
        groups = _spoilt(text, stretch.span(), written, groups)
        yield from _stretches(groups, _covered(groups, valid_only, shortest))


def _groups(written: str, start: int) -> list[Any]:
    """The stretch's groups of digits as (start, end, ASCII digits); None for a group of more than 19 digits and
    for too many separators in a row, which part two runs. `written` has ASCII digits, `start` its place."""
    groups: list[Any] = []
    for part in GROUP.finditer(written):
        if part[0][0].isdigit():
            groups.append((start + part.start(), start + part.end(), part[0]) if len(part[0]) <= 19 else None)
        elif len(part[0]) > MAX_SEPARATORS:
            groups.append(None)
    return groups


def _spoilt(text: str, span: tuple[int, int], written: str, groups: list[Any]) -> list[Any]:
    """The groups, None for those that can't be part of a card: a date's or a decimal's, one inside a UUID, an
    IBAN or a hexadecimal word."""
    start, end = span
    spoilt = [(start + m.start(), start + m.end()) for pattern in (DATE, DECIMALS) for m in pattern.finditer(written)]
    spoilt += _identifiers_around(text, start, end)
    spoilt += _hex_words(text, start, end)
    if not spoilt:
        return groups
    return [g if g is None or not any(s < g[1] and g[0] < e for s, e in spoilt) else None for g in groups]


def _identifiers_around(text: str, start: int, end: int) -> list[tuple[int, int]]:
    window = text[max(0, start - AROUND):end + AROUND]
    offset = max(0, start - AROUND)
    found = [m.span() for m in UUID.finditer(window)]
    found += [m.span() for m in IBAN.finditer(window) if _iban_ok(m[0])]
    return [(offset + s, offset + e) for s, e in found]


def _iban_ok(iban: str) -> bool:
    compact = iban.replace(" ", "")
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _hex_words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The first and last groups when glued to letters in a word of hexadecimal digits alone."""
    spoilt = []
    for edge, step in ((start, -1), (end - 1, 1)):
        if not (0 <= edge + step < len(text) and text[edge + step].isalpha() and text[edge].isdecimal()):
            continue
        first, last = edge, edge
        while first > 0 and text[first - 1].isalnum():
            first -= 1
        while last + 1 < len(text) and text[last + 1].isalnum():
            last += 1
        if HEX_WORD.fullmatch(text, first, last + 1):
            spoilt.append((first, last + 1))
    return spoilt


def _covered(groups: list[Any], valid_only: bool, shortest: int) -> list[bool]:
    """Which groups are part of a card: of every stretch of groups with 13 to 19 digits (Luhn-valid ones)."""
    cover = [False] * len(groups)
    for first in range(len(groups)):
        digits = ""
        for last in range(first, len(groups)):
            if groups[last] is None:
                break
            digits += groups[last][2]
            if len(digits) > NUMBER_LENGTHS.stop - 1:
                break
            long_enough = len(digits) >= shortest or NEVER_A_PHONE.fullmatch(digits) is not None
            if long_enough and (not valid_only or luhn_ok(digits)):
                cover[first:last + 1] = [True] * (last + 1 - first)
    return cover


def _stretches(groups: list[Any], cover: list[bool]) -> Iterator[tuple[int, int, str]]:
    run: list[tuple[int, int, str]] = []
    for group, covered in [*zip(groups, cover, strict=True), (None, False)]:
        if covered:
            run.append(group)
        elif run:
            yield run[0][0], run[-1][1], "".join(g[2] for g in run)
            run = []


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


def hide_card_data(text: str, *, valid_only: bool = True,
                   shortest: int = NUMBER_LENGTHS.start) -> tuple[str, list[tuple[str, str]]]:
    """`text` with every card number masked and every security code beside its name starred; with the
    (shown, original) pairs, so that the one who holds the original can put them back."""
    hidden: list[tuple[str, str]] = []
    parts, last = [], 0
    for start, end, digits in card_spans(text, valid_only=valid_only, shortest=shortest):
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


def may_hold_card_data(text: str, *, escaped: bool = False) -> bool:
    """Whether `text` (with `escaped`, serialised JSON or XML) has a stretch of digits or a security code's name:
    False is certain, at the speed of a few C scans; True is for the rule itself to decide."""
    text = _unescaped(text) if escaped else text
    return (ASCII_STRETCH if text.isascii() else STRETCH).search(text) is not None or bool(_name_starts(text))


def _unescaped(text: str) -> str:
    """Serialised JSON or XML with its escapes undone, as a first look reads it (their places may shift)."""
    if "\\" in text:
        for escape, character in JSON_ESCAPES.items():
            text = text.replace(escape, character)
        if "\\u" in text:
            text = UNICODE_ESCAPE.sub(lambda escape: chr(int(escape[1], 16)), text)
    return html.unescape(text) if "&#" in text else text


def mask_text(text: str, *, shortest: int = NUMBER_LENGTHS.start) -> str:
    """Free text as it may be stored or shown: every valid card number masked, every security code starred."""
    if not may_hold_card_data(text):
        return text  # the common case
    return hide_card_data(text, shortest=shortest)[0]


def mask_cards_in(value: Any, name: str = "") -> Any:
    """A JSON-like value with card data masked in every key, string and number. A field named like a phone keeps
    a phone's 15 digits; one named like a security code has its 3 or 4 digits starred. A number that is a card
    comes back as the masked string."""
    if isinstance(value, str):
        if name and is_security_code(name) and SECURITY_CODE.fullmatch(value.strip()):
            return MASKED_CVV
        return mask_text(value, shortest=shortest_card(name))
    if isinstance(value, dict):
        return {_masked_key(key): mask_cards_in(item, key if isinstance(key, str) else "")
                for key, item in value.items()}
    if isinstance(value, list):
        return [mask_cards_in(item, name) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        written = str(value)
        masked = mask_cards_in(written, name)
        return value if masked == written else masked
    return value


def _masked_key(key: Any) -> Any:
    return mask_text(key) if isinstance(key, str) else key


def json_named_values(document: Any) -> Iterator[tuple[str, str]]:
    """Every key, string and number of a parsed JSON document with the key that holds it (a list's items, its
    key; a key, the key of its object)."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        name, value = stack.pop()
        if type(value) is dict:
            stack.extend(value.items())
            yield from ((name, key) for key in value)
        elif type(value) is list:
            stack.extend((name, item) for item in value)
        elif type(value) is str:
            yield name, value
        elif type(value) is int:
            yield name, str(value)


def card_data_left(text: str, named_values: Callable[[], Iterable[tuple[str, str]]]) -> str | None:
    """What a message still holds in clear, by kind ("a card number", "a security code"), or None.

    `text` is the message as it would leave; `named_values` gives its text values with the name of the
    field that holds each (a JSON key, an XML element or attribute). The text is scanned first, its escapes
    undone; only a message with a card in it is walked, to let a phone field keep a phone."""
    if next(_security_codes(text), None) is not None:
        return "a security code"
    if next(card_spans(_unescaped(text)), None) is None:
        return None
    for name, value in named_values():
        if next(card_spans(value, shortest=shortest_card(name)), None) is not None:
            return "a card number"
    return None
