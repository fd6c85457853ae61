"""Whether a stay can be sold, and at what price: the restriction rules of the whole engine.

For a rate plan and a stay [arrival, departure):
- every night must lie in the property's window (not past, not cut off, within state_length),
  have availability for the rooms asked, a rate, and no stop_sell;
- the arrival date must not be closed_to_arrival, the departure date not closed_to_departure;
- min_stay_arrival and max_stay are the arrival date's values, min_stay_through the highest of
  every night's; the property's min_stay_type says which min stay kinds are enforced;
- the guests pick the smallest option whose occupancy holds adults + children (above the largest
  option: not sold); a non-primary option costs the night's rate plus its difference from the
  primary option's rate; per_person plans multiply by adults + children; each child adds the plan's
  children_fee and each infant its infant_fee, per night.

A night's values are the plan's own, else its default for the weekday (`Nightly`); a derived plan takes
its rate from its parent's through its modifiers, and the restrictions its flags name from its parent
(`inherited`), computed on every read. The price is the sum of the nightly prices. Shopping,
push_booking and the ARI reads all ask here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property, lru_cache
from operator import itemgetter
from typing import Any, NamedTuple, cast

from pydantic_core import from_json

from backend.core.dates import days
from backend.core.money import parse_money
from backend.inventory.models import INHERITS, after_reservation, complete
from backend.inventory.window import Window
from storage import Row

# Column order of the restriction rows that the evaluator reads: a night's values, rate first.
ROW_FIELDS = ("rate", "min_stay_arrival", "min_stay_through", "max_stay", "closed_to_arrival", "closed_to_departure",
              "stop_sell")
R_RATE, R_MSA, R_MST, R_MAX, R_CTA, R_CTD, R_STOP = range(7)


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
    def of(cls, row: Row) -> Room:
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
    meal_type: str
    options: tuple[tuple[int, int], ...]  # (occupancy, rate in minor units), smallest occupancy first
    primary_rate: int
    details: dict[str, Any]
    weekdays: tuple[tuple[Any, ...], ...]  # Monday first: the row of a night without values of its own (no rate)
    children_fee: int
    infant_fee: int
    parent_id: str | None = None
    modifiers: tuple[tuple[str, Decimal], ...] = ()  # a derived plan's, in order; amounts in minor units
    takes: tuple[int, ...] = ()  # a derived plan's: per restriction, its own row's (0) or its parent's (1)
    tax_set_id: str | None = None  # its taxes (backend/inventory/taxes.py), read beside it: a set changes on its own
    _rates: dict[int, int] = field(default_factory=dict, compare=False, repr=False)  # parent rate → derived

    @classmethod
    def of(cls, row: Row | dict[str, Any]) -> Plan:
        currency = row["currency"]
        details = complete(from_json(row["details"]), currency)
        options = tuple((o["occupancy"], parse_money(o["rate"], currency)) for o in details["options"])
        primary = next(o for o in details["options"] if o["is_primary"])
        weekdays = tuple((None, *(details[name][day] for name in ROW_FIELDS[1:])) for day in range(7))
        modifiers = tuple((rule, Decimal(parse_money(value, currency)) if rule.endswith("_amount") else Decimal(value))
                          for rule, value in (primary["derived_option"] or {}).get("rate", []))
        taken = {name for flag, name in INHERITS.items() if details[flag]}
        return cls(row["id"], row["property_id"], row["room_type_id"], row["title"], currency, row["sell_mode"],
                   row["meal_type"], options, parse_money(primary["rate"], currency), details, weekdays,
                   parse_money(details["children_fee"], currency), parse_money(details["infant_fee"], currency),
                   row["parent_rate_plan_id"], modifiers, tuple(int(name in taken) for name in ROW_FIELDS[1:]),
                   row["tax_set_id"])

    @cached_property
    def cancellation_policy(self) -> dict[str, Any]:
        """As the shopping API shows it: with `after_reservation_cancellation_logic`. Made once per plan version."""
        policy = self.details["cancellation_policy"]
        return {**policy, "after_reservation_cancellation_logic": after_reservation(policy)}

    @cached_property
    def stop_weekdays(self) -> frozenset[int]:
        """The weekdays (Monday 0) whose default stops sale: what a night without a value of its own reads."""
        return frozenset(day for day, row in enumerate(self.weekdays) if row[R_STOP])

    @cached_property
    def longest_through(self) -> int:
        """The highest default min_stay_through of any weekday."""
        return max(int(row[R_MST]) for row in self.weekdays)

    def option_for(self, guests: Guests) -> tuple[int, int] | None:
        for occupancy, rate in self.options:
            if occupancy >= guests.persons:
                return occupancy, rate
        return None

    def derived(self, parent_rate: int | None) -> int | None:
        """A night's rate from its parent's: the modifiers in order on the exact amount, then rounded once to
        the currency's minor unit, half away from zero; never below zero. Remembered per parent rate."""
        if parent_rate is None:
            return None
        rate = self._rates.get(parent_rate)
        if rate is None:
            amount = Decimal(parent_rate)
            for rule, value in self.modifiers:
                change = amount * value / 100 if rule.endswith("_percent") else value
                amount = amount + change if rule.startswith("increase") else amount - change
            rate = self._rates[parent_rate] = max(0, int(amount.to_integral_value(ROUND_HALF_UP)))
        return rate


@lru_cache(maxsize=4096)
def weekday_of(day: str) -> int:
    return date.fromisoformat(day).weekday()


def weekdays_between(first: str, last: str) -> dict[str, int]:
    """ISO date → weekday (Monday 0) of every date from first to last."""
    start = date.fromisoformat(first)
    return {d.isoformat(): d.weekday() for d in days(start, date.fromisoformat(last) + timedelta(days=1))}


class Nightly(dict[str, Any]):
    """One plan's nights, ISO date → row (ROW_FIELDS): a night without values of its own reads the plan's
    weekday defaults, by `[]` and `get` alike."""

    __slots__ = ("weekdays",)
    weekdays: tuple[tuple[Any, ...], ...]

    @classmethod
    def of(cls, weekdays: tuple[tuple[Any, ...], ...]) -> Nightly:
        nights = cls()
        nights.weekdays = weekdays
        return nights

    def __missing__(self, day: str) -> tuple[Any, ...]:
        return self.weekdays[weekday_of(day)]

    def get(self, day: str, default: object = None) -> tuple[Any, ...]:
        return cast(tuple[Any, ...], self[day])


def inherited(plan: Plan, own: Nightly, parent: Nightly) -> Nightly:
    """A derived plan's nights: the rate from its parent's through its modifiers, each restriction from its
    parent's night or its own, as its flags say."""
    pick = itemgetter(*(1 + index + 7 * source for index, source in enumerate(plan.takes)))
    nights = Nightly.of(tuple((None, *pick(mine + theirs)) for mine, theirs in zip(plan.weekdays, parent.weekdays,
                                                                                  strict=True)))
    derived = plan.derived
    for day in own.keys() | parent.keys():
        theirs = parent[day]
        nights[day] = (derived(theirs[R_RATE]), *pick(own[day] + theirs))
    return nights


@dataclass(frozen=True)
class Nights:
    """A stay's dates, with the ISO keys of its nights worked out once for every plan that prices it."""

    arrival: date
    departure: date
    keys: tuple[str, ...]

    @classmethod
    def of(cls, arrival: date, departure: date) -> Nights:
        return cls(arrival, departure, tuple(d.isoformat() for d in days(arrival, departure)))


class Quote(NamedTuple):
    """An option's price of a stay. A named tuple, not a dataclass: a rooms call makes hundreds, and a frozen
    dataclass costs twice as much to make."""

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


class StayFacts(NamedTuple):
    """What the rules read of one plan's stay, however it was read: night by night from its rows (`facts_of`), or
    summed up per plan by the database (backend/inventory/calendar.py `stay_facts`), which tells whether some night
    is closed but not which one."""

    rates: list[int]  # the primary occupancy's rate of each night; whole when no night is closed
    closed: str | None  # why some night can't be sold (no room left, no rate, stop sell), else None
    through: int  # the highest min_stay_through of the nights, 1 at least
    closed_to_arrival: bool  # the arrival's
    min_stay_arrival: int  # the arrival's
    max_stay: int  # the arrival's; 0 for none
    closed_to_departure: bool  # the departure date's


def facts_of(stay: Nights, restrictions: Nightly, availability: dict[str, int], rooms: int = 1) -> StayFacts:
    """The stay's facts from its nights' rows; `closed` names the first night that can't be sold."""
    rates: list[int] = []
    through, closed = 1, None
    for key in stay.keys:
        row = restrictions[key]
        if availability.get(key, 0) < rooms:
            closed = f"no availability on {key}"
        elif row[R_RATE] is None:
            closed = f"no rate on {key}"
        elif row[R_STOP]:
            closed = f"stop sell on {key}"
        else:
            if row[R_MST] > through:
                through = row[R_MST]
            rates.append(row[R_RATE])
            continue
        break
    first = restrictions[stay.keys[0]]
    return StayFacts(rates, closed, through, bool(first[R_CTA]), first[R_MSA], first[R_MAX],
                     bool(restrictions[stay.departure.isoformat()][R_CTD]))


def open_rates(stay: Nights, window: Window, facts: StayFacts, min_stay_type: str) -> list[int]:
    """The primary occupancy's rate of each night, or NotSellable: the one place the rules of a stay are decided."""
    arrival, departure = stay.arrival, stay.departure
    if arrival < window.first:
        raise NotSellable(f"{arrival.isoformat()} is closed for sale (past or after the cut-off)")
    if departure > window.end:
        raise NotSellable(f"the stay goes beyond the property's state_length ({window.end.isoformat()})")
    if facts.closed_to_arrival:
        raise NotSellable(f"{stay.keys[0]} is closed to arrival")
    if facts.closed_to_departure:
        raise NotSellable(f"{departure.isoformat()} is closed to departure")
    if facts.closed is not None:
        raise NotSellable(facts.closed)
    nights = len(stay.keys)
    if min_stay_type != "through" and facts.min_stay_arrival > nights:
        raise NotSellable(f"arrivals on {stay.keys[0]} need at least {facts.min_stay_arrival} nights")
    if min_stay_type != "arrival" and facts.through > nights:
        raise NotSellable(f"the stay needs at least {facts.through} nights")
    if facts.max_stay and nights > facts.max_stay:
        raise NotSellable(f"arrivals on {stay.keys[0]} allow at most {facts.max_stay} nights")
    return facts.rates


def option_prices(plan: Plan, rates: list[int], option_rate: int, guests: Guests) -> tuple[int, ...]:
    """An option's nightly prices: the night's rate plus the option's difference from the primary option, times
    the guests when sold per person, plus the fees of the children and infants."""
    offset = option_rate - plan.primary_rate
    if offset == 0:  # the primary option, the common case: no arithmetic at all
        prices = tuple(rates)
    elif offset > 0:  # lists made into tuples: a comprehension is quicker than a generator
        prices = tuple([r + offset for r in rates])
    else:
        prices = tuple([r + offset if r + offset > 0 else 0 for r in rates])
    if plan.sell_mode == "per_person":
        prices = tuple([p * guests.persons for p in prices])
    if plan.children_fee or plan.infant_fee:
        fees = guests.children * plan.children_fee + guests.infants * plan.infant_fee
        prices = tuple([p + fees for p in prices])
    return prices


def quote(plan: Plan, room: Room, guests: Guests, stay: Nights, window: Window, restrictions: Nightly,
          availability: dict[str, int], min_stay_type: str, rooms: int = 1) -> Quote:
    """The price of the stay for these guests, or NotSellable."""
    problem = room.holds(guests)
    if problem:
        raise NotSellable(f"the room {problem}")
    option = plan.option_for(guests)
    if option is None:
        raise NotSellable(f"the rate plan sells at most {plan.options[-1][0]} guests")
    rates = open_rates(stay, window, facts_of(stay, restrictions, availability, rooms), min_stay_type)
    return Quote(plan, option[0], stay.keys, option_prices(plan, rates, option[1], guests))
