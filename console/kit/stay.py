"""A booking's stay as it shows beside what concerns it (a conversation in the Inbox, a review in Reviews): dates,
rooms and rate plans, guests, amount, status, channel, flags and notes, from the engine's `thread_stays.booking`."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from console.kit.words import counted, day, party

STATUS_STYLES = {"new": "bold green", "modified": "bold yellow", "cancelled": "bold red"}


def pairs(rows: list[tuple[str, str | Text]]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for label, value in rows:
        grid.add_row(label, value if isinstance(value, Text) else Text(value))  # titles as typed: never markup
    return grid


def dates(arrival: str, departure: str, nights: int) -> str:
    return f"{day(arrival)} → {day(departure)} · {counted(nights, 'night')}"


def booking_view(stay: dict[str, Any]) -> Table:
    rows: list[tuple[str, str | Text]] = [
        ("Status", Text(stay["status"], style=STATUS_STYLES.get(stay["status"], "bold"))),
        ("Stay", dates(stay["arrival_date"], stay["departure_date"], stay["nights"])
         + (f", arriving {stay['arrival_hour']}" if stay["arrival_hour"] else "")),
        *(("" if index else "Room", f"{room['room_type']} · {room['rate_plan']}")  # one line a room
          for index, room in enumerate(stay["rooms"])),
        ("Guests", party(stay["occupancy"])),
        ("Amount", f"{stay['amount']} {stay['currency']}"),
        ("Channel", stay["channel"]),
    ]
    flags = [name for name, on in (("overbooked", stay["is_overbooked"]), ("unmapped rooms", stay["is_unmapped"])) if on]
    if flags:
        rows.append(("Flags", Text(", ".join(flags), style="bold red")))
    if stay["notes"]:
        rows.append(("Notes", stay["notes"]))
    return pairs(rows)
