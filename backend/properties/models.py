"""The property as the spec's property table defines it, with every rule checked field by field."""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
)

from backend.core.fields import (
    Country,
    Currency,
    Email,
    Latitude,
    Longitude,
    LongText,
    Phone,
    RequiredText,
    Text32,
    Text255,
    Timezone,
    Url,
    is_currency,
)
from backend.core.money import Money, parse_money
from backend.inventory.models import ContentPhoto

PropertyType = Literal[
    "apart_hotel", "apartment", "boat", "camping", "capsule_hotel", "chalet", "country_house", "farm_stay",
    "guest_house", "holiday_home", "holiday_park", "homestay", "hostel", "hotel", "inn", "lodge", "motel", "resort",
    "riad", "ryokan", "tent", "villa",
]
PROPERTY_TYPES: tuple[PropertyType, ...] = get_args(PropertyType)

# Needed from the first connected channel on, and kept while any channel stays connected.
CONTACT_FIELDS = ("email", "phone", "zip_code", "country", "state", "city", "address", "longitude", "latitude")

# Sent back by clients that PUT what they read; ignored rather than rejected.
READ_ONLY_FIELDS = frozenset({"id", "acc_cannels_count", "inserted_at", "updated_at"})

CUT_OFF_TIME = re.compile(r"^([01]\d|2[0-3]):(00|30):00$")


def _cut_off_time(value: str) -> str:
    if not CUT_OFF_TIME.match(value):
        raise ValueError("must be a time HH:MM:SS in 30-minute steps, e.g. 18:30:00")
    return value


def _facility(value: str, info: ValidationInfo) -> str:
    if info.context is not None and value not in info.context["facility_ids"]:
        raise ValueError("is not a known facility; see GET /api/v1/property_facilities")
    return value


def _group(value: str | None, info: ValidationInfo) -> str | None:
    if value is not None and info.context is not None and value not in info.context["group_ids"]:
        raise ValueError("is not a group of yours")
    return value


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    allow_availability_autoupdate: StrictBool = Field(default=True, description="deprecated")
    allow_availability_autoupdate_on_confirmation: StrictBool = True
    allow_availability_autoupdate_on_modification: StrictBool = True
    allow_availability_autoupdate_on_cancellation: StrictBool = True
    min_stay_type: Literal["both", "arrival", "through"] = "both"
    min_price: Money | None = None  # in the property's currency (the validation context's)
    max_price: Money | None = None
    state_length: Annotated[StrictInt, Field(ge=100, le=730)] = 500
    cut_off_time: Annotated[StrictStr, AfterValidator(_cut_off_time)] = "00:00:00"
    cut_off_days: Annotated[StrictInt, Field(ge=0, le=30)] = 0

    @field_validator("max_price")
    @classmethod
    def _max_not_below_min(cls, value: Money | None, info: ValidationInfo) -> Money | None:
        low, currency = info.data.get("min_price"), (info.context or {}).get("currency")
        if value is not None and low is not None and is_currency(currency) and \
                parse_money(value, currency) < parse_money(low, currency):
            raise ValueError("must be greater than or equal to min_price")
        return value


class Content(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: LongText = None
    important_information: LongText = None
    photos: Annotated[list[ContentPhoto], Field(max_length=100)] = []  # §12's batch (backend/inventory/photos.py)


class PropertyInput(BaseModel):
    """What create and update accept. Validated with a context naming the actor's groups and the
    facility catalogue, so that every problem is reported in one answer."""

    model_config = ConfigDict(extra="forbid")

    title: RequiredText
    currency: Currency
    email: Email = None
    phone: Phone = None
    zip_code: Text32 = None
    country: Country = None
    state: Text255 = None
    city: Text255 = None
    address: Text255 = None
    longitude: Longitude = None
    latitude: Latitude = None
    timezone: Timezone = None
    facilities: Annotated[list[Annotated[StrictStr, AfterValidator(_facility)]], Field(max_length=300)] = []
    property_type: PropertyType | None = None
    group_id: Annotated[StrictStr | None, AfterValidator(_group)] = None
    hotel_policy_id: StrictStr | None = Field(None, description="the property's hotel policy, one of its group's "
                                                                "that no other property has (null: none)")
    settings: Settings = Settings()
    content: Content = Content()
    logo_url: Url = None
    website: Url = None
    is_active: StrictBool = True


class PropertyEnvelope(BaseModel):
    """Request body of create and update (documentation only: the engine validates the inner object)."""

    property: PropertyInput
