"""How the message rules area says what a rule does and for which booking, in plain words."""

from __future__ import annotations

from typing import Any

from console.kit.words import counted, day


def sends_when(rule: dict[str, Any]) -> str:
    """"On confirmation", "3 days before arrival at 18:00", "Morning of arrival at 08:00"."""
    trigger, days, at = rule["trigger"], rule["days"], rule["send_at"]
    if trigger == "booking_confirmed":
        return "On confirmation"
    if trigger == "arrival_day":
        return f"{'Morning' if at < '12:00' else 'Day'} of arrival at {at}"
    event, side = ("arrival", "before") if trigger == "before_arrival" else ("departure", "after")
    return f"{counted(days, 'day')} {side} {event} at {at}" if days else f"Day of {event} at {at}"


def booking_option(booking: dict[str, Any]) -> tuple[str, str]:
    """"Jane Doe · 10 Mar 2027 → 13 Mar 2027 · BDC-7770001", and "cancelled" when it is."""
    customer = booking["customer"] or {}
    guest = " ".join(part for part in (customer.get("name"), customer.get("surname")) if part) or "A guest"
    parts = [guest, f"{day(booking['arrival_date'])} → {day(booking['departure_date'])}", booking["unique_id"]]
    return " · ".join(parts + (["cancelled"] if booking["status"] == "cancelled" else [])), booking["id"]
