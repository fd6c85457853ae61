"""An Airbnb inquiry as the channel's adapter sends it; its booking_details become the inquiry message's meta."""

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
    model_validator,
)

from backend.bookings.models import DateText
from backend.fields import Amount, Currency, RequiredText

ZULU = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
Guests = Annotated[StrictInt, Field(ge=0, le=100)]


def _zulu(value: str) -> str:
    if not ZULU.match(value):
        raise ValueError("must be an ISO 8601 timestamp in UTC ending in Z, e.g. 2026-11-21T10:03:29Z")
    return value


class BookingDetails(BaseModel):
    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr
    room_type_id: StrictStr | None = None
    listing_id: RequiredText
    listing_name: RequiredText
    guest_name: RequiredText
    checkin_date: DateText
    checkout_date: DateText
    nights: Annotated[StrictInt, Field(ge=1, le=730)]
    currency: Currency
    expected_payout_amount_accurate: Amount
    non_response_at: Annotated[StrictStr, AfterValidator(_zulu)]
    number_of_adults: Annotated[StrictInt, Field(ge=1, le=100)]
    number_of_children: Guests = 0
    number_of_infants: Guests = 0
    number_of_pets: Guests = 0
    number_of_guests: Guests | None = None

    @model_validator(mode="after")
    def _consistent(self) -> BookingDetails:
        nights = (date.fromisoformat(self.checkout_date) - date.fromisoformat(self.checkin_date)).days
        if nights != self.nights:
            raise ValueError("nights must be the days from checkin_date to checkout_date")
        if self.number_of_guests is None:
            self.number_of_guests = self.number_of_adults + self.number_of_children
        return self


class InquiryInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    guest_name: RequiredText
    message: StrictStr | None = Field(None, max_length=10_000)
    sent_at: StrictStr | None = Field(None, description="when the guest asked (UTC, ISO 8601); default: now")
    booking_details: BookingDetails


class InquiryEnvelope(BaseModel):
    inquiry: InquiryInput
