"""Whether a stay can be sold, and at what price: the restriction rules of the whole engine.

For a rate plan and a stay [arrival, departure):
- every night must lie in the property's window (not past, not cut off, within state_length),
  have availability for the rooms asked, a rate, and no stop_sell;
- the arrival date must not be closed_to_arrival, the departure date not closed_to_departure;
- min_stay_arrival and max_stay are the arrival date's values, min_stay_through the highest of
  every night's; the property's min_stay_type says which min stay kinds are enforced;
- the guests pick the smallest option whose occupancy holds adults + children (above the largest
  option: not sold); a non-primary option costs the night's rate plus its difference from the
  primary option's rate; per_person plans multiply by adults + children.

The price is the sum of the nightly prices. Shopping and push_booking both ask here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from pydantic_core import from_json

from backend.dates import days
from backend.fields import currency_minor_digits
from backend.inventory.ari import Window
from backend.money import format_minor, parse_price

# Column order of the restriction rows that the evaluator reads.
R_RATE, R_MSA, R_MST, R_MAX, R_CTA, R_CTD, R_STOP = range(7)
RESTRICTION_SELECT = ("rate_plan_id, date, rate, min_stay_arrival, min_stay_through, max_stay, closed_to_arrival, "
                      "closed_to_departure, stop_sell")


@dataclass(frozen=True)
class Guests:
    adults: int
    children: int = 0
    infants: int = 0

    @property
    def persons(self) -> int:
        return self.adults + self.children


@dataclass(frozen=True)
class Room:
    id: str
    property_id: str
    title: str
    count_of_rooms: int
    occ_adults: int
    occ_children: int
    occ_infants: int
    default_occupancy: int
    details: dict[str, Any]

    @classmethod
    def of(cls, row) -> Room:
        return cls(row["id"], row["property_id"], row["title"], row["count_of_rooms"], row["occ_adults"],
                   row["occ_children"], row["occ_infants"], row["default_occupancy"], from_json(row["details"]))

    def holds(self, guests: Guests) -> str | None:
        """Why the room can't hold these guests, or None."""
        if guests.adults > self.occ_adults:
            return f"holds at most {self.occ_adults} adults"
        if guests.children > self.occ_children:
            return f"holds at most {self.occ_children} children"
        if guests.infants > self.occ_infants:
            return f"holds at most {self.occ_infants} infants"
        return None


@dataclass(frozen=True)
class Plan:
    id: str
    property_id: str
    room_type_id: str
    title: str
    currency: str
    sell_mode: str
    meal_plan: str
    options: tuple[tuple[int, int], ...]  # (occupancy, rate in minor units), smallest occupancy first
    primary_rate: int
    details: dict[str, Any]

    @classmethod
    def of(cls, row) -> Plan:
        details = from_json(row["details"])
        options = tuple((o["occupancy"], parse_price(o["rate"], row["currency"])) for o in details["options"])
        primary = next(parse_price(o["rate"], row["currency"]) for o in details["options"] if o["is_primary"])
        return cls(row["id"], row["property_id"], row["room_type_id"], row["title"], row["currency"],
                   row["sell_mode"], row["meal_plan"], options, primary, details)

    def option_for(self, guests: Guests) -> tuple[int, int] | None:
        for occupancy, rate in self.options:
            if occupancy >= guests.persons:
                return occupancy, rate
        return None


@dataclass(frozen=True)
class Nights:
    """A stay's dates, with the ISO keys of its nights worked out once for every plan that prices it."""

    arrival: date
    departure: date
    keys: tuple[str, ...]

    @classmethod
    def of(cls, arrival: date, departure: date) -> Nights:
        return cls(arrival, departure, tuple(d.isoformat() for d in days(arrival, departure)))


@dataclass(frozen=True)
class Quote:
    plan: Plan
    occupancy: int
    nights: tuple[str, ...]
    prices: tuple[int, ...]  # per night, in minor units

    @property
    def price(self) -> int:
        return sum(self.prices)

    @property
    def days(self) -> dict[str, int]:
        return dict(zip(self.nights, self.prices, strict=True))


class NotSellable(Exception):
    """Why a stay can't be sold: a sentence fit for a field error."""


def open_rates(plan: Plan, stay: Nights, window: Window, restrictions: dict[str, tuple], availability: dict[str, int],
               min_stay_type: str, rooms: int = 1) -> list[int]:
    """The primary occupancy's rate of each night, or NotSellable. Rows are keyed by ISO date."""
    arrival, departure = stay.arrival, stay.departure
    if arrival < window.first:
        raise NotSellable(f"{arrival.isoformat()} is closed for sale (past or after the cut-off)")
    if departure > window.end:
        raise NotSellable(f"the stay goes beyond the property's state_length ({window.end.isoformat()})")
    first = restrictions.get(stay.keys[0])
    last = restrictions.get(departure.isoformat())
    if first is not None and first[R_CTA]:
        raise NotSellable(f"{stay.keys[0]} is closed to arrival")
    if last is not None and last[R_CTD]:
        raise NotSellable(f"{departure.isoformat()} is closed to departure")
    rates, through = [], 1
    for key in stay.keys:
        row = restrictions.get(key)
        if availability.get(key, 0) < rooms:
            raise NotSellable(f"no availability on {key}")
        if row is None or row[R_RATE] is None:
            raise NotSellable(f"no rate on {key}")
        if row[R_STOP]:
            raise NotSellable(f"stop sell on {key}")
        if row[R_MST] > through:
            through = row[R_MST]
        rates.append(row[R_RATE])
    nights = len(stay.keys)
    if min_stay_type != "through" and first[R_MSA] > nights:  # type: ignore[index]
        raise NotSellable(f"arrivals on {stay.keys[0]} need at least {first[R_MSA]} nights")  # type: ignore[index]
    if min_stay_type != "arrival" and through > nights:
        raise NotSellable(f"the stay needs at least {through} nights")
    if first[R_MAX] and nights > first[R_MAX]:  # type: ignore[index]
        raise NotSellable(f"arrivals on {stay.keys[0]} allow at most {first[R_MAX]} nights")  # type: ignore[index]
    return rates


def priced(plan: Plan, stay: Nights, rates: list[int], occupancy: int, option_rate: int, persons: int) -> Quote:
    """An option's nightly prices: the night's rate plus the option's difference from the primary option."""
    offset = option_rate - plan.primary_rate
    if offset == 0:  # the primary option, the common case: no arithmetic at all
        prices = tuple(rates)
    elif offset > 0:
        prices = tuple(r + offset for r in rates)
    else:
        prices = tuple(r + offset if r + offset > 0 else 0 for r in rates)
    if plan.sell_mode == "per_person":
        prices = tuple(p * persons for p in prices)
    return Quote(plan, occupancy, stay.keys, prices)


def quote(plan: Plan, room: Room, guests: Guests, stay: Nights, window: Window, restrictions: dict[str, tuple],
          availability: dict[str, int], min_stay_type: str, rooms: int = 1) -> Quote:
    """The price of the stay for these guests, or NotSellable."""
    problem = room.holds(guests)
    if problem:
        raise NotSellable(f"the room {problem}")
    option = plan.option_for(guests)
    if option is None:
        raise NotSellable(f"the rate plan sells at most {plan.options[-1][0]} guests")
    rates = open_rates(plan, stay, window, restrictions, availability, min_stay_type, rooms)
    return priced(plan, stay, rates, option[0], option[1], guests.persons)


def taxes(plan: Plan, quote: Quote, guests: Guests) -> list[dict[str, Any]]:
    """The plan's taxes with the amount each comes to for the quoted stay."""
    currency, price, nights = plan.currency, Decimal(quote.price), len(quote.nights)
    result = []
    for tax in plan.details["taxes"]:
        rate = Decimal(tax["rate"])
        if tax["mode"] == "percent":
            base = price / (1 + rate / 100) if tax["inclusive"] else price
            minor = base * rate / 100
        else:
            units = {"per_room_per_night": nights, "per_person_per_night": nights * guests.persons,
                     "per_booking": 1}[tax["mode"]]
            minor = rate * units * 10 ** currency_minor_digits(currency)
        result.append({**tax, "amount": format_minor(int(minor.to_integral_value()), currency)})
    return result
