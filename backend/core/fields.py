"""Field checks shared by every area: each returns an error message, or None when the value is fine.

They are wrapped as pydantic types below, so a model reports them under the field's dotted name.
"""

from __future__ import annotations

import ipaddress
import re
import zoneinfo
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Annotated, Any, TypeGuard
from urllib.parse import urlsplit

from pydantic import AfterValidator, BeforeValidator, StrictStr

HOST_NUMERIC = re.compile(r"[0-9.]+|0x[0-9a-f.x]*")  # what resolvers may read as an IPv4 address
HOST_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
PHONE = re.compile(r"^[0-9 ()\[\]+\-.]*[0-9][0-9 ()\[\]+\-.]*$")
PHONE_DIGITS = 15  # E.164: a longer run of digits is not a phone number (and may be a card)
# No place in a line of text (a title, a name): control characters, NUL among them, and line breaks; in a longer
# text, control characters but the tab and line breaks.
NOT_IN_A_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
NOT_IN_A_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
DECIMAL = re.compile(r"^[+-]?\d+(\.\d+)?$")


# email_validator and pycountry are imported on first use: the console's start checks no address or code.


def email_error(value: str) -> str | None:
    from email_validator import EmailNotValidError, validate_email

    try:
        validate_email(value, check_deliverability=False)
    except EmailNotValidError:
        return "must be a valid e-mail address"
    return None


@cache
def _currencies() -> frozenset[str]:
    import pycountry

    return frozenset(c.alpha_3 for c in pycountry.currencies)


@cache
def _countries() -> frozenset[str]:
    import pycountry

    return frozenset(c.alpha_2 for c in pycountry.countries)


@cache
def timezones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def is_currency(code: object) -> TypeGuard[str]:
    return isinstance(code, str) and code in _currencies()


def currency_minor_digits(code: str | None) -> int:
    """Digits after the decimal point of a currency's minor unit (2 for EUR, 0 for JPY)."""
    return 0 if code in {"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX",
                         "UYI", "VND", "VUV", "XAF", "XOF", "XPF"} else 3 if code in {
        "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"} else 2


def coordinate_error(value: str, limit: int) -> str | None:
    """Up to 7 decimals within ±limit, however long the string: the spec's 9- and 10-character limits would
    refuse the service's own example "51.5285582" and most of the globe at 7 decimals."""
    if not DECIMAL.match(value):
        return "must be a decimal number written as a string, e.g. \"12.3456789\""
    if "." in value and len(value.split(".")[1]) > 7:
        return "must have at most 7 decimals"
    if abs(Decimal(value)) > limit:
        return f"must be between -{limit} and +{limit}"
    return None


def url_error(value: str) -> str | None:
    if len(value) > 2048:
        return "must be at most 2048 characters"
    try:
        parts = urlsplit(value)
        _ = parts.port  # read for its check: it raises for a port that is not one
    except ValueError:
        return "must be a valid http or https URL"
    if (parts.scheme not in {"http", "https"} or not parts.hostname
            or any(c.isspace() or not c.isprintable() for c in value)):
        return "must be a valid http or https URL"
    if not _valid_host(parts.hostname):
        return "must be a valid http or https URL: its host is neither a host name nor an IP address"
    return None


def _valid_host(host: str) -> bool:
    """What an HTTP client can connect to: an IPv6 or canonical dotted IPv4 address (not `0177.0.0.1` or
    `2130706433`, which resolvers read as loopback in octal or decimal), or a host name whose labels are
    letters, digits and hyphens, or valid internationalised ones."""
    if ":" in host:
        return _is_ip(host)
    if HOST_NUMERIC.fullmatch(host):
        return _is_ip(host)
    labels = host.rstrip(".").split(".")
    if len(host) > 253 or not all(labels):
        return False
    if host.isascii() and "xn--" not in host:
        return all(HOST_LABEL.fullmatch(label) for label in labels)
    import idna  # here, not at the top: only an internationalised name needs it

    try:
        idna.encode(host, uts46=True)
    except (idna.IDNAError, UnicodeError):
        return False
    return True


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def decimal_number(value: object) -> Decimal:
    """A number of zero or more that is not money (a percentage, a penalty), sent as a decimal string or a
    whole number: floats would round. Money is read by backend/core/money.py, where a whole number is minor units."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError('must be a decimal string such as "12.50"')  # a field message, not a crash
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError("must be a number") from None
    if not number.is_finite() or number < 0 or number >= Decimal("1e12"):
        raise ValueError("must be a number from 0 to 999999999999")
    return number


def _check(test: Callable[[Any], str | None]) -> AfterValidator:
    """Turn an error-returning check into a pydantic after-validator."""

    def validate(value: Any) -> Any:
        if value is not None:
            problem = test(value)
            if problem:
                raise ValueError(problem)
        return value

    return AfterValidator(validate)


def _blank_to_none(value: Any) -> Any:
    """Optional text fields: surrounding space is dropped and an empty string means "not set"."""
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _one_line(value: str) -> str | None:
    return "must be one line of text, without control characters" if NOT_IN_A_LINE.search(value) else None


def _no_control(value: str) -> str | None:
    return "must not hold control characters (but tabs and line breaks)" if NOT_IN_A_TEXT.search(value) else None


def _phone_error(value: str) -> str | None:
    if not PHONE.match(value):
        return "may contain only digits, spaces, brackets and + - . characters"
    if sum(c.isdigit() for c in value) > PHONE_DIGITS:
        return f"must have at most {PHONE_DIGITS} digits (E.164)"
    return None


def _max_length(limit: int) -> AfterValidator:
    return _check(lambda v: f"must be at most {limit} characters" if len(v) > limit else None)


def _decimal_error(value: Any) -> str | None:
    try:
        Decimal(value)
    except (InvalidOperation, ValueError):
        return "must be a decimal number"
    return None


Optional = BeforeValidator(_blank_to_none)

RequiredText = Annotated[StrictStr, BeforeValidator(_strip),
                         _check(lambda v: "can't be blank" if not v else None), _max_length(255), _check(_one_line)]
Text255 = Annotated[StrictStr | None, Optional, _max_length(255), _check(_one_line)]
Text32 = Annotated[StrictStr | None, Optional, _max_length(32), _check(_one_line)]
LongText = Annotated[StrictStr | None, Optional, _max_length(65_535), _check(_no_control)]
Email = Annotated[StrictStr | None, Optional, _check(email_error)]
Phone = Annotated[StrictStr | None, Optional, _max_length(32), _check(_phone_error)]
Country = Annotated[StrictStr | None, Optional,
                    _check(lambda v: None if v in _countries()
                           else "must be an ISO 3166-1 alpha-2 country code in capitals, e.g. GB")]
Currency = Annotated[StrictStr, BeforeValidator(_strip),
                     _check(lambda v: None if is_currency(v) else "must be an ISO 4217 currency code in capitals, e.g. EUR")]
Longitude = Annotated[StrictStr | None, Optional, _check(lambda v: coordinate_error(v, 180))]
Latitude = Annotated[StrictStr | None, Optional, _check(lambda v: coordinate_error(v, 90))]
Timezone = Annotated[StrictStr | None, Optional,
                     _check(lambda v: None if v in timezones() else "must be a time zone database name, e.g. Europe/Paris")]
Url = Annotated[StrictStr | None, Optional, _check(url_error)]
RequiredUrl = Annotated[StrictStr, _check(url_error)]
DecimalNumber = Annotated[Decimal, BeforeValidator(decimal_number)]
