"""Card data as a profile cuts it out of a message: checked, normalised for the vault, masked for display.

Messages name the field, never its value: they travel in headers and reports, and a card number
must never be part of either. They hold no commas either, so that a header position stays whole.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from datetime import date

from backend.core.card_data import MASKED_CVV, luhn_ok, mask_number

MAX_HOLDER = 255
NUMBER_LENGTHS = range(12, 20)


def digits_of(number: str) -> str:
    """Spaces and dashes, as card numbers are often written, taken out."""
    return number.replace(" ", "").replace("-", "")


def is_digits(value: str, lengths: Container[int]) -> bool:
    """ASCII digits only (isdigit alone takes other scripts' digits), so many of them. String methods
    rather than regular expressions: a message may carry a thousand cards."""
    return value.isascii() and value.isdigit() and len(value) in lengths


def masked_number(value: str) -> str:
    """First 6 and last 4 digits of a plausible card number; anything else is starred out entirely,
    since first-and-last of a short or odd value could be most of it."""
    digits = digits_of(value)
    if is_digits(digits, NUMBER_LENGTHS):
        return mask_number(digits)
    return "*" * len(value)


@dataclass(frozen=True, slots=True, repr=False)
class CardData:
    """Every field as extracted (after its transformation), None when the message has no value."""

    card_number: str | None = None
    cardholder_name: str | None = None
    expiration_month: str | None = None
    expiration_year: str | None = None
    service_code: str | None = None

    def problems(self) -> list[str]:
        found = []
        digits = digits_of(self.card_number or "")
        if not digits:
            found.append("card_number is missing")
        elif not is_digits(digits, NUMBER_LENGTHS):
            found.append("card_number must have 12 to 19 digits")
        elif not luhn_ok(digits):
            found.append("card_number fails the check digit (Luhn)")
        if self.expiration_month is None:
            found.append("expiration_month is missing")
        elif not (is_digits(self.expiration_month, (1, 2)) and 1 <= int(self.expiration_month) <= 12):
            found.append("expiration_month must be a month from 1 to 12")
        if self.expiration_year is None:
            found.append("expiration_year is missing")
        elif not is_digits(self.expiration_year, (2, 4)):
            found.append("expiration_year must have 2 or 4 digits")
        if self.service_code is not None and not is_digits(self.service_code, (3, 4)):
            found.append("service_code must have 3 or 4 digits")
        if self.cardholder_name is not None and len(self.cardholder_name) > MAX_HOLDER:
            found.append(f"cardholder_name is longer than {MAX_HOLDER} characters")
        return found

    def normalised(self) -> CardData:
        """The form the vault keeps: digits only, month MM, year YYYY. Only for a card without problems."""
        year = self.expiration_year or ""
        return CardData(card_number=digits_of(self.card_number or ""),
                        cardholder_name=self.cardholder_name,
                        expiration_month=f"{int(self.expiration_month or 0):02d}",
                        expiration_year=year if len(year) == 4 else f"20{year}",
                        service_code=self.service_code)

    def expired(self, today: date) -> bool:
        """Only for a normalised card: a card is good to the end of its expiry month."""
        return (int(self.expiration_year or 0), int(self.expiration_month or 0)) < (today.year, today.month)

    def masked(self) -> dict[str, str | None]:
        return {"card_number": None if self.card_number is None else masked_number(self.card_number),
                "cardholder_name": self.cardholder_name,
                "expiration_month": self.expiration_month,
                "expiration_year": self.expiration_year,
                "service_code": None if self.service_code is None else MASKED_CVV}

    def __repr__(self) -> str:
        # A card in a log line or a traceback shows only what a receipt would.
        return f"CardData({self.masked()})"
