"""Human names for the engine's field paths, used by forms and error messages alike."""

from __future__ import annotations

import re

from backend.core.errors import FrontdeskError, ValidationFailed

FIELD_LABELS: dict[str, str] = {
    "title": "Title",
    "currency": "Currency",
    "property_type": "Property type",
    "group_id": "Group",
    "is_active": "Active",
    "timezone": "Time zone",
    "website": "Website",
    "logo_url": "Logo URL",
    "email": "E-mail",
    "phone": "Phone",
    "address": "Address",
    "city": "City",
    "state": "State / region",
    "zip_code": "ZIP / postal code",
    "country": "Country",
    "latitude": "Latitude",
    "longitude": "Longitude",
    "facilities": "Facilities",
    "settings.allow_availability_autoupdate_on_confirmation": "Take rooms on new bookings",
    "settings.allow_availability_autoupdate_on_modification": "Adjust rooms on modifications",
    "settings.allow_availability_autoupdate_on_cancellation": "Give rooms back on cancellations",
    "settings.allow_availability_autoupdate": "Availability autoupdate (deprecated)",
    "settings.min_stay_type": "Min stay type",
    "settings.min_price": "Min price",
    "settings.max_price": "Max price",
    "settings.state_length": "Inventory days",
    "settings.cut_off_time": "Cut-off time",
    "settings.cut_off_days": "Cut-off days",
    "content.description": "Description",
    "content.important_information": "Important information",
    "content.photos": "Photos",
    "url": "Photo URL",
    "kind": "Kind",
    "author": "Author",
    "description": "Description",
    "channel": "Channel type",
    "provider_api_key": "Provider API key",
    "file": "File",
    "file_name": "File name",
    "file_type": "File type",
    "arrival_date": "Arrival date",
    "departure_date": "Departure date",
    "date": "Date",
    "status": "Status",
    "guarantee": "Guarantee",
    "is_overbooked": "Overbooked",
    "is_unmapped": "Unmapped",
    "guest_name": "Guest name",
    "search": "Search",
    "stay": "Today",
    "no_show": "No-show",
    "invalid_card": "Invalid card",
    "cancel_due_invalid_card": "Cancellation for an invalid card",
    "callback_url": "Callback address",
    "event_mask": "Events",
    "settings.ari_distribution": "Sends ARI",
    "settings.ari_url": "ARI address",
    "settings.ari_format": "ARI format",
    "date_from": "From",
    "date_to": "To (included)",
    "attachment_id": "Attachment",
    "state_length": "Inventory days",  # as the engine's messages name it
    # A night's availability, rate and restrictions, as the Inventory calendar's range dialog labels them.
    "availability": "Rooms to sell",
    "rate": "Rate",
    "min_stay": "Min stay",
    "min_stay_arrival": "Min stay on arrival",
    "min_stay_through": "Min stay through",
    "max_stay": "Max stay",
    "closed_to_arrival": "Closed to arrival",
    "closed_to_departure": "Closed to departure",
    "stop_sell": "Stop sell",
}

# The engine's titles are HTTP's words (HTTP keeps them); staff read what went wrong instead.
PLAIN_TITLES: dict[str, str] = {
    "Bad Request": "not accepted",
    "Unauthorized": "not signed in",
    "Forbidden": "not allowed",
    "Not Found": "not found",
    "Request Timeout": "took too long",
    "Payload Too Large": "too large",
    "Too Many Requests": "too many tries, wait a little",
    "Service Unavailable": "busy, try again shortly",
    "Not Supported": "not supported",
    "Validation Error": "some fields need fixing",
    "Internal Error": "something went wrong",
    "Bad Gateway": "the other server's answer could not be used",
}

# `filter[field][op]`: the list operators, as the filter bars say them.
OPERATORS: dict[str, str] = {"gt": "after", "gte": "from", "lt": "before", "lte": "until", "not": "not",
                             "has": "containing"}

FILTER_KEY = re.compile(r"filter\[(\w+)\](?:\[(\w+)\])?")
# API names the engine's messages mention, e.g. "must be on or after date_from"; never a placeholder in braces
# (`{guest_name}`), which staff type as it is written.
API_NAME = re.compile(r"(?<![{\w])(?:" + "|".join(name for name in FIELD_LABELS if "_" in name and "." not in name)
                      + r")(?![}\w])")


def label_for(path: str) -> str:
    """The label of a dotted path, else of its last segment, else the path itself.

    A list filter's key reads as its field and operator: `filter[arrival_date][gte]` → "Arrival date from"."""
    if match := FILTER_KEY.fullmatch(path):
        field, op = match.groups()
        return " ".join([label_for(field), *([OPERATORS.get(op, op)] if op else [])])
    return FIELD_LABELS.get(path) or FIELD_LABELS.get(path.rsplit(".", 1)[-1], path)


def plain(text: str) -> str:
    """An engine message with the API names in it replaced by their quoted labels."""
    text = FILTER_KEY.sub(lambda match: f"“{label_for(match.group(0))}”", text)
    return API_NAME.sub(lambda match: f"“{label_for(match.group(0))}”", text)


def kind_of(error: FrontdeskError) -> str:
    """What went wrong in plain words: "too large", not "Payload Too Large"."""
    return PLAIN_TITLES.get(error.title, error.title)


def title_for(error: FrontdeskError) -> str:
    """The error's kind, capitalised for a notification's title or the start of a line."""
    words = kind_of(error)
    return words[:1].upper() + words[1:]


def problems_of(error: FrontdeskError) -> dict[str, list[str]]:
    """The engine's messages by dotted field, in plain words; an error that names no field is filed under ""."""
    if isinstance(error, ValidationFailed):
        return {field: [plain(message) for message in messages] for field, messages in error.details.items()}
    return {"": [describe(error)]}


def describe(error: FrontdeskError) -> str:
    """The one line staff read for an engine error: its kind in plain words, then its messages."""
    if isinstance(error, ValidationFailed):
        return "; ".join(f"{label_for(field)} {message}" for field, messages in problems_of(error).items()
                         for message in messages)
    details = error.details if isinstance(error.details, list) else [] if error.details is None else [error.details]
    return ": ".join([title_for(error), *(["; ".join(plain(str(detail)) for detail in details)] if details else [])])
