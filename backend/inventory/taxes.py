"""Taxes and tax sets as the service has them (https://docs.channex.io/api-v.1-documentation/taxes-and-tax-sets,
reference §10), and the one rule that prices them: `charges`.

A tax is a property's: a `percent` of the price, or an amount of its `currency` per room, per room per night, per
person, per person per night, per night or per booking. A tax set gathers taxes, each at a `level`: the highest
level is computed first, and each lower level on the price plus the taxes of the deeper levels (a 10.00 fee at
level 1 and 20% VAT at level 0 on 100.00: VAT 22.00); taxes of one level share their base. An inclusive tax is
inside the nights' price, an exclusive one is added on top; both are computed on the same base, the price without
the inclusive taxes, so that a tax comes to the same whether the price holds it or not.

Which nights a tax is charged on: the stay's first `skip_nights` are not, nor those after `max_nights` more, nor,
when it has `applicable_date_ranges`, a night outside all of them (`after` and `before` both included). A tax
charged per stay (per room, per person, per booking) is charged once when any night of the stay is. A booked
room is priced on its own: per booking and per night are charged once for each room, as per room and per room
per night are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)
from pydantic_core import from_json

from backend.core.fields import Currency, RequiredText
from backend.core.money import canonical, format_minor, parse_money
from storage import Row

Logic = Literal[
    "percent", "per_room", "per_room_per_night", "per_person", "per_person_per_night", "per_night", "per_booking",
]
LOGICS: tuple[Logic, ...] = get_args(Logic)
PER_NIGHT = frozenset({"per_room_per_night", "per_person_per_night", "per_night"})
PER_PERSON = frozenset({"per_person", "per_person_per_night"})
# `city tax`, as the tax page writes it, is the booking rooms' `city_tax`.
TaxKind = Literal["tax", "fee", "city_tax"]
TYPES: tuple[TaxKind, ...] = get_args(TaxKind)
MAX_RANGES = 20
MAX_TAXES = 50  # of a set
MAX_LEVEL = 99
HUNDRED = Decimal(100)
MEMO = 4096  # charges remembered per set


def _iso_date(value: str) -> str:
    try:
        if len(value) == 10:
            return date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    raise ValueError("must be a date, YYYY-MM-DD")


def _type(value: object) -> object:
    return "city_tax" if value == "city tax" else value


def _rate_shape(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError('must be a decimal string such as "20.00" (or money as a whole number of minor units)')
    return value


IsoDate = Annotated[StrictStr, AfterValidator(_iso_date)]
# Read against the tax's logic and currency by `rate_of`: never a float.
Rate = Annotated[int | str, BeforeValidator(_rate_shape)]
Nights = Annotated[StrictInt, Field(ge=1, le=730)]
TaxType = Annotated[TaxKind, BeforeValidator(_type)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DateRange(Strict):
    after: IsoDate | None = None
    before: IsoDate | None = None

    @model_validator(mode="after")
    def _ordered(self) -> DateRange:
        if self.after is None and self.before is None:
            raise ValueError("must give after, before or both")
        if self.after and self.before and self.after > self.before:
            raise ValueError("after must not be later than before")
        return self


class TaxInput(Strict):
    """Its rate is read against its logic and currency by the service (`rate_of`), which names the field."""

    property_id: StrictStr
    title: RequiredText
    logic: Logic
    type: TaxType = Field("tax", description="tax, fee or city_tax (also written `city tax`)")
    rate: Rate = Field(description="a percentage (0-100) string for logic percent, else money of `currency`: a "
                                   "decimal string, or a whole number of minor units")
    currency: Currency | None = Field(None, description="required unless the logic is percent")
    is_inclusive: StrictBool
    skip_nights: Nights | None = None
    max_nights: Nights | None = None
    applicable_date_ranges: Annotated[list[DateRange], Field(max_length=MAX_RANGES)] = []


def rate_of(logic: str, rate: object, currency: str | None) -> str:
    """A tax's rate as stored: a percentage as sent ("7.7"), or money in the currency's digits ("3.00"); ValueError
    with a message for the field `rate`."""
    if logic == "percent":
        if isinstance(rate, bool) or not isinstance(rate, int | str):
            raise ValueError('must be a percentage written as a string, such as "20.00"')
        try:
            percent = Decimal(str(rate).strip())
        except ArithmeticError:
            raise ValueError("must be a number") from None
        if not percent.is_finite() or not 0 <= percent <= HUNDRED:
            raise ValueError("must be a percentage from 0 to 100")
        return str(rate).strip()
    return canonical(rate, currency)


class TaxEnvelope(BaseModel):
    tax: TaxInput


class SetTax(Strict):
    id: StrictStr
    level: Annotated[StrictInt, Field(ge=0, le=MAX_LEVEL)] = 0


class TaxSetInput(Strict):
    property_id: StrictStr
    title: RequiredText
    currency: Currency
    taxes: Annotated[list[SetTax], Field(max_length=MAX_TAXES)]
    associated_rate_plan_ids: Annotated[list[StrictStr], Field(max_length=1000)] | None = Field(
        None, description="the rate plans priced with this set (their tax_set_id); left out: unchanged")
    is_default: StrictBool | None = Field(None, description="the property's default set, given to new rate plans; "
                                                            "its first set is, unless it says otherwise")

    @field_validator("taxes")
    @classmethod
    def _once(cls, taxes: list[SetTax]) -> list[SetTax]:
        if len({tax.id for tax in taxes}) != len(taxes):
            raise ValueError("each tax may appear once")
        return taxes


class TaxSetEnvelope(BaseModel):
    tax_set: TaxSetInput


# --- pricing ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Tax:
    shown: dict[str, Any]  # the tax as an offer or a booked room shows it (title, mode, rate, inclusive, ...)
    logic: str
    rate: Decimal  # a fraction for percent (0.2), else minor units
    inclusive: bool
    level: int
    skip: int
    most: int | None
    ranges: tuple[tuple[str, str], ...]

    def charged(self, index: int, night: str) -> bool:
        return (index >= self.skip and (self.most is None or index < self.skip + self.most)
                and (not self.ranges or any(after <= night <= before for after, before in self.ranges)))


@dataclass(frozen=True)
class TaxSet:
    id: str
    taxes: tuple[Tax, ...]  # highest level first
    every_night: bool  # no tax of it is for some nights only: the stay is priced as a whole
    # charges by (price, nights, persons), and its taxes' coefficients by (nights, persons): a set without night rules
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, set_id: str, rows: list[Any]) -> TaxSet:
        """From its taxes' rows (each a tax's columns and its `level`), in any order."""
        taxes = tuple(_tax(row) for row in sorted(rows, key=lambda r: (-r["level"], r["position"])))
        return cls(set_id, taxes, all(t.skip == 0 and t.most is None and not t.ranges for t in taxes))


def _tax(row: Row) -> Tax:
    logic, currency = row["logic"], row["currency"]
    rate = Decimal(row["rate"]) / HUNDRED if logic == "percent" else Decimal(parse_money(row["rate"], currency))
    ranges = tuple((r.get("after") or "0001-01-01", r.get("before") or "9999-12-31")
                   for r in from_json(row["applicable_date_ranges"]))
    shown = {"title": row["title"], "mode": logic, "rate": row["rate"], "inclusive": bool(row["is_inclusive"]),
             "type": row["type"], "level": row["level"]}
    return Tax(shown, logic, rate, bool(row["is_inclusive"]), row["level"], row["skip_nights"] or 0,
               row["max_nights"], ranges)


def charges(tax_set: TaxSet, nights: tuple[str, ...], prices: tuple[int, ...], persons: int) -> list[int]:
    """What each tax of the set comes to on a stay of these nights at these prices (minor units, the sum of
    the nights' is the price the guest is shown, inclusive taxes in it), for a room of `persons`, in the set's
    order: the one rule that prices taxes, for shopping offers and booked rooms alike.

    Each tax is linear in the base price B (the price without inclusive taxes): a percent is r x (B + the deeper
    levels' taxes), an amount a constant. The inclusive ones summed are a·B + c = price - B, so B follows, then every
    tax. Nights alike (the same taxes charged on them) are priced together: a set without night rules, at once, and
    remembered by price, nights and persons (thousands of offers of a shopping read, many of them alike)."""
    taxes = tax_set.taxes
    if tax_set.every_night:
        key = (sum(prices), len(prices), persons)
        found = tax_set.memo.get(key)
        if found is None:
            if len(tax_set.memo) > MEMO:
                tax_set.memo.clear()
            linear = tax_set.memo.get((len(prices), persons))
            if linear is None:
                every = tuple(range(len(taxes)))
                linear = tax_set.memo[(len(prices), persons)] = _linear(taxes, every, len(prices), set(every), persons)
            totals = [Decimal(0)] * len(taxes)
            _add(linear, key[0], totals)
            found = tax_set.memo[key] = [int(total.to_integral_value()) for total in totals]
        return found
    totals = [Decimal(0)] * len(taxes)
    for charged, (price, count, first) in _groups(taxes, nights, prices).items():
        _add(_linear(taxes, charged, count, first, persons), price, totals)
    return [int(total.to_integral_value()) for total in totals]


Linear = tuple[tuple[tuple[int, Decimal, Decimal], ...], Decimal, Decimal]


def _linear(taxes: tuple[Tax, ...], charged: tuple[int, ...], count: int, first: set[int], persons: int) -> Linear:
    """The `charged` taxes on `count` nights alike, each as a·B + c, and the inclusive ones' a and c summed; `first`:
    the per-stay taxes charged in these nights."""
    coefficients: list[tuple[int, Decimal, Decimal]] = []
    deeper_a = deeper_c = level_a = level_c = Decimal(0)
    level = None
    for index in charged:
        tax = taxes[index]
        if tax.level != level:
            deeper_a, deeper_c, level_a, level_c, level = (deeper_a + level_a, deeper_c + level_c, Decimal(0), Decimal(0),
                                                           tax.level)
        if tax.logic == "percent":
            a, c = tax.rate * (1 + deeper_a), tax.rate * deeper_c
        elif tax.logic in PER_NIGHT:
            a, c = Decimal(0), tax.rate * count * (persons if tax.logic in PER_PERSON else 1)
        else:  # once a stay: in the nights of its first night charged
            a, c = Decimal(0), tax.rate * (persons if tax.logic in PER_PERSON else 1) * (index in first)
        level_a, level_c = level_a + a, level_c + c
        coefficients.append((index, a, c))
    inside_a = sum((a for index, a, _ in coefficients if taxes[index].inclusive), Decimal(0))
    inside_c = sum((c for index, _, c in coefficients if taxes[index].inclusive), Decimal(0))
    return tuple(coefficients), inside_a, inside_c


def _add(linear: Linear, price: int, totals: list[Decimal]) -> None:
    """Each tax at this price of its nights, added to its total."""
    coefficients, inside_a, inside_c = linear
    base = max((price - inside_c) / (1 + inside_a), Decimal(0))
    for index, a, c in coefficients:
        totals[index] += a * base + c


def _groups(taxes: tuple[Tax, ...], nights: tuple[str, ...],
            prices: tuple[int, ...]) -> dict[tuple[int, ...], tuple[int, int, set[int]]]:
    """The nights grouped by the taxes charged on them (their indexes, in the set's order) → their price, how many
    they are, and the per-stay taxes whose first night charged is among them."""
    groups: dict[tuple[int, ...], list[Any]] = {}
    seen: set[int] = set()
    for position, (night, price) in enumerate(zip(nights, prices, strict=True)):
        key = tuple(i for i, tax in enumerate(taxes) if tax.charged(position, night))
        group = groups.setdefault(key, [0, 0, set()])
        group[0] += price
        group[1] += 1
        for index in key:
            if index not in seen:
                seen.add(index)
                group[2].add(index)
    return {key: (price, count, firsts) for key, (price, count, firsts) in groups.items()}


def offered(tax_set: TaxSet, nights: tuple[str, ...], prices: tuple[int, ...], persons: int,
            currency: str) -> tuple[list[dict[str, Any]], int, int]:
    """The taxes as an offer shows them (each with its `amount`), and what the inclusive and the exclusive ones come
    to; of a set without night rules, remembered as its charges are (the list is shared: read it, never change it)."""
    key = ("offer", sum(prices), len(prices), persons, currency)
    found = tax_set.memo.get(key) if tax_set.every_night else None
    if found is None:
        minors = charges(tax_set, nights, prices, persons)
        pairs = list(zip(tax_set.taxes, minors, strict=True))
        shown = [{**tax.shown, "amount": format_minor(minor, currency)} for tax, minor in pairs]
        inside = sum(minor for tax, minor in pairs if tax.inclusive)
        found = (shown, inside, sum(minors) - inside)
        if tax_set.every_night:
            tax_set.memo[key] = found
    return found


def tax_lines(tax_set: TaxSet | None, nights: tuple[str, ...], prices: tuple[int, ...],
              persons: int) -> list[tuple[dict[str, Any], int]]:
    """Each tax as shown, with what it comes to (minor units); none without a set."""
    if tax_set is None or not tax_set.taxes:
        return []
    return list(zip([t.shown for t in tax_set.taxes], charges(tax_set, nights, prices, persons), strict=True))


