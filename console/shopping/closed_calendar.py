"""Month grids of a property's closed dates, readable without colour: every state has its own mark.

A day cell is `dd` and three slots: `×` closed night or `A` closed to arrival, `D` closed to
departure, and the minimum stay (`²` on arrival, `₂` through). Colour only repeats what the marks say.
"""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Any

from rich.text import Text

SUPERSCRIPT = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹", strict=True))
SUBSCRIPT = dict(zip("0123456789", "₀₁₂₃₄₅₆₇₈₉", strict=True))
WEEKDAYS = "Mo Tu We Th Fr Sa Su".split()
CELL = 5  # "dd" and three marks
MONTH_WIDTH = 7 * CELL + 6
GAP = "    "
LEGEND = ("× closed", "A no arrival", "D no departure", "² min stay on arrival", "₂ min stay through", "▁ your stay")
LEGEND_WIDTH = max(map(len, LEGEND))
MAX_MONTHS = 4


def min_stay_mark(nights: int | None, digits: dict[str, str]) -> str:
    """One character: the digit, or `+` for ten nights and more."""
    if not nights:
        return " "
    return digits[str(nights)] if nights < 10 else "+"


def day_cell(day: date, closed: dict[str, Any], stay: tuple[date, date] | None) -> Text:
    key = day.isoformat()
    is_closed = key in closed["closed"]
    no_arrival = key in closed["closed_to_arrival"]
    no_departure = key in closed["closed_to_departure"]
    arrival_min = closed["min_stay_arrival"].get(key)
    through_min = closed["min_stay_through"].get(key)
    first = "×" if is_closed else "A" if no_arrival else " "
    stay_mark = min_stay_mark(arrival_min, SUPERSCRIPT) if arrival_min else min_stay_mark(through_min, SUBSCRIPT)
    style = "red" if is_closed else "yellow" if no_arrival or no_departure else ""
    if stay and stay[0] <= day < stay[1]:
        style += " underline bold"
    return Text(f"{day.day:>2}{first}{'D' if no_departure else ' '}{stay_mark}", style=style.strip())


def month_lines(first: date, closed: dict[str, Any], stay: tuple[date, date] | None, today: date) -> list[Text]:
    """The month's title, weekday names and weeks, each line exactly `MONTH_WIDTH` wide."""
    lines = [Text(first.strftime("%B %Y").ljust(MONTH_WIDTH), style="bold"),
             Text(" ".join(f"{name:<{CELL}}" for name in WEEKDAYS), style="dim")]
    for week in calendar.Calendar().monthdatescalendar(first.year, first.month):
        line = Text()
        for position, day in enumerate(week):
            if position:
                line.append(" ")
            if day.month != first.month:
                line.append(" " * CELL)
            elif day < today:
                line.append(f"{day.day:>2}".ljust(CELL), style="dim")  # past: nothing to sell
            else:
                line.append_text(day_cell(day, closed, stay))
        lines.append(line)
    return lines


def next_month(first: date) -> date:
    return (first.replace(day=28) + timedelta(days=4)).replace(day=1)


def months_for(width: int) -> int:
    """How many month grids fit side by side in `width` columns: one at least, MAX_MONTHS at most."""
    return max(1, min(MAX_MONTHS, (width + len(GAP)) // (MONTH_WIDTH + len(GAP))))


def calendar_view(closed: dict[str, Any], first: date, width: int, stay: tuple[date, date] | None,
                  today: date) -> Text:
    """As many month grids as fit `width` side by side, from the month of `first`, with the legend beneath; or,
    where only one fits, the legend beside it, a mark a line, so that the grid keeps every line it can."""
    grids, month = [], first.replace(day=1)
    for _ in range(months_for(width)):
        grids.append(month_lines(month, closed, stay, today))
        month = next_month(month)
    legend = [Text(mark, style="dim") for mark in LEGEND]
    beside = len(grids) == 1 and width >= MONTH_WIDTH + len(GAP) + LEGEND_WIDTH
    if beside:
        grids.append([Text(), Text(), *legend])
    height = max(len(lines) for lines in grids)
    rows = [Text(GAP).join(lines[index] if index < len(lines) else Text(" " * MONTH_WIDTH) for lines in grids)
            for index in range(height)]
    return Text("\n").join(rows if beside else [*rows, Text(" · ").join(legend)])
