"""Money as the engine keeps it: integers of the currency's minor unit, shown as decimal strings.

A price arrives as a decimal string ("120.00") or a whole number of minor units (12000), never a
float, so no amount is ever rounded behind anyone's back.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache

from backend.fields import currency_minor_digits

MAX_MINOR = 10**14  # a trillion in a two-digit currency: far above any room price, far below int64


def parse_price(value: object, currency: str) -> int:
    """Minor units of a price; ValueError with a message fit for a field error."""
    digits = currency_minor_digits(currency)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError('must be a decimal string such as "120.00" or a whole number of minor units')
    if isinstance(value, int):
        minor = value
    else:
        try:
            amount = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError("must be a number") from None
        if not amount.is_finite():
            raise ValueError("must be a number")
        if amount.as_tuple().exponent < -digits and amount != round(amount, digits):
            raise ValueError(f"must have at most {digits} decimals in {currency}")
        minor = int(amount.scaleb(digits))
    if minor < 0:
        raise ValueError("must be zero or more")
    if minor >= MAX_MINOR:
        raise ValueError("is too large")
    return minor


def to_minor(amount: Decimal, currency: str) -> int:
    return int(amount.scaleb(currency_minor_digits(currency)).to_integral_value())


def format_amount(value: Decimal | str | None, currency: str) -> str | None:
    """A stored decimal amount shown with the currency's minor digits ("49.50", "1200" for JPY)."""
    if value is None:
        return None
    return f"{Decimal(value):.{currency_minor_digits(currency)}f}"


@lru_cache(maxsize=8192)
def format_minor(minor: int, currency: str) -> str:
    """Integer arithmetic, remembered: a priced stay formats thousands of prices, most of them alike."""
    digits = currency_minor_digits(currency)
    if not digits:
        return str(minor)
    whole, fraction = divmod(abs(minor), 10**digits)
    return f"{'-' if minor < 0 else ''}{whole}.{fraction:0{digits}d}"
