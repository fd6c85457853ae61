"""The placeholders of saved replies, and what fills them for a thread: its booking (or an inquiry's details),
its guest and its property.

A placeholder is a name in braces, `{guest_name}`. An unknown name is refused when the reply is saved, so a
typo never reaches a guest; a known one with nothing to fill it from (`{booking_id}` on an inquiry, the
check-in time of a property without a hotel policy) stays in the text as it is, for staff to see and fill in
before sending.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from pydantic_core import from_json

from backend.chat.store import booking_stay, hotel_policy, inquiry_meta, property_title
from storage import Store

PLACEHOLDERS: dict[str, str] = {
    "guest_name": "the guest's full name",
    "guest_first_name": "the guest's first name",
    "property": "the property's title",
    "arrival_date": "the arrival date, e.g. 21 Nov 2026",
    "departure_date": "the departure date",
    "nights": "the number of nights",
    "guests": "the number of guests",
    "booking_id": "the booking's number, as the channel shows it (e.g. BDC-1556013801)",
    "checkin_time": "check-in from, as the property's hotel policy says (e.g. 14:00)",
    "checkout_time": "check-out until, as the property's hotel policy says (e.g. 11:00)",
}
# `{name}`: a word in braces. Braces around anything else (`{ }`, `{2 nights}`) are plain text.
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def placeholders_in(text: str) -> list[str]:
    """The placeholder names a text uses, each once, in order of first use."""
    return list(dict.fromkeys(PLACEHOLDER.findall(text)))


def unknown_placeholders(text: str) -> list[str]:
    return [name for name in placeholders_in(text) if name not in PLACEHOLDERS]


def unknown_text(names: list[str]) -> str:
    found = ", ".join(f"{{{name}}}" for name in names)
    known = ", ".join(f"{{{name}}}" for name in PLACEHOLDERS)
    return f"has unknown placeholder{'s' if len(names) > 1 else ''} {found}; use {known}"


def fill(text: str, values: dict[str, str | None]) -> str:
    """The text with each placeholder that has a value replaced; the others stay as written."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1)) or m.group(0), text)


def thread_values(store: Store, thread: Any) -> dict[str, str | None]:
    """What fills the placeholders for a thread (a message_threads row): its booking's latest revision, or for an
    inquiry the details the guest asked with; its property's title and hotel policy."""
    if thread["booking_id"]:
        stay = _booking_stay(store, thread["booking_id"], thread["property_id"])
    else:
        stay = _inquiry_stay(store, thread["id"])
    return _values(store, thread["property_id"], thread["title"], stay)


def guest_values(store: Store, property_id: str, guest_name: str | None,
                 booking_id: str | None) -> dict[str, str | None]:
    """What fills them for a guest outside a thread (a review's writer): the name they gave, their booking at the
    property when there is one, the property's title and hotel policy."""
    return _values(store, property_id, guest_name, _booking_stay(store, booking_id, property_id) if booking_id else {})


def _values(store: Store, property_id: str, guest_name: str | None, stay: dict[str, Any]) -> dict[str, str | None]:
    values: dict[str, str | None] = {"guest_name": guest_name or None,
                                     "property": property_title(store.conn, property_id)}
    values |= {k: v for k, v in stay.items() if v}
    values["guest_first_name"] = stay.get("guest_first_name") or (values["guest_name"] or "").split(" ")[0] or None
    values |= _policy_times(store, property_id)
    return values


def _booking_stay(store: Store, booking_id: str, property_id: str) -> dict[str, Any]:
    row = booking_stay(store, booking_id, property_id)
    if row is None:
        return {}
    attributes = from_json(row["attributes"])
    customer = attributes.get("customer") or {}
    full = " ".join(p for p in (customer.get("name"), customer.get("surname")) if p)
    guests = sum(n for room in attributes.get("rooms") or () for kind in ("adults", "children", "infants")
                 if isinstance(n := (room.get("occupancy") or {}).get(kind), int))
    return {"guest_name": full or None, "guest_first_name": customer.get("name") or None,
            "booking_id": row["unique_id"], **_dates(row["arrival_date"], row["departure_date"]),
            "guests": str(guests) if guests else None}


def _inquiry_stay(store: Store, thread_id: str) -> dict[str, Any]:
    meta = inquiry_meta(store, thread_id)
    details = (from_json(meta).get("booking_details") or {}) if meta else {}
    guests = details.get("number_of_guests")
    stay = _dates(details.get("checkin_date"), details.get("checkout_date"))
    return {"guest_name": details.get("guest_name"), **stay, "guests": str(guests) if guests else None}


def _dates(arrival: str | None, departure: str | None) -> dict[str, str | None]:
    if not arrival or not departure:
        return {}
    first, last = date.fromisoformat(arrival), date.fromisoformat(departure)
    return {"arrival_date": _day(first), "departure_date": _day(last), "nights": str((last - first).days)}


def _day(value: date) -> str:
    """As a guest reads it anywhere: 21 Nov 2026 (never 11/21 or 21/11)."""
    return f"{value.day} {value:%b %Y}"


def _policy_times(store: Store, property_id: str) -> dict[str, str | None]:
    policy = hotel_policy(store, property_id)
    if policy is None:
        return {}
    times = from_json(policy)
    return {"checkin_time": times.get("checkin_from_time"), "checkout_time": times.get("checkout_to_time")}
