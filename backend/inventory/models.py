"""Room types, rate plans and hotel policies as create and update accept them.

Rules that need the database (the property is the actor's, the room type belongs to the property,
an occupancy fits the room, a derived plan's parent) are checked by the services with the same dotted
field names.

Rate plans take the service's shape (https://docs.channex.io/api-v.1-documentation/rate-plans-collection):
`rate_mode`, `meal_type`, `children_fee`/`infant_fee`, weekday defaults of the restrictions (one value, or
seven from Monday), `parent_rate_plan_id` with `options[].derived_option` and the `inherit_*` flags.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)

from backend.core.fields import Currency, DecimalNumber, LongText, RequiredText, Text255, Url, decimal_number
from backend.core.money import Money, format_minor
from backend.core.validation import details_of
from backend.inventory.taxes import LOGICS, MAX_LEVEL, Logic, Rate, TaxType

HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
# The service's `meal_type` values, as its rate plans page lists them (its spelling: "carribean"), with the
# words guests and staff read. The page names the list without printing all of it; the last four are as the
# service's own clients send them. `meal_plan`, this field's earlier name, took five of them and still works.
MEAL_TYPES = {
    "none": "No meals", "room_only": "Room only", "breakfast": "Breakfast", "lunch": "Lunch", "dinner": "Dinner",
    "bed_and_breakfast": "Bed & breakfast", "buffet_breakfast": "Buffet breakfast",
    "carribean_breakfast": "Caribbean breakfast", "continental_breakfast": "Continental breakfast",
    "english_breakfast": "English breakfast", "full_breakfast": "Full breakfast", "half_board": "Half board",
    "full_board": "Full board", "all_inclusive": "All inclusive", "american": "American plan",
    "european_plan": "European plan", "family_plan": "Family plan", "self_catering": "Self catering",
    "bermuda": "Bermuda plan", "dinner_bed_and_breakfast_plan": "Dinner, bed & breakfast",
    "family_american": "Family American plan", "breakfast_and_lunch": "Breakfast & lunch",
    "lunch_and_dinner": "Lunch & dinner",
}
RateMode = Literal["manual", "derived"]  # the service's "auto" and "cascade" are refused by name
RATE_MODES: tuple[RateMode, ...] = get_args(RateMode)
RateRule = Literal["increase_by_percent", "increase_by_amount", "decrease_by_percent", "decrease_by_amount"]
RATE_RULES: tuple[RateRule, ...] = get_args(RateRule)
# What a derived plan may take from its parent, and which night values each flag names. The last three are
# the service's read-only settings, which Frontdesk does not have: their flags are kept and change nothing.
INHERITS = {"inherit_rate": "rate", "inherit_min_stay_arrival": "min_stay_arrival",
            "inherit_min_stay_through": "min_stay_through", "inherit_max_stay": "max_stay",
            "inherit_closed_to_arrival": "closed_to_arrival", "inherit_closed_to_departure": "closed_to_departure",
            "inherit_stop_sell": "stop_sell", "inherit_availability_offset": "availability_offset",
            "inherit_max_sell": "max_sell", "inherit_max_availability": "max_availability"}
# The restrictions with a default per weekday (Monday first), used on nights without a value of their own.
WEEKLY = {"min_stay_arrival": 1, "min_stay_through": 1, "max_stay": 0, "closed_to_arrival": False,
          "closed_to_departure": False, "stop_sell": False}
TAX_MODES = LOGICS  # an embedded tax's `mode` is a tax's `logic` (backend/inventory/taxes.py)


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


# --- photos (reference §12): a property's and a room type's, through /api/v1/photos or their `content.photos` ---

PhotoKind = Literal["photo", "ad", "menu"]
Position = Annotated[StrictInt, Field(ge=0, le=10_000)]


def _url_needed(value: str | None, info: ValidationInfo) -> str | None:
    """A new photo needs its url; one named by `id` keeps its own unless sent."""
    if value is None and info.data.get("id") is None and not info.data.get("is_removed"):
        raise ValueError("can't be blank")
    return value


class PhotoInput(Strict):
    """The body of POST and PUT /api/v1/photos: the service's photo, and our `title`, its caption on the shopping
    API. `position` 0 is the cover; without one a new photo goes last."""

    property_id: StrictStr
    room_type_id: StrictStr | None = Field(None, description="null: a photo of the property itself")
    url: Url = Field(None, validate_default=True, description="http(s), or the url POST /photos/upload answered")
    kind: PhotoKind = "photo"
    position: Position | None = None
    author: Text255 = None
    description: LongText = None
    title: Text255 = None

    _url = field_validator("url")(_url_needed)


class PhotoEnvelope(BaseModel):
    photo: PhotoInput


class ContentPhoto(Strict):
    """An item of a property's or room type's `content.photos` (reference §12): without `id` a new photo, with one
    that photo's change (the fields sent), with `"is_removed": true` its removal. What a read shows besides is taken
    back and ignored: the parent names the property and room type."""

    id: StrictStr | None = None
    is_removed: StrictBool = False
    url: Url = Field(None, validate_default=True)
    kind: PhotoKind = "photo"
    position: Position | None = None
    author: Text255 = None
    description: LongText = None
    title: Text255 = None
    property_id: StrictStr | None = None
    room_type_id: StrictStr | None = None
    inserted_at: StrictStr | None = None
    updated_at: StrictStr | None = None

    _url = field_validator("url")(_url_needed)


class RoomContent(Strict):
    description: LongText = None
    photos: Annotated[list[ContentPhoto], Field(max_length=100)] = []


class RoomTypeInput(Strict):
    """The service's room type (https://docs.channex.io/api-v.1-documentation/room-types-collection), with our
    `bed_options` and `facilities` (their titles)."""

    property_id: StrictStr
    title: RequiredText
    count_of_rooms: Annotated[StrictInt, Field(ge=0, le=10_000)]
    occ_adults: Annotated[StrictInt, Field(ge=1, le=100)]
    occ_children: Count = 0
    occ_infants: Count = 0
    default_occupancy: Annotated[StrictInt, Field(ge=1, le=200)] | None = None
    room_kind: Literal["room", "dorm"] = "room"
    capacity: Annotated[StrictInt, Field(ge=1, le=10_000)] | None = Field(None, description="dorms only: their beds")
    content: RoomContent = RoomContent()
    bed_options: Annotated[list[BedOption], Field(max_length=20)] = []
    facilities: Annotated[list[RequiredText], Field(max_length=100)] = []

    @field_validator("default_occupancy")
    @classmethod
    def _fits(cls, value: int | None, info: ValidationInfo) -> int | None:
        adults, children = info.data.get("occ_adults"), info.data.get("occ_children", 0)
        if value is not None and adults is not None and value > adults + children:
            raise ValueError("must not exceed occ_adults + occ_children")
        return value

    @field_validator("capacity")
    @classmethod
    def _dorms_only(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and info.data.get("room_kind") == "room":
            raise ValueError("applies to dorms only (room_kind dorm)")
        return value


class RoomTypeBody(RoomTypeInput):
    """The request body as documented: our older top-level `description` and `photos` are input aliases of
    `content.description` and `content.photos`."""

    description: LongText = Field(None, deprecated=True, description="older name of content.description")
    photos: list[ContentPhoto] | None = Field(None, deprecated=True, description="older name of content.photos")


class RoomTypeEnvelope(BaseModel):
    room_type: RoomTypeBody


# --- rate plans ----------------------------------------------------------------------------------

def _rule(rule: tuple[str, object], info: ValidationInfo) -> tuple[str, str | int]:
    """A modifier's value: a percentage (not money), or an amount of money in the plan's currency."""
    name, value = rule
    if name.endswith("_amount"):
        return name, _MONEY.validate_python(value, context=info.context)
    percent = decimal_number(value)
    if name == "decrease_by_percent" and percent > 100:
        raise ValueError("can't take off more than 100 percent")
    return name, str(percent)


# Read by _rule, which knows from the rule whether it is money: a decimal string, or a whole number.
ModifierValue = Annotated[Any, WithJsonSchema({"type": ["string", "integer"]})]


class DerivedOption(Strict):
    """How a derived plan's rate comes from its parent's: the modifiers, applied in order."""

    rate: Annotated[list[Annotated[tuple[RateRule, ModifierValue],
                                   AfterValidator(_rule)]], Field(max_length=10)] = []


class RateOption(Strict):
    """The service's option (reference §15, as clients of it read one): besides its occupancy and rate, the ten
    `inherit_*` flags, each the plan's own unless sent, and `rate_category_id`, both kept as sent. What a derived
    plan inherits is decided by the plan's flags: its nights are the plan's, not an option's."""

    id: StrictStr | None = Field(None, description="read-only: the option's id, kept while its occupancy is")
    occupancy: Annotated[StrictInt, Field(ge=1, le=200)]
    is_primary: StrictBool = False
    rate: Money = 0
    derived_option: DerivedOption | None = Field(None, description="a derived plan's primary option only")
    rate_category_id: Text255 = Field(None, description="kept and shown as sent (Frontdesk has no rate categories)")
    inherit_rate: StrictBool | None = None
    inherit_closed_to_arrival: StrictBool | None = None
    inherit_closed_to_departure: StrictBool | None = None
    inherit_stop_sell: StrictBool | None = None
    inherit_min_stay_arrival: StrictBool | None = None
    inherit_min_stay_through: StrictBool | None = None
    inherit_max_stay: StrictBool | None = None
    inherit_availability_offset: StrictBool | None = None
    inherit_max_sell: StrictBool | None = None
    inherit_max_availability: StrictBool | None = None


class CancellationPolicy(Strict):
    title: Text255 = None
    cancellation_policy_logic: Literal["free", "deadline", "non_refundable"] = "free"
    cancellation_policy_deadline: Annotated[StrictInt, Field(ge=0, le=8760)] = 0
    cancellation_policy_deadline_type: Literal["hours", "days"] = "days"
    cancellation_policy_mode: Literal["percent", "nights", "fixed"] = "percent"
    cancellation_policy_penalty: DecimalNumber = Decimal(0)  # nights, a percentage or an amount, by mode
    guarantee_payment_policy: Literal["none", "guarantee", "deposit", "prepayment"] = "none"
    guarantee_payment_amount: Money | None = None
    non_show_policy: Literal["full_stay", "first_night", "none"] = "full_stay"
    currency: Currency | None = None


def after_reservation(policy: dict[str, Any]) -> str:
    """What cancelling costs right after booking, in the service's `after_reservation_cancellation_logic` (which its
    booking engine pairs with `cancellation_policy_logic`): nothing until a deadline, or all of a non-refundable
    plan. Frontdesk's policies have no charge of their own between booking and the deadline."""
    return "non_refundable" if policy["cancellation_policy_logic"] == "non_refundable" else "free"


class Tax(Strict):
    """A tax embedded in its rate plan, written as the plan's own tax set (backend/inventory/tax_sets.py)."""

    title: RequiredText
    mode: Logic
    rate: Rate = Field(description="a percentage (0-100) string for mode percent, else money in the rate plan's "
                                   "currency")
    inclusive: StrictBool = False
    type: TaxType = "tax"
    level: Annotated[StrictInt, Field(ge=0, le=MAX_LEVEL)] = 0
    amount: StrictStr | None = Field(None, description="read-only: the tax of a priced stay")


def weekly(item: Any, default: object) -> Any:
    """A weekday default: one value for every weekday, or a list of seven from Monday; stored as seven."""
    one: TypeAdapter[Any] = TypeAdapter(item)

    def seven(value: object) -> object:
        if isinstance(value, list):
            if len(value) != 7:
                raise ValueError("must be one value, or a list of 7 (Monday first)")
            return value
        try:
            return [one.validate_python(value)] * 7
        except ValidationError as exc:
            raise ValueError(next(iter(details_of(exc).values()))[0]) from None

    seven_defaults = Field(default_factory=lambda: [default] * 7)
    return Annotated[list[item], BeforeValidator(seven), seven_defaults]


def _supported(mode: object) -> object:
    if mode in ("auto", "cascade"):
        raise ValueError(f"{mode} is not supported: use manual, or derived with parent_rate_plan_id")
    return mode


if TYPE_CHECKING:
    MealType = str  # at run time the Literal of MEAL_TYPES' names, which mypy cannot build
else:
    MealType = Literal[tuple(MEAL_TYPES)]
MinStay = Annotated[StrictInt, Field(ge=1, le=730)]
MaxStay = Annotated[StrictInt, Field(ge=0, le=730)]


class RatePlanInput(Strict):
    property_id: StrictStr
    room_type_id: StrictStr
    title: RequiredText
    currency: Currency | None = Field(None, description="defaults to the property's currency")
    sell_mode: Literal["per_room", "per_person"] = "per_room"
    rate_mode: Annotated[RateMode, BeforeValidator(_supported)] = Field(
        "manual", description="manual, or derived (with parent_rate_plan_id); auto and cascade are not supported")
    meal_type: MealType | None = Field(None, description="none when neither it nor meal_plan is given")
    meal_plan: MealType | None = Field(None, description="the same as meal_type, its earlier name")
    children_fee: Money = Field(0, description="added per child per night")
    infant_fee: Money = Field(0, description="added per infant per night")
    if TYPE_CHECKING:  # what weekly() makes at run time, as mypy can read it
        max_stay: list[int]
        min_stay_arrival: list[int]
        min_stay_through: list[int]
        closed_to_arrival: list[bool]
        closed_to_departure: list[bool]
        stop_sell: list[bool]
    else:
        max_stay: weekly(MaxStay, 0)
        min_stay_arrival: weekly(MinStay, 1)
        min_stay_through: weekly(MinStay, 1)
        closed_to_arrival: weekly(StrictBool, False)
        closed_to_departure: weekly(StrictBool, False)
        stop_sell: weekly(StrictBool, False)
    options: Annotated[list[RateOption], Field(min_length=1, max_length=20)]
    parent_rate_plan_id: StrictStr | None = Field(None, description="the manual plan a derived plan follows")
    inherit_rate: StrictBool | None = Field(None, description="as rate_mode says: a derived plan's rate follows its parent")
    inherit_closed_to_arrival: StrictBool = False
    inherit_closed_to_departure: StrictBool = False
    inherit_stop_sell: StrictBool = False
    inherit_min_stay_arrival: StrictBool = False
    inherit_min_stay_through: StrictBool = False
    inherit_max_stay: StrictBool = False
    inherit_availability_offset: StrictBool = False
    inherit_max_sell: StrictBool = False
    inherit_max_availability: StrictBool = False
    auto_rate_settings: None = Field(None, description="always null: the auto rate mode is not supported")
    cancellation_policy: CancellationPolicy = CancellationPolicy()
    taxes: Annotated[list[Tax], Field(max_length=20)] = Field(
        [], description="the rate plan's own tax set, written whole; shown: its tax set's taxes")
    tax_set_id: StrictStr | None = Field(None, description="the tax set it is priced with; left out of a new plan: "
                                                           "the property's default set")

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


def complete(details: dict[str, Any], currency: str) -> dict[str, Any]:
    """A stored plan's details with the defaults of what earlier versions did not store (fees, weekday
    defaults, inherit flags, derived options)."""
    zero = format_minor(0, currency)
    return {"children_fee": zero, "infant_fee": zero, **{name: [value] * 7 for name, value in WEEKLY.items()},
            **dict.fromkeys(INHERITS, False), **details,
            "options": [{"rate_category_id": None, **{flag: details.get(flag, False) for flag in INHERITS}, **option,
                         "derived_option": option.get("derived_option")} for option in details["options"]]}


_MONEY = TypeAdapter(Money)


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
    internet_access_cost: Money | None = None
    parking_type: Literal["on_site", "location_nearby", "none"] = Field(
        "none", description="the service's values; our older nearby is read as location_nearby")
    parking_reservation: Literal["needed", "not_needed", "not_available"] = "not_available"
    parking_is_private: StrictBool = False
    pets_policy: Literal["allowed", "not_allowed", "by_arrangements", "assistive_only"] = Field(
        "not_allowed", description="the service's values; our older by_arrangement is read as by_arrangements")
    pets_non_refundable_fee: Money | None = None
    pets_refundable_deposit: Money | None = None
    smoking_policy: Literal["no_smoking", "permitted_areas_only", "allowed"] = "no_smoking"


class HotelPolicyBody(HotelPolicyInput):
    """The request body as documented: the property (on POST /hotel_policies), and the service's documented
    `checkin_time` and `checkout_time` (https://docs.channex.io/api-v.1-documentation/hotel-policy-collection),
    which are our `checkin_from_time` and `checkout_to_time`."""

    property_id: StrictStr | None = Field(None, description="required on POST /api/v1/hotel_policies; fixed after")
    checkin_time: Time | None = Field(None, description="checkin_from_time under the service's documented name")
    checkout_time: Time | None = Field(None, description="checkout_to_time under the service's documented name")


class HotelPolicyEnvelope(BaseModel):
    hotel_policy: HotelPolicyBody
