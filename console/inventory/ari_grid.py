"""The ARI calendar: one column per night, as many as the width holds; per room type a row of rooms to sell and,
under it, per rate plan a row of rates, a row of closing flags and a row of stay limits.

Closed nights read as letters, not only as colour: S stop sell, A closed to arrival, D closed to
departure; stay limits as a2 (min stay on arrival), t2 (min stay through), x7 (max stay). A derived
plan's values that come from its parent are underlined, and its rows say so in words: the rate row
names the parent, the others the letters they inherit.

shift+arrows select a block of nights and rows from where the cursor stood; a plain arrow, a click or esc lets go.
The selection is kept as dates and row keys, so it stays put while the calendar moves a week or reloads, and
shows as a shaded block (its rows' labels too).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar, Literal

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable

from console.inventory.data import InventoryData, inherits

RowKind = Literal["availability", "rate", "closed", "stay"]
LABEL_WIDTH = 30  # at WIDE columns and more
NARROW_LABEL_WIDTH = 22
WIDE = 100
CELL_WIDTH = 7  # a night: a space, then up to six characters (552.50), so that neighbouring rates never touch
SCROLLBAR = 2  # kept free, so that a long property's rows never push the last night out of view
LEGEND = ("Rooms: rooms to sell · rate: per night, primary occupancy · closed: S stop sell, A arrival, "
          "D departure · stay: aN min on arrival, tN min through, xN max · · open · underlined: from the parent plan")
# At 80 columns, in one line: the row labels say what is inherited.
SHORT_LEGEND = "S stop sell · A/D closed to arrival/departure · a/t min stay, x max stay"
FLAGS = (("S", "stop_sell"), ("A", "closed_to_arrival"), ("D", "closed_to_departure"))
LIMITS = (("a", "min_stay_arrival"), ("t", "min_stay_through"), ("x", "max_stay"))
FROM_PARENT = "underline"


def label_width(width: int) -> int:
    return LABEL_WIDTH if width >= WIDE else NARROW_LABEL_WIDTH


def nights_that_fit(width: int) -> int:
    """How many nights a calendar `width` columns wide shows whole (a week at the least)."""
    return max(7, (width - label_width(width) - SCROLLBAR) // CELL_WIDTH)


@dataclass(frozen=True)
class GridRow:
    kind: RowKind
    room: dict[str, Any]
    plan: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        return f"{self.kind}:{(self.plan or self.room)['id']}"


@dataclass(frozen=True)
class Selection:
    """The rows and the nights from first to last (both included) that a range edit is for."""

    rows: tuple[GridRow, ...]
    first: date
    last: date

    @property
    def rooms(self) -> list[dict[str, Any]]:
        return list({row.room["id"]: row.room for row in self.rows if row.kind == "availability"}.values())

    @property
    def plans(self) -> list[dict[str, Any]]:
        return list({row.plan["id"]: row.plan for row in self.rows if row.plan is not None}.values())

    @property
    def nights(self) -> int:
        return (self.last - self.first).days + 1


def compact_rate(rate: str | None) -> str:
    """A rate as a night's cell holds it, exact where it fits: "280.00" → "280", "552.50" as it is. Longer ones are
    rounded to whole units and marked: "1250.50" → "≈1251", "1250000" → "1250k" (the range editor shows them exact)."""
    if rate is None:
        return "—"
    whole, _, cents = rate.partition(".")
    exact = whole if not cents.strip("0") else rate
    if len(exact) < CELL_WIDTH:
        return exact
    rounded = int(Decimal(rate).quantize(Decimal(1), ROUND_HALF_UP))
    return f"≈{rounded}" if len(str(rounded)) < CELL_WIDTH - 1 else f"{rounded // 1000}k"


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
    BINDINGS: ClassVar = [
        Binding("shift+left", "extend(0, -1)", "Select nights", show=False),
        Binding("shift+right", "extend(0, 1)", "Select nights", show=False),
        Binding("shift+up", "extend(-1, 0)", "Select rows", show=False),
        Binding("shift+down", "extend(1, 0)", "Select rows", show=False),
        Binding("escape", "let_go", "Clear selection", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = DataTable.COMPONENT_CLASSES | {"ari-grid--selected"}
    DEFAULT_CSS = """
    AriGrid > .ari-grid--selected {
        background: $accent 20%;
    }
    """

    class SelectionChanged(Message):
        """The selection grew, shrank or went; `selection` is None when only the cursor's cell is chosen."""

        def __init__(self, selection: Selection | None) -> None:
            super().__init__()
            self.selection = selection

    def __init__(self, **options: Any) -> None:
        super().__init__(cursor_type="cell", fixed_columns=1, cell_padding=0, zebra_stripes=False, **options)
        self.grid_rows: dict[str, GridRow] = {}
        self.days: list[date] = []
        self.anchor: tuple[str, date] | None = None  # where a shift+arrow selection started: row key, night
        self.block: Selection | None = None  # the selection while there is one, worked out once per change
        self.extending = False  # the cursor moves to extend the selection, not to let go of it

    def show(self, data: InventoryData, labels: int = LABEL_WIDTH) -> None:
        """Rebuild the grid from newly read data, keeping the cursor and the selection where they were; the label
        column `labels` wide."""
        cursor = self.cursor_coordinate
        self.clear(columns=True)
        self.days = data.dates
        heading = " Room type / rate plan" if labels >= LABEL_WIDTH else " Room / rate plan"
        self.add_column(Text(heading, style="bold"), width=labels, key="label")
        for day in self.days:
            self.add_column(day_label(day, data.today), width=CELL_WIDTH, key=day.isoformat())
        self.grid_rows = {}
        for room in data.rooms:
            self.add(GridRow("availability", room), data)
            for plan in data.plans_of(room["id"]):
                for kind in ("rate", "closed", "stay"):
                    self.add(GridRow(kind, room, plan), data)
        if self.anchor is not None and self.anchor[0] not in self.grid_rows:
            self.anchor = None  # its row has gone
        if self.row_count:
            with self.extending_selection():
                self.move_cursor(row=min(cursor.row, self.row_count - 1), column=max(1, cursor.column), animate=False)
        self.block = self.selection() if self.anchor else None

    def add(self, row: GridRow, data: InventoryData) -> None:
        self.grid_rows[row.key] = row
        self.add_row(self.label(row, data), *(self.cell(row, day, data) for day in self.days), key=row.key)

    @staticmethod
    def label(row: GridRow, data: InventoryData) -> Text:
        """In words where a derived plan's values come from: "Member rate ← Best Available Rate", "closed (S A
        inherited)"."""
        plan = row.plan
        if row.kind == "availability":
            return Text(f" {row.room['title']}", style="bold", overflow="ellipsis", no_wrap=True)
        if row.kind == "rate":
            parent = data.parent_of(plan) if plan["rate_mode"] == "derived" else None
            return Text(f"   {plan['title']}" + (f" ← {parent['title']}" if parent else ""),
                        overflow="ellipsis", no_wrap=True)
        letters = inherited_letters(plan, FLAGS if row.kind == "closed" else LIMITS)
        return Text(f"     {row.kind}" + (f" ({letters} inherited)" if letters else ""), style="dim",
                    overflow="ellipsis", no_wrap=True)

    @staticmethod
    def cell(row: GridRow, day: date, data: InventoryData) -> Text:
        past = "dim" if day < data.today else ""
        if row.kind == "availability":
            count = data.availability.get(row.room["id"], {}).get(day.isoformat(), 0)
            return Text(str(count), style=f"bold {past}" if count else f"red {past}", justify="right")
        cell = data.restrictions[row.plan["id"]][day.isoformat()]
        plan = row.plan
        if row.kind == "rate":
            rate = Text(compact_rate(cell["rate"]), style="strike dim" if cell["stop_sell"] else past, justify="right")
            if inherits(plan, "rate"):
                rate.stylize(FROM_PARENT)  # the figures only, not the cell's padding
            return rate
        shown = closed_flags(cell, plan) if row.kind == "closed" else stay_limits(cell, plan)
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
        return self.grid_rows[key], self.days[max(coordinate.column - 1, 0)]

    # --- selecting ---------------------------------------------------------------------------

    def selection(self) -> Selection | None:
        """What a range edit is for: the selected block, else the cursor's cell (None on an empty grid)."""
        chosen = self.current()
        if chosen is None:
            return None
        row, day = chosen
        if self.anchor is None:
            return Selection((row,), day, day)
        keys = list(self.grid_rows)
        top, bottom = sorted((keys.index(self.anchor[0]), keys.index(row.key)))
        first, last = sorted((self.anchor[1], day))
        return Selection(tuple(self.grid_rows[key] for key in keys[top:bottom + 1]), first, last)

    def action_extend(self, rows: int, columns: int) -> None:
        chosen = self.current()
        if chosen is None:
            return
        if self.anchor is None:
            self.anchor = (chosen[0].key, chosen[1])
        cursor = self.cursor_coordinate
        with self.extending_selection():
            self.move_cursor(row=cursor.row + rows, column=max(1, cursor.column + columns))
        self.selection_changed()

    def action_let_go(self) -> None:
        if self.anchor is not None:
            self.anchor = None
            self.selection_changed()

    def watch_cursor_coordinate(self, old: Coordinate, new: Coordinate) -> None:
        super().watch_cursor_coordinate(old, new)
        if not self.extending and self.anchor is not None and old != new:
            self.anchor = None  # a plain move lets go of the selection
            self.selection_changed()

    @contextmanager
    def extending_selection(self) -> Iterator[None]:
        self.extending = True
        try:
            yield
        finally:
            self.extending = False

    def selection_changed(self) -> None:
        self.block = self.selection() if self.anchor else None
        self._clear_caches()  # the shading depends on the anchor, which the row caches don't know
        self.refresh()
        self.post_message(self.SelectionChanged(self.block))

    def _render_cell(self, row_index: int, column_index: int, base_style: Style, width: int, cursor: bool = False,
                     hover: bool = False) -> list:
        if not cursor and self.selected(row_index, column_index):
            base_style = base_style + self.get_component_rich_style("ari-grid--selected", partial=True)
        return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)

    def selected(self, row_index: int, column_index: int) -> bool:
        """Whether a cell is in the selected block; a label is when its row is."""
        block = self.block
        if block is None or not 0 <= row_index < self.row_count:
            return False
        key = self.coordinate_to_cell_key(Coordinate(row_index, 0)).row_key.value
        if not any(row.key == key for row in block.rows):
            return False
        return column_index == 0 or block.first <= self.days[column_index - 1] <= block.last
