"""An Airbnb inquiry as the channel's adapter sends it; its booking_details become the inquiry message's meta.

A thread needs only the guest's name, the dates and the property: every other field of the spec's
booking_details is optional (null, or no children, infants or pets, when not sent), and what is sent is checked. `nights` and
`number_of_guests` are worked out when left out; a payout needs its currency to be read.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from backend.bookings.models import DateText
from backend.core.fields import Currency, RequiredText
from backend.core.money import Money

ZULU = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
Guests = Annotated[StrictInt, Field(ge=0, le=100)]


def _zulu(value: str) -> str:
    if not ZULU.match(value):
        raise ValueError("must be an ISO 8601 timestamp in UTC ending in Z, e.g. 2026-11-21T10:03:29Z")
    return value


class BookingDetails(BaseModel):
    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr
    checkin_date: DateText
    checkout_date: DateText
    guest_name: RequiredText | None = Field(None, description="default: the inquiry's guest_name")
    room_type_id: StrictStr | None = None
    listing_id: RequiredText | None = None
    listing_name: RequiredText | None = None
    nights: Annotated[StrictInt, Field(ge=1, le=730)] | None = Field(None, description="default: from the dates")
    currency: Currency | None = None
    expected_payout_amount_accurate: Money | None = Field(None, description="needs currency")
    non_response_at: Annotated[StrictStr, AfterValidator(_zulu)] | None = None
    number_of_adults: Annotated[StrictInt, Field(ge=1, le=100)] | None = None
    number_of_children: Guests = 0
    number_of_infants: Guests = 0
    number_of_pets: Guests = 0
    number_of_guests: Guests | None = Field(None, description="default: adults + children, when adults are given")

    @field_validator("checkout_date")
    @classmethod
    def _after_checkin(cls, value: str, info: ValidationInfo) -> str:
        checkin = info.data.get("checkin_date")
        if checkin is not None and value <= checkin:
            raise ValueError("must be after checkin_date")
        return value

    @field_validator("nights")
    @classmethod
    def _the_stay(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and value != _nights(info.data.get("checkin_date"), info.data.get("checkout_date")):
            raise ValueError("must be the days from checkin_date to checkout_date")
        return value

    @field_validator("expected_payout_amount_accurate")
    @classmethod
    def _in_currency(cls, value: int | str | None, info: ValidationInfo) -> int | str | None:
        if value is not None and info.data.get("currency", "invalid") is None:  # absent: the currency's own error
            raise ValueError("needs the currency it is in")
        return value

    @model_validator(mode="after")
    def _filled_in(self) -> BookingDetails:
        if self.nights is None:
            self.nights = _nights(self.checkin_date, self.checkout_date)
        if self.number_of_guests is None and self.number_of_adults is not None:
            self.number_of_guests = self.number_of_adults + self.number_of_children
        return self


def _nights(checkin: str | None, checkout: str | None) -> int | None:
    if checkin is None or checkout is None:
        return None
    return (date.fromisoformat(checkout) - date.fromisoformat(checkin)).days


class InquiryInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    guest_name: RequiredText
    message: StrictStr | None = Field(None, max_length=10_000)
    sent_at: StrictStr | None = Field(None, description="when the guest asked (UTC, ISO 8601); default: now")
    booking_details: BookingDetails

    @model_validator(mode="after")
    def _named(self) -> InquiryInput:
        if self.booking_details.guest_name is None:
            self.booking_details.guest_name = self.guest_name
        return self


class InquiryEnvelope(BaseModel):
    inquiry: InquiryInput
