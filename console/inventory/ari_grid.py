"""The ARI calendar: one column per night; per room type a row of rooms to sell and, under it, per
rate plan a row of rates, a row of closing flags and a row of stay limits.

Closed nights read as letters, not only as colour: S stop sell, A closed to arrival, D closed to
departure; stay limits as a2 (min stay on arrival), t2 (min stay through), x7 (max stay). A derived
plan's values that come from its parent are underlined, and its rows say so in words: the rate row
names the parent, the others the letters they inherit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from console.inventory.data import InventoryData, inherits

RowKind = Literal["availability", "rate", "closed", "stay"]
LABEL_WIDTH = 30
CELL_WIDTH = 6
LEGEND = ("Rooms: rooms to sell · rate: per night, primary occupancy · closed: S stop sell, A arrival, "
          "D departure · stay: aN min on arrival, tN min through, xN max · · open · underlined: from the parent "
          "rate plan")
FLAGS = (("S", "stop_sell"), ("A", "closed_to_arrival"), ("D", "closed_to_departure"))
LIMITS = (("a", "min_stay_arrival"), ("t", "min_stay_through"), ("x", "max_stay"))
FROM_PARENT = "underline"


@dataclass(frozen=True)
class GridRow:
    kind: RowKind
    room: dict[str, Any]
    plan: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        return f"{self.kind}:{(self.plan or self.room)['id']}"


def compact_rate(rate: str | None) -> str:
    """ "280.00" → "280": whole amounts without their zeros, so that more nights fit on a line."""
    if rate is None:
        return "—"
    whole, _, cents = rate.partition(".")
    return whole if not cents.strip("0") else rate


def closed_flags(cell: dict[str, Any], plan: dict[str, Any]) -> Text:
    return Text.assemble(*((letter, FROM_PARENT if inherits(plan, name) else "")
                           for letter, name in FLAGS if cell[name])) or Text("·")


def stay_limits(cell: dict[str, Any], plan: dict[str, Any]) -> Text:
    shown = {"min_stay_arrival": cell["min_stay_arrival"] > 1, "min_stay_through": cell["min_stay_through"] > 1,
             "max_stay": bool(cell["max_stay"])}
    return Text.assemble(*((f"{letter}{cell[name]}", FROM_PARENT if inherits(plan, name) else "")
                           for letter, name in LIMITS if shown[name])) or Text("·")


def inherited_letters(plan: dict[str, Any], letters: tuple[tuple[str, str], ...]) -> str:
    return " ".join(letter for letter, name in letters if inherits(plan, name))


def day_label(day: date, today: date) -> Text:
    style = "reverse bold" if day == today else ("dim" if day < today else ("bold" if day.weekday() >= 5 else ""))
    return Text(f"{day:%a}"[:2] + f" {day.day}", style=style, justify="right")


class AriGrid(DataTable):
    def __init__(self, **options: Any) -> None:
        super().__init__(cursor_type="cell", fixed_columns=1, cell_padding=0, zebra_stripes=False, **options)
        self.grid_rows: dict[str, GridRow] = {}
        self.days: list[date] = []

    def show(self, data: InventoryData) -> None:
        """Rebuild the grid from newly read data, keeping the cursor where it was."""
        cursor = self.cursor_coordinate
        self.clear(columns=True)
        self.days = data.dates
        self.add_column(Text(" Room type / rate plan", style="bold"), width=LABEL_WIDTH, key="label")
        for day in self.days:
            self.add_column(day_label(day, data.today), width=CELL_WIDTH, key=day.isoformat())
        self.grid_rows = {}
        for room in data.rooms:
            self.add(GridRow("availability", room), data)
            for plan in data.plans_of(room["id"]):
                for kind in ("rate", "closed", "stay"):
                    self.add(GridRow(kind, room, plan), data)
        if self.row_count:
            row = min(cursor.row, self.row_count - 1)
            self.move_cursor(row=row, column=max(1, cursor.column), animate=False)

    def add(self, row: GridRow, data: InventoryData) -> None:
        self.grid_rows[row.key] = row
        self.add_row(self.label(row, data), *(self.cell(row, day, data) for day in self.days), key=row.key)

    @staticmethod
    def label(row: GridRow, data: InventoryData) -> Text:
        """In words where a derived plan's values come from: "Member rate ← Best Available Rate", "closed (S A
        inherited)"."""
        plan = row.plan
        if row.kind == "availability":
            return Text(f" {row.room['title']}", style="bold")
        if row.kind == "rate":
            parent = data.parent_of(plan) if plan["rate_mode"] == "derived" else None  # type: ignore[index]
            return Text(f"   {plan['title']}" + (f" ← {parent['title']}" if parent else ""),  # type: ignore[index]
                        overflow="ellipsis", no_wrap=True)
        letters = inherited_letters(plan, FLAGS if row.kind == "closed" else LIMITS)  # type: ignore[arg-type]
        return Text(f"     {row.kind}" + (f" ({letters} inherited)" if letters else ""), style="dim")

    @staticmethod
    def cell(row: GridRow, day: date, data: InventoryData) -> Text:
        past = "dim" if day < data.today else ""
        if row.kind == "availability":
            count = data.availability.get(row.room["id"], {}).get(day.isoformat(), 0)
            return Text(str(count), style=f"bold {past}" if count else f"red {past}", justify="right")
        cell = data.restrictions[row.plan["id"]][day.isoformat()]  # type: ignore[index]
        plan = row.plan
        if row.kind == "rate":
            rate = Text(compact_rate(cell["rate"]), style="strike dim" if cell["stop_sell"] else past, justify="right")
            if inherits(plan, "rate"):  # type: ignore[arg-type]
                rate.stylize(FROM_PARENT)  # the figures only, not the cell's padding
            return rate
        shown = closed_flags(cell, plan) if row.kind == "closed" else stay_limits(cell, plan)  # type: ignore[arg-type]
        colour = "bold red" if row.kind == "closed" else "yellow"
        shown.stylize_before(past if shown.plain == "·" else f"{colour} {past}")
        shown.justify = "right"
        return shown

    def current(self) -> tuple[GridRow, date] | None:
        """The row and night under the cursor (the first night shown when the cursor is on the labels)."""
        if not self.row_count:
            return None
        coordinate: Coordinate = self.cursor_coordinate
        key = self.coordinate_to_cell_key(coordinate).row_key.value
        return self.grid_rows[key], self.days[max(coordinate.column - 1, 0)]  # type: ignore[index]
