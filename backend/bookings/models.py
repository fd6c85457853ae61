"""A pushed booking, field by field as the spec's pushed-booking tables define it.

Dates, guests and codes that need the property (past dates, state_length, capacity, mappings)
are checked by the service under the same dotted names. Card numbers never appear in a message.
The service's booking names are accepted too (its Booking CRS API,
https://docs.channex.io/api-v.1-documentation/booking-crs-api): `ota_reservation_code` for `reservation_id`,
a room's `room_type_id` and `rate_plan_id` for its codes; problems are reported under our names.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from backend.core.card_data import luhn_ok
from backend.core.dates import parse_date
from backend.core.fields import Country, Currency, Email, LongText, Phone, RequiredText, Text32, Text255
from backend.core.money import Money
from backend.inventory.models import Time

EXPIRY = re.compile(r"^(0[1-9]|1[0-2])/(\d{4})$")
VAULT_TOKEN = re.compile(r"[0-9a-f]{32}")
SEALED = frozenset({"card_number", "expiration_date", "cvv"})  # with a token, the vault's alone
CARD_MISSING = "card_missing"  # a card field left out, which a card form's token makes no problem
AGENT_CAMEL = {"codeContext": "code_context"}
ADDRESS_CAMEL = {"addressLine": "address_line", "countryCode": "country_code", "stateCode": "state_code",
                 "postCode": "post_code"}
# A room's other names: the service's codes, and the `guest` list that Channex's booking engine sends
# (ChannexIO/instant_booking_page, src/components/payment_form/utils/builld_booking.js).
ROOM_NAMES = {"room_type_id": "room_type_code", "rate_plan_id": "rate_plan_code", "guest": "guests"}
Meta = dict[str, Any] | None


def _card_number(value: str) -> str:
    digits = value.replace(" ", "").replace("-", "")
    if not (digits.isascii() and digits.isdigit() and 12 <= len(digits) <= 19):
        raise ValueError("must be 12 to 19 digits")
    if not luhn_ok(digits):
        raise ValueError("is not a valid card number (check digit)")
    return digits


def _vault_token(value: str) -> str:
    if not VAULT_TOKEN.fullmatch(value):
        raise ValueError("must be the token the card capture form gave (32 hexadecimal characters)")
    return value


def _cvv(value: str) -> str:
    if not (value.isascii() and value.isdigit() and len(value) in (3, 4)):
        raise ValueError("must be 3 or 4 digits")
    return value


def _expiry(value: str) -> str:
    if not EXPIRY.match(value):
        raise ValueError("must be MM/YYYY with a month from 01 to 12")
    return value


def _date(value: object) -> str:
    return parse_date(value).isoformat()


def _language(value: str) -> str:
    if not re.fullmatch(r"[a-z]{2}", value):
        raise ValueError("must be a 2-letter language code, e.g. en")
    return value


def rename(value: Any, names: dict[str, str]) -> Any:
    """Another spelling of some keys (camelCase, the service's names) as ours; both spellings at once is an error."""
    if not isinstance(value, dict):
        return value
    result = dict(value)
    for other, ours in names.items():
        if other in result:
            if ours in result:
                raise ValueError(f"give {ours} or {other}, not both")
            result[ours] = result.pop(other)
    return result


def renamed(names: dict[str, str]) -> BeforeValidator:
    return BeforeValidator(lambda value: rename(value, names))


DateText = Annotated[StrictStr, AfterValidator(_date)]
Count = Annotated[StrictInt, Field(ge=0, le=100)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Occupancy(Strict):
    adults: Annotated[StrictInt, Field(ge=1, le=100)]
    children: Count = 0
    infants: Count = 0
    ages: Annotated[list[Annotated[StrictInt, Field(ge=0, le=17)]], Field(max_length=200)] = Field(
        [], description="the children's and infants' ages")


class Guest(Strict):
    name: Text255 = None
    surname: Text255 = None


class RoomIn(Strict):
    index: Annotated[StrictInt, Field(ge=0, le=1000)] | None = None
    room_type_code: RequiredText
    rate_plan_code: RequiredText
    occupancy: Occupancy
    guests: Annotated[list[Guest], Field(max_length=100)] = []
    guests_ages: Annotated[list[Annotated[StrictInt, Field(ge=0, le=17)] | None], Field(max_length=100)] = Field(
        [], description="the children's ages as a booking engine sends them, 0 to 17 (null: not given), kept as "
                        "sent. One age for each child and infant of occupancy prices the room by the property's "
                        "age bands, as the shopping API's rooms shows it (a 15-year-old may be an adult); fewer, or "
                        "a null, leave occupancy to price it; more is a 422")
    days: dict[DateText, Money] | None = Field(
        None, description="the price of each night (date → price); a push names one for every night of the stay")
    meta: Meta = None

    @field_validator("guests_ages")
    @classmethod
    def _no_more_ages_than_kids(cls, ages: list[int | None], info: ValidationInfo) -> list[int | None]:
        """More ages than the children and infants counted: which count is wrong can't be told, so nothing is
        guessed (fewer is a page that left some out: occupancy prices the room, backend/bookings/ages.py)."""
        occupancy = info.data.get("occupancy")
        if occupancy is not None and len(ages) > occupancy.children + occupancy.infants:
            raise ValueError(f"gives {len(ages)} ages, more than the children and infants of occupancy "
                             f"({occupancy.children + occupancy.infants}): give one age for each")
        return ages


class Company(Strict):
    title: Text255 = None
    number: Text255 = None
    number_type: Text255 = None


class Customer(Strict):
    name: Text255 = None
    surname: RequiredText
    country: Country = None
    city: Text255 = None
    state: Text255 = Field(None, description="the billing address's state, as Channex's booking engine sends it")
    address: Text255 = None
    zip: Text32 = None
    mail: Email = None
    phone: Phone = None
    language: Annotated[StrictStr, AfterValidator(_language)] | None = None
    company: Company | None = None
    meta: Meta = None


class Guarantee(Strict):
    """A card as such, or a card that the card capture form put in the vault: its `token` (`card_token`, as the
    service's form names it). The vault then holds the number, expiry and CVV, and what a page echoes of them
    (masked) is not read; the holder's name and the card's type may still be sent for the booking to show."""

    model_config = ConfigDict(extra="forbid", validate_default=True)

    token: Annotated[StrictStr, AfterValidator(_vault_token)] | None = Field(
        None, validation_alias=AliasChoices("token", "card_token"))
    card_number: Annotated[StrictStr, AfterValidator(_card_number)] | None = None
    cardholder_name: RequiredText | None = None
    card_type: RequiredText | None = None
    expiration_date: Annotated[StrictStr, AfterValidator(_expiry)] | None = None
    cvv: Annotated[StrictStr, AfterValidator(_cvv)] | None = None
    meta: Meta = None

    @field_validator("card_number", "expiration_date", "cvv", "cardholder_name", "card_type", mode="wrap")
    @classmethod
    def _the_card_or_its_token(cls, value: Any, handler: Any, info: ValidationInfo) -> Any:
        if info.data.get("token") is not None:
            return None if info.field_name in SEALED else handler(value) if value is not None else None
        if value is None:
            raise PydanticCustomError(CARD_MISSING, "is required")
        return handler(value)

    @model_validator(mode="wrap")
    @classmethod
    def _a_bad_token_alone(cls, data: Any, handler: Any) -> Any:
        """A page that sent a token it got wrong hears of the token alone: the card it stands for is not missing,
        and what it echoes of that card is not read."""
        try:
            return handler(data)
        except ValidationError as failed:
            if not (isinstance(data, dict) and any(data.get(name) is not None for name in ("token", "card_token"))):
                raise
            kept = [e for e in failed.errors() if e["type"] != CARD_MISSING and e["loc"][0] not in SEALED]
            if not kept:
                raise
            raise ValidationError.from_exception_data(failed.title, kept) from None  # type: ignore[arg-type]  # as pydantic gave them

    def expired(self, today: date) -> bool:
        """A card of the form was checked when the guest typed it; the vault holds its expiry."""
        if self.expiration_date is None:
            return False
        month, year = (int(part) for part in self.expiration_date.split("/"))
        return (year, month) < (today.year, today.month)


class Service(Strict):
    type: Literal["Meal", "Fee", "Extra"]
    name: RequiredText
    total_price: Money
    price_per_unit: Money
    price_mode: Literal["Per stay", "Per night", "Per person", "Per person per night"]
    persons: Count
    nights: Annotated[StrictInt, Field(ge=0, le=730)]
    room_index: Annotated[StrictInt, Field(ge=0, le=1000)] | None = None


class AgentAddress(Strict):
    address_line: Text255 = None
    city: Text255 = None
    country_code: Country = None
    state_code: Text32 = None
    post_code: Text32 = None


class Agent(Strict):
    name: RequiredText
    code: Text255 = None
    code_context: Text255 = None
    phone: Phone = None
    email: Email = None
    address: Annotated[AgentAddress | None, renamed(ADDRESS_CAMEL)] = None


class Deposit(Strict):
    """A deposit the guest paid, as the service's CRS page gives it (its `charget_at` is read as `charged_at`):
    kept with the booking as sent, in the booking's currency unless it names its own."""

    amount: Money
    currency: Currency | None = None
    charged_at: Text32 = None
    type: Text32 = None
    notes: LongText = None
    meta: Meta = None


class BookingInput(Strict):
    """What push_booking and the OTA inbound path accept. A cancellation needs only status and
    reservation_id; new and modified bookings need the stay (the service says so per field)."""

    status: Literal["new", "modified", "cancelled"]
    reservation_id: Text255 = None
    ota_reservation_code: Text255 = Field(None, exclude=True, description="the service's name of reservation_id")
    property_id: StrictStr | None = Field(None, description="OTA inbound and POST /bookings only: the property booked")
    arrival_date: DateText | None = None
    departure_date: DateText | None = None
    arrival_hour: Time | None = None
    currency: Currency | None = None
    payment_collect: Literal["ota", "property"] = "property"
    payment_type: Literal["bank_transfer", "credit_card"] | None = None
    customer: Customer | None = None
    guarantee: Guarantee | None = None
    rooms: Annotated[list[Annotated[RoomIn, renamed(ROOM_NAMES)]], Field(max_length=100)] = []
    services: Annotated[list[Service], Field(max_length=200)] = []
    agent: Annotated[Agent | None, renamed(AGENT_CAMEL)] = None
    ota_commission: Money | None = Field(None, description="what the channel keeps, in the booking's currency")
    deposits: Annotated[list[Annotated[Deposit, renamed({"charget_at": "charged_at"})]], Field(max_length=50)] = []
    notes: LongText = None
    meta: Meta = None

    @field_validator("ota_reservation_code")
    @classmethod
    def _one_code(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and info.data.get("reservation_id") is not None:
            raise ValueError("give reservation_id or ota_reservation_code, not both")
        return value

    @model_validator(mode="after")
    def _as_reservation_id(self) -> BookingInput:
        if self.ota_reservation_code is not None:
            self.reservation_id = self.ota_reservation_code
        return self

    @field_validator("departure_date")
    @classmethod
    def _after_arrival(cls, value: str | None, info: ValidationInfo) -> str | None:
        arrival = info.data.get("arrival_date")
        if value is not None and arrival is not None and value <= arrival:
            raise ValueError("must be after arrival_date")
        return value


class BookingEnvelope(BaseModel):
    booking: BookingInput
