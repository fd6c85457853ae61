"""Human names for the engine's field paths, used by forms and error messages alike."""

from __future__ import annotations

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
    "status": "Status",
    "guarantee": "Guarantee",
    "is_overbooked": "Overbooked",
    "no_show": "No-show",
    "invalid_card": "Invalid card",
    "cancel_due_invalid_card": "Cancellation for an invalid card",
}


def label_for(path: str) -> str:
    """The label of a dotted path, else of its last segment, else the path itself."""
    return FIELD_LABELS.get(path) or FIELD_LABELS.get(path.rsplit(".", 1)[-1], path)
