"""What a shopping call asks for — the stay, the party and the currency — read from its query parameters.

Two spellings are read: the spec's snake_case (`checkin_date`, `children_age`) and the camelCase of Channex's own
booking engine and its typed clients (`checkinDate`, `checkoutDate`, `childrenAge[]`: ChannexIO/instant_booking_page,
src/api_actions/actions.js and src/containers/data_context/utils/get_booking_params_from_url.js;
daviesevan-svg/channex-booking-page, app/lib/channex/types.ts `RoomsQuery`). Either may be sent; the same
parameter under two names with different values is a 422. A list is comma-joined (`children_age=5,7`, as the engine's
src/api_actions/utils/stringify_arguments.js writes an array) or repeated (`childrenAge[]=5&childrenAge[]=7`).
What else a page sends (`withVirtualRatePlans`, its own state) means nothing here and is left alone.

Children's ages are 0 to 17, the choices the engine offers (children_age_settings.js). They make the party by the
property's age bands (backend/inventory/age_bands.py, the rule push_booking prices `guests_ages` by too). `children`, sent
beside the ages, must count them; `infants` sent beside are infants whose ages are not given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property
from typing import cast

from backend.core.dates import parse_date
from backend.core.errors import Errors
from backend.core.fields import is_currency
from backend.inventory.age_bands import Bands
from backend.inventory.stays import Guests, Nights

MAX_GUESTS = 200
MAX_CHILD_AGE = 17
MAX_NIGHTS = 730
# Our name → the other names a page may send it under.
SPELLINGS: dict[str, tuple[str, ...]] = {
    "checkin_date": ("checkinDate",), "checkout_date": ("checkoutDate",), "length_of_stay": ("lengthOfStay",),
    "children_age": ("children_age[]", "childrenAge", "childrenAge[]"),
}
CAMEL = {ours: others[-1].removesuffix("[]") for ours, others in SPELLINGS.items()}  # checkin_date → checkinDate
OURS = {name: ours for ours, others in SPELLINGS.items() for name in (ours, *others)}
LISTS = frozenset({"children_age"})


@dataclass(frozen=True)
class Party:
    adults: int
    children: int = 0
    infants: int = 0
    ages: tuple[int, ...] = ()  # the children's, when sent: the property's bands say what each counts as

    def guests(self, bands: Bands) -> Guests:
        if not self.ages:
            return Guests(self.adults, self.children, self.infants)
        return bands.party(self.adults, self.ages, self.infants)


@dataclass(frozen=True)
class Stay:
    arrival: date
    departure: date
    party: Party | None  # None: every option at its own occupancy
    currency: str | None  # only the rate plans sold in it; Frontdesk converts nothing
    names: Mapping[str, str] = field(default_factory=dict)  # our name → the name it was sent under

    @cached_property
    def nights(self) -> Nights:
        return Nights.of(self.arrival, self.departure)

    def sent_as(self, name: str) -> str:
        return self.names.get(name, name)


def read(params: Iterable[tuple[str, str]], errors: Errors) -> dict[str, tuple[str, str]]:
    """Each parameter under our name, with the name it came under: `{"checkin_date": ("checkinDate", "2027-…")}`.
    A list's values are joined with commas; another parameter sent twice keeps its last value."""
    sent: dict[str, dict[str, list[str]]] = {}
    for name, value in params:
        sent.setdefault(OURS.get(name, name), {}).setdefault(name, []).append(value)
    found = {}
    for ours, spellings in sent.items():
        values = {name: ",".join(v) if ours in LISTS else v[-1] for name, v in spellings.items()}
        (first, value), *others = values.items()
        for name, other in others:
            if other != value:
                errors.add(name, f"differs from {first}, the same parameter under another name: send one of them")
        found[ours] = (first, value)
    return found


def parse_stay(params: Iterable[tuple[str, str]], *, length_allowed: bool = False) -> Stay | None:
    """checkin_date with checkout_date (or length_of_stay); optionally adults, children (or their ages), infants and
    currency. None without dates; every problem at once, under the names sent."""
    errors = Errors()
    found = read(params, errors)
    names = {ours: sent for ours, (sent, _) in found.items()}
    party, currency = _party(found, errors), _currency(found, errors)
    checkin, checkout, length = (found[k][1] if k in found else None for k in ("checkin_date", "checkout_date",
                                                                                "length_of_stay"))

    camel = any(sent in OURS and not sent.islower() for sent in names.values())  # a page's camelCase, answered in it

    def name(ours: str) -> str:
        """The name a parameter came under; one not sent, in the spelling of those that were."""
        return names.get(ours) or (CAMEL.get(ours, ours) if camel else ours)

    if checkin is None and checkout is None and length is None:
        errors.raise_if_any()
        return None
    arrival = departure = None
    try:
        arrival = parse_date(checkin)
    except ValueError as exc:
        errors.add(name("checkin_date"),
                   str(exc) if checkin is not None else f"is required with {name('checkout_date')}")
    if length is not None and not length_allowed:
        errors.add(name("length_of_stay"), "is not a parameter of this call")
    elif length is not None:
        nights = int(length) if length.isascii() and length.isdigit() and len(length) <= 3 else 0
        if not 1 <= nights <= MAX_NIGHTS:
            errors.add(name("length_of_stay"), f"must be a whole number of nights from 1 to {MAX_NIGHTS}")
        elif arrival:
            departure = arrival + timedelta(days=nights)
    if checkout is not None:
        try:
            stated = parse_date(checkout)
            if departure is not None and stated != departure:
                errors.add(name("checkout_date"), f"does not match {name('checkin_date')} + {name('length_of_stay')}")
            departure = stated
        except ValueError as exc:
            errors.add(name("checkout_date"), str(exc))
    elif length is None:
        errors.add(name("checkout_date"), f"is required with {name('checkin_date')}"
                   + (f" (or give {name('length_of_stay')})" if length_allowed else ""))
    if arrival and departure and departure <= arrival:
        errors.add(name("checkout_date"), f"must be after {name('checkin_date')}")
    errors.raise_if_any()  # for want of either date too
    return Stay(cast(date, arrival), cast(date, departure), party, currency, names)


def _party(found: dict[str, tuple[str, str]], errors: Errors) -> Party | None:
    counts = {}
    for name in ("adults", "children", "infants"):
        if name in found:
            raw = found[name][1]
            if raw.isascii() and raw.isdigit() and int(raw) <= MAX_GUESTS:
                counts[name] = int(raw)
            else:
                errors.add(name, f"must be a whole number from 0 to {MAX_GUESTS}")
    ages = _ages(*found["children_age"], errors) if "children_age" in found else ()
    if ages is None:
        return None
    if ages and counts.get("children", len(ages)) != len(ages):
        errors.add("children", f"must count the children whose ages are given ({len(ages)})")
    if not counts and not ages:
        return None
    if counts.get("adults", 0) < 1:
        errors.add("adults", "at least one adult is needed")
        return None
    return Party(counts["adults"], len(ages) or counts.get("children", 0), counts.get("infants", 0), ages)


def _ages(name: str, raw: str, errors: Errors) -> tuple[int, ...] | None:
    """Comma-separated whole numbers from 0 to 17 (an empty list is no ages); None when any is not one."""
    parts = raw.split(",") if raw else []
    if len(parts) > MAX_GUESTS:
        errors.add(name, f"may give at most {MAX_GUESTS} ages")
        return None
    bad = [index for index, part in enumerate(parts)
           if not (part.isascii() and part.isdigit() and int(part) <= MAX_CHILD_AGE)]
    for index in bad:
        errors.add(f"{name}.{index}", f"must be a child's age, a whole number from 0 to {MAX_CHILD_AGE}")
    return None if bad else tuple(int(part) for part in parts)


def _currency(found: dict[str, tuple[str, str]], errors: Errors) -> str | None:
    if "currency" not in found:
        return None
    value = found["currency"][1]
    if not is_currency(value):
        errors.add("currency", "must be an ISO 4217 currency code in capitals, e.g. EUR")
        return None
    return value
