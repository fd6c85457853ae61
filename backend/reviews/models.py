"""What reviews take in: a review from a channel's adapter, a reply, the host's review of an Airbnb guest; and how a
channel's scores become the service's (reference §8).

Scores are out of 10, as the service gives them: Booking.com's are already; Airbnb's star ratings (1–5) are doubled.
What the channel sent, on its own scale, is kept in `raw_content`. Categories take the service's names (Airbnb's
`cleanliness` is `clean`); a category the channel does not rate is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictStr, field_validator

from backend.core.fields import NOT_IN_A_LINE, NOT_IN_A_TEXT

OTAS = ("AirBNB", "BookingCom")
MAX_TEXT = 10_000
MAX_REPLY = 5_000
MAX_ID = 100
MAX_TAGS = 50
TAG = re.compile(r"^[a-z0-9_]{1,100}$")
# The categories each channel rates, by the service's names, and the channel's scale.
CATEGORIES = {"BookingCom": ("clean", "comfort", "facilities", "location", "services", "staff", "value"),
              "AirBNB": ("clean", "accuracy", "checkin", "communication", "location", "value")}
SCALE = {"BookingCom": 10, "AirBNB": 5}
# The channels' own names of a category.
ALIASES = {"cleanliness": "clean", "check_in": "checkin", "value_for_money": "value", "service": "services",
           **{f"hotel_{name}": name for name in CATEGORIES["BookingCom"]}}
GUEST_CATEGORIES = ("respect_house_rules", "communication", "cleanliness")


def _line(limit: int) -> Callable[[str | None], str | None]:
    def check(value: str | None) -> str | None:
        if value is not None and (len(value) > limit or NOT_IN_A_LINE.search(value)):
            raise ValueError(f"must be one line of at most {limit} characters")
        return value
    return check


def _text(limit: int) -> Callable[[str | None], str | None]:
    def check(value: str | None) -> str | None:
        if value is not None and (len(value) > limit or NOT_IN_A_TEXT.search(value)):
            raise ValueError(f"must be a text of at most {limit} characters")
        return value
    return check


def _tags(values: list[str]) -> list[str]:
    for value in values:
        if not TAG.match(value):
            raise ValueError("tags are the channel's codes: lowercase letters, digits and _, at most 100")
    return values


class ScoreInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    category: StrictStr = Field(max_length=50)
    score: StrictFloat | None = Field(None, description="on the channel's scale: 0–10 (Booking.com), 1–5 (Airbnb)")
    rating: StrictFloat | None = Field(None, description="Airbnb's name of `score`")

    def value(self) -> float | None:
        return self.score if self.score is not None else self.rating


class InboundReviewInput(BaseModel):
    """A review as the channel's adapter sends it: the whole of what the channel shows now. Sent again under the
    same `ota_review_id`, it is the review's new state (an `updated_review`), or, unchanged, nothing."""

    model_config = ConfigDict(extra="forbid")

    ota_review_id: StrictStr = Field(min_length=1, max_length=MAX_ID)
    property_id: StrictStr | None = Field(None, max_length=MAX_ID, description="default: the booking's")
    booking_id: StrictStr | None = Field(None, max_length=MAX_ID)
    ota_reservation_id: StrictStr | None = Field(None, max_length=MAX_ID,
                                                 description="links the channel's booking of that number")
    listing_id: StrictStr | None = Field(None, max_length=MAX_ID)
    guest_name: StrictStr = Field("", max_length=200)
    content: StrictStr | None = Field(None, max_length=MAX_TEXT, description="the guest's public words")
    private_feedback: StrictStr | None = Field(None, max_length=MAX_TEXT, description="Airbnb: to the host only")
    overall_score: StrictFloat | None = Field(None, description="on the channel's scale; default the categories' mean")
    scores: list[ScoreInput] = Field([], max_length=20)
    tags: list[StrictStr] = Field([], max_length=MAX_TAGS)
    received_at: StrictStr | None = Field(None, max_length=40, description="when the guest wrote it; default now")
    expired_at: StrictStr | None = Field(None, max_length=40, description="the channel takes no reply after it")
    is_hidden: StrictBool = Field(False, description="Airbnb: hidden until the host reviews the guest")
    reply: StrictStr | None = Field(None, max_length=MAX_REPLY, description="a reply made on the channel itself")

    _lines = field_validator("ota_review_id", "property_id", "booking_id", "ota_reservation_id", "listing_id",
                             "guest_name", "received_at", "expired_at")(_line(200))
    _texts = field_validator("content", "private_feedback", "reply")(_text(MAX_TEXT))
    _tag_codes = field_validator("tags")(_tags)


class InboundReviewEnvelope(BaseModel):
    review: InboundReviewInput


class ReplyInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reply: StrictStr = Field(min_length=1, max_length=MAX_REPLY)

    _texts = field_validator("reply")(_text(MAX_REPLY))


class ReplyEnvelope(BaseModel):
    reply: ReplyInput


class GuestScoreInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    category: StrictStr = Field(max_length=50)
    rating: Annotated[int, Field(strict=True, ge=1, le=5)]


class GuestReviewInput(BaseModel):
    """The host's review of an Airbnb guest (reference §8): a rating of 1–5 in each of respect_house_rules,
    communication and cleanliness, a public review, and whether the host would host the guest again."""

    model_config = ConfigDict(extra="forbid")

    scores: list[GuestScoreInput] = Field(min_length=len(GUEST_CATEGORIES), max_length=len(GUEST_CATEGORIES))
    public_review: StrictStr = Field(min_length=1, max_length=MAX_REPLY)
    private_review: StrictStr | None = Field(None, max_length=MAX_REPLY)
    is_reviewee_recommended: StrictBool
    tags: list[StrictStr] = Field([], max_length=MAX_TAGS)

    _texts = field_validator("public_review", "private_review")(_text(MAX_REPLY))
    _tag_codes = field_validator("tags")(_tags)

    @field_validator("scores")
    @classmethod
    def _each_category_once(cls, scores: list[GuestScoreInput]) -> list[GuestScoreInput]:
        if sorted(s.category for s in scores) != sorted(GUEST_CATEGORIES):
            raise ValueError(f"must rate each of {', '.join(GUEST_CATEGORIES)} once")
        return scores


class GuestReviewEnvelope(BaseModel):
    review: GuestReviewInput


class DeliveryFailure(BaseModel):
    """What an adapter says of a reply or guest review the channel refused."""

    model_config = ConfigDict(extra="forbid")

    error: StrictStr = Field("refused by the channel", max_length=500)


class DeliveryFailureEnvelope(BaseModel):
    failure: DeliveryFailure


def category(ota: str, name: str) -> str | None:
    """The service's name of a channel's category, None when the channel rates no such thing."""
    name = ALIASES.get(name.lower(), name.lower())
    return name if name in CATEGORIES[ota] else None


def scaled(ota: str, value: float) -> float:
    """A channel's score out of 10, to two decimals."""
    return round(value * 10 / SCALE[ota], 2)


def in_range(ota: str, value: Any) -> bool:
    low = 1 if ota == "AirBNB" else 0
    return isinstance(value, (int, float)) and value == value and low <= value <= SCALE[ota]
