"""Room types, rate plans and hotel policies as create and update accept them.

Rules that need the database (the property is the actor's, the room type belongs to the property,
an occupancy fits the room) are checked by the services with the same dotted field names.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
)

from backend.fields import (
    Amount,
    Currency,
    LongText,
    OptionalAmount,
    RequiredText,
    RequiredUrl,
    Text255,
)

HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
MEAL_PLANS = ("room_only", "breakfast", "half_board", "full_board", "all_inclusive")
TAX_MODES = ("percent", "per_room_per_night", "per_person_per_night", "per_booking")


def _hhmm(value: str) -> str:
    if not HHMM.match(value):
        raise ValueError("must be a time HH:MM, 24 h")
    return value


Time = Annotated[StrictStr, AfterValidator(_hhmm)]
Count = Annotated[StrictInt, Field(ge=0, le=100)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- room types ----------------------------------------------------------------------------------

class BedOption(Strict):
    title: RequiredText
    count: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    size: Text255 = None


class RoomPhoto(Strict):
    url: RequiredUrl
    title: Text255 = None
    author: Text255 = None


class RoomTypeInput(Strict):
    property_id: StrictStr
    title: RequiredText
    count_of_rooms: Annotated[StrictInt, Field(ge=0, le=10_000)]
    occ_adults: Annotated[StrictInt, Field(ge=1, le=100)]
    occ_children: Count = 0
    occ_infants: Count = 0
    default_occupancy: Annotated[StrictInt, Field(ge=1, le=200)] | None = None
    description: LongText = None
    bed_options: Annotated[list[BedOption], Field(max_length=20)] = []
    facilities: Annotated[list[RequiredText], Field(max_length=100)] = []
    photos: Annotated[list[RoomPhoto], Field(max_length=100)] = []

    @field_validator("default_occupancy")
    @classmethod
    def _fits(cls, value: int | None, info) -> int | None:
        adults, children = info.data.get("occ_adults"), info.data.get("occ_children", 0)
        if value is not None and adults is not None and value > adults + children:
            raise ValueError("must not exceed occ_adults + occ_children")
        return value


class RoomTypeEnvelope(BaseModel):
    room_type: RoomTypeInput


# --- rate plans ----------------------------------------------------------------------------------

class RateOption(Strict):
    occupancy: Annotated[StrictInt, Field(ge=1, le=200)]
    is_primary: StrictBool = False
    rate: Amount


class CancellationPolicy(Strict):
    title: Text255 = None
    cancellation_policy_logic: Literal["free", "deadline", "non_refundable"] = "free"
    cancellation_policy_deadline: Annotated[StrictInt, Field(ge=0, le=8760)] = 0
    cancellation_policy_deadline_type: Literal["hours", "days"] = "days"
    cancellation_policy_mode: Literal["percent", "nights", "fixed"] = "percent"
    cancellation_policy_penalty: Amount = Decimal(0)
    guarantee_payment_policy: Literal["none", "guarantee", "deposit", "prepayment"] = "none"
    guarantee_payment_amount: OptionalAmount = None
    non_show_policy: Literal["full_stay", "first_night", "none"] = "full_stay"
    currency: Currency | None = None


class Tax(Strict):
    title: RequiredText
    mode: Literal[TAX_MODES]  # type: ignore[valid-type]
    rate: Amount = Field(description="a percentage for mode percent, else an amount in the rate plan's currency")
    inclusive: StrictBool = False
    amount: StrictStr | None = Field(None, description="read-only: the tax of a priced stay")


class RatePlanInput(Strict):
    property_id: StrictStr
    room_type_id: StrictStr
    title: RequiredText
    currency: Currency | None = Field(None, description="defaults to the property's currency")
    sell_mode: Literal["per_room", "per_person"] = "per_room"
    meal_plan: Literal[MEAL_PLANS] = "room_only"  # type: ignore[valid-type]
    options: Annotated[list[RateOption], Field(min_length=1, max_length=20)]
    cancellation_policy: CancellationPolicy = CancellationPolicy()
    taxes: Annotated[list[Tax], Field(max_length=20)] = []

    @field_validator("options")
    @classmethod
    def _one_primary(cls, options: list[RateOption]) -> list[RateOption]:
        occupancies = [o.occupancy for o in options]
        if len(set(occupancies)) != len(occupancies):
            raise ValueError("each occupancy may appear once")
        primaries = sum(o.is_primary for o in options)
        if len(options) == 1 and primaries == 0:
            options[0].is_primary = True
        elif primaries != 1:
            raise ValueError("exactly one option must be primary")
        return sorted(options, key=lambda o: o.occupancy)


class RatePlanEnvelope(BaseModel):
    rate_plan: RatePlanInput


# --- hotel policy --------------------------------------------------------------------------------

class HotelPolicyInput(Strict):
    title: Text255 = None
    currency: Currency | None = Field(None, description="defaults to the property's currency")
    checkin_from_time: Time = "14:00"
    checkin_to_time: Time = "22:00"
    checkout_from_time: Time = "07:00"
    checkout_to_time: Time = "11:00"
    children_max_age: Annotated[StrictInt, Field(ge=0, le=17)] = 12
    infant_max_age: Annotated[StrictInt, Field(ge=0, le=5)] | None = 2
    is_adults_only: StrictBool = False
    max_count_of_guests: Annotated[StrictInt, Field(ge=1, le=10_000)] = 20
    internet_access_type: Literal["none", "wifi", "wired"] = "wifi"
    internet_access_coverage: Literal["entire_property", "public_areas", "all_rooms", "some_rooms",
                                      "business_centre"] = "entire_property"
    internet_access_cost: OptionalAmount = None
    parking_type: Literal["on_site", "nearby", "none"] = "none"
    parking_reservation: Literal["needed", "not_needed", "not_available"] = "not_available"
    parking_is_private: StrictBool = False
    pets_policy: Literal["allowed", "not_allowed", "by_arrangement", "assistive_only"] = "not_allowed"
    pets_non_refundable_fee: OptionalAmount = None
    pets_refundable_deposit: OptionalAmount = None
    smoking_policy: Literal["no_smoking", "permitted_areas_only", "allowed"] = "no_smoking"


class HotelPolicyEnvelope(BaseModel):
    hotel_policy: HotelPolicyInput
