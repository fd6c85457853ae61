"""Money as the engine keeps it: integers of the currency's minor unit, shown as decimal strings.

The one reader of every money amount the engine takes, whatever sends it: as the service it is
modelled on reads them, a whole number is minor units (10050 is 100.50 EUR, 10050 JPY) and a string
is a decimal ("100.50"), never a float, so no amount is ever rounded, or multiplied by 100, behind
anyone's back. Percentages and penalties are not money: `fields.DecimalNumber` reads those.

Models take amounts as `Money`, which checks their shape and, when the validation context holds the
currency (`{"currency": "EUR"}`, set by the service that knows it), gives them back as the currency's
decimal string ("100.50"), refusing more decimals than the currency has under the field's own name.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Annotated, cast

from pydantic import BeforeValidator, ValidationInfo

from backend.core.fields import currency_minor_digits, is_currency

MAX_MINOR = 10**14  # a trillion in a two-digit currency: far above any room price, far below int64
SHAPE = 'must be a decimal string such as "120.00" or a whole number of minor units (12000 for 120.00)'


def parse_money(value: object, currency: str | None) -> int:
    """Minor units of a money amount; ValueError with a message fit for a field error."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(SHAPE)
    if isinstance(value, int):
        minor = value
    else:
        digits = currency_minor_digits(currency)
        amount = _decimal(value)
        exponent = cast(int, amount.as_tuple().exponent)  # an int: _decimal refuses NaN and infinities
        if exponent < -digits and amount != round(amount, digits):
            raise ValueError(f"must have at most {digits} decimals in {currency}")
        minor = int(amount.scaleb(digits))
    if minor < 0:
        raise ValueError("must be zero or more")
    if minor >= MAX_MINOR:
        raise ValueError("is too large")
    return minor


def canonical(value: object, currency: str | None) -> str:
    """An amount as the engine stores and shows it: the currency's decimal string ("100.50", "1200" in JPY)."""
    return format_minor(parse_money(value, currency), currency)


def to_minor(amount: Decimal, currency: str) -> int:
    """A stored decimal amount in minor units, rounded to the currency's (a price limit of the property's
    currency applied to a plan of another)."""
    return int(amount.scaleb(currency_minor_digits(currency)).to_integral_value())


def _decimal(text: str) -> Decimal:
    try:
        amount = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError("must be a number") from None
    if not amount.is_finite():
        raise ValueError("must be a number")
    return amount


def _money(value: object, info: ValidationInfo) -> int | str:
    currency = (info.context or {}).get("currency")
    if is_currency(currency):
        return canonical(value, currency)
    # Without a currency (the record's own is invalid, or not known yet), the shape alone is checked: the
    # service reads the amount with parse_money once it knows the currency.
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(SHAPE)
    if (_decimal(value) if isinstance(value, str) else value) < 0:
        raise ValueError("must be zero or more")
    return value.strip() if isinstance(value, str) else value


Money = Annotated[int | str, BeforeValidator(_money)]


def in_currency(currency: object) -> dict[str, object]:
    """The validation context that reads a record's Money fields in `currency`, as sent (the Currency field
    strips it the same way)."""
    return {"currency": currency.strip() if isinstance(currency, str) else None}


def format_amount(value: Decimal | str | None, currency: str) -> str | None:
    """A stored decimal amount shown with the currency's minor digits ("49.50", "1200" for JPY)."""
    if value is None:
        return None
    return f"{Decimal(value):.{currency_minor_digits(currency)}f}"


@lru_cache(maxsize=8192)
def format_minor(minor: int, currency: str | None) -> str:
    """Integer arithmetic, remembered: a priced stay formats thousands of prices, most of them alike."""
    digits = currency_minor_digits(currency)
    if not digits:
        return str(minor)
    whole, fraction = divmod(abs(minor), 10**digits)
    return f"{'-' if minor < 0 else ''}{whole}.{fraction:0{digits}d}"
