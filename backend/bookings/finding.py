"""How staff find a booking: by a guest's name, and by where its stay stands on its property's own today.

Names are kept beside the booking, folded for search (`guest_names`, one person a line), from the booking as
stored, card numbers masked. Properties keep their own time zones, so one list's "today" may be several dates:
each booking is compared with its property's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic_core import from_json

from backend.dates import local_now
from backend.listing import View, fold
from storage import Store

# `filter[stay]`: each view's condition on a booking that is not cancelled, `{today}` its property's today.
STAYS = {
    "arriving_today": "b.arrival_date = {today}",
    "departing_today": "b.departure_date = {today}",
    "in_house": "b.arrival_date <= {today} AND b.departure_date > {today}",  # sleeps there tonight
}


def guest_names(booking: dict[str, Any]) -> str:
    """The customer's name and every room guest's, folded, once each, one a line."""
    people = [booking.get("customer") or {}, *(guest for room in booking["rooms"] for guest in room.get("guests") or [])]
    names = (fold(" ".join(part for part in (person.get("name"), person.get("surname")) if part)) for person in people)
    return "\n".join(name for name in dict.fromkeys(names) if name)


def name_unnamed(store: Store) -> None:
    """Name the bookings stored before their guests' names were kept, from each one's latest revision."""
    with store.transaction() as conn:
        rows = conn.execute("SELECT b.id, r.attributes FROM bookings b JOIN booking_revisions r ON r.id = b.revision_id "
                            "WHERE b.guest_names IS NULL").fetchall()
        conn.executemany("UPDATE bookings SET guest_names = ? WHERE id = ?",
                         [(guest_names(from_json(attributes)), booking_id) for booking_id, attributes in rows])


def stay_view(store: Store, clock: Callable[[], datetime]) -> View:
    """`filter[stay]`: arriving today, departing today or in house (staying tonight), by each property's today."""

    def condition(value: str) -> tuple[str, list[Any]]:
        today, params = _todays(store, clock())
        sql = STAYS[value]
        return f"(b.status != 'cancelled' AND {sql.format(today=today)})", params * sql.count("{today}")

    return View(tuple(STAYS), condition)


def _todays(store: Store, now: datetime) -> tuple[str, list[Any]]:
    """An SQL expression for the today of the property `p`, and its parameters: a date for each time zone that
    properties keep (a property without one keeps UTC's)."""
    zones = [row[0] for row in store.query("SELECT DISTINCT timezone FROM properties WHERE timezone IS NOT NULL")]
    utc = local_now(None, now).date().isoformat()
    if not zones:
        return "?", [utc]
    params: list[Any] = [part for zone in zones for part in (zone, local_now(zone, now).date().isoformat())]
    return f"(CASE p.timezone {' '.join('WHEN ? THEN ?' for _ in zones)} ELSE ? END)", [*params, utc]
