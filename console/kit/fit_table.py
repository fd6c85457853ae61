"""A table that fits its width: its flexible columns share what the others leave (never less than their own
widths, and in proportion to them), so 80 columns show the columns that matter and 120 or more show them
roomier; columns that matter less are hidden, in an order the table is given, when even that does not fit (and
the table says which, for the status line); and a cell that adds its detail only where the column has room for
all of it."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import CellType, RowKey

SEPARATOR = " · "
LEAST_CROPPED = 12  # characters of a croppable detail worth showing, with its ellipsis


class Fitted:
    """A cell's words, and its detail after them when the column is wide enough: for all of it, or for a good
    start of it when it may be cropped (an error message may; a time may not)."""

    def __init__(self, main: Text, detail: str | None, croppable: bool = False) -> None:
        self.main = main
        self.detail = detail
        self.croppable = croppable

    def full(self) -> Text:
        if not self.detail:
            return self.main
        return Text.assemble(self.main, (SEPARATOR + self.detail, "dim"))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        full = self.full()
        room = options.max_width - self.main.cell_len - len(SEPARATOR)
        fits = full.cell_len <= options.max_width or (self.croppable and room >= LEAST_CROPPED)
        shown = full if fits else self.main.copy()
        shown.no_wrap, shown.overflow = True, "ellipsis"
        yield shown

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.main.cell_len, self.full().cell_len)


class FitTable(DataTable, inherit_bindings=False):
    # Without the table's page keys, which only scroll: the screens turn pages with them (kit/keys.py). Had the
    # table its own, they would come first in the footer while it has the focus and last while it has not, and the
    # footer would be built again (the screen laid out again) as the list takes the focus on an area's first visit.
    BINDINGS: ClassVar[list[BindingType]] = [
        binding for binding in DataTable.BINDINGS
        if isinstance(binding, Binding) and binding.key not in ("pageup", "pagedown")]

    class ColumnsHidden(Message):
        """The columns the width leaves out changed; `labels` is empty when every column shows."""

        def __init__(self, table: FitTable, labels: tuple[str, ...]) -> None:
            super().__init__()
            self.table = table
            self.labels = labels

        @property
        def control(self) -> FitTable:
            return self.table

    def __init__(self, columns: tuple[tuple[str, int], ...], flex: str | tuple[str, ...] | None = None,
                 drop: tuple[str, ...] = (), **options) -> None:
        """`flex`: the column, or columns, that take the width the others leave. `drop`: the columns to hide when
        the width can't hold every column, the least needed first."""
        super().__init__(**options)
        self.widths = dict(columns)  # label → width; labels are the column keys
        self.flex: tuple[str, ...] = (flex,) if isinstance(flex, str) else flex or ()
        self.least = {label: self.widths[label] for label in self.flex}
        self.drop = drop
        self.hidden: tuple[str, ...] = ()
        self.headers: dict[str, str] = {}  # label → what the header says instead, where it says more
        self.full_rows: dict[RowKey, tuple[CellType, ...]] = {}  # every column's cell, hidden ones too
        self.add_all_columns()

    def shown(self) -> list[str]:
        return [label for label in self.widths if label not in self.hidden]

    def add_all_columns(self) -> None:
        for label in self.shown():
            self.add_column(self.headers.get(label, label), width=self.widths[label], key=label)

    def relabel(self, label: str, header: str) -> None:
        """Another header over a column ("Rate 24 Dec" over Rate); the column keeps its label as its key."""
        if self.headers.get(label, label) != header:
            self.headers[label] = header
            self.rebuild()

    def add_row(self, *cells: CellType, height: int | None = 1, key: str | None = None, **options) -> RowKey:
        """Takes a cell for every column; only the shown ones go into the table."""
        indexes = [index for index, label in enumerate(self.widths) if label not in self.hidden]
        row_key = super().add_row(*(cells[index] for index in indexes), height=height, key=key, **options)
        self.full_rows[row_key] = cells
        return row_key

    def update_row(self, key: str, cells: tuple[CellType, ...]) -> None:
        """A row's cells anew, where it is (a cell for every column, as add_row takes)."""
        self.full_rows[RowKey(key)] = cells
        for label, cell in zip(self.widths, cells):
            if label not in self.hidden:
                self.update_cell(key, label, cell)

    def clear(self, columns: bool = False) -> FitTable:
        self.full_rows = {}
        return super().clear(columns)

    def on_resize(self, _: events.Resize) -> None:
        hidden = self.to_hide()
        widths = self.flex_widths(hidden)
        if hidden != self.hidden or any(width != self.widths[label] for label, width in widths.items()):
            if hidden != self.hidden:
                self.hidden = hidden
                self.post_message(self.ColumnsHidden(self, hidden))
            self.widths.update(widths)
            self.rebuild()

    def room(self, hidden: tuple[str, ...]) -> int:
        """What the flexible columns would share with these columns hidden. The vertical scrollbar's room is
        always kept, so that a page long enough to need one never adds a horizontal one too."""
        others = sum(width + 2 * self.cell_padding for label, width in self.widths.items()
                     if label not in self.flex and label not in hidden)
        flexible = sum(1 for label in self.flex if label not in hidden)
        return self.size.width - self.styles.scrollbar_size_vertical - others - 2 * self.cell_padding * flexible

    def to_hide(self) -> tuple[str, ...]:
        hidden: tuple[str, ...] = ()
        for label in self.drop:
            if self.room(hidden) >= self.least_width(hidden):
                break
            hidden += (label,)
        return hidden

    def least_width(self, hidden: tuple[str, ...]) -> int:
        return sum(width for label, width in self.least.items() if label not in hidden)

    def flex_widths(self, hidden: tuple[str, ...]) -> dict[str, int]:
        """Each shown flexible column's least width and its share of the room beyond, the first taking what
        division leaves over."""
        least = self.least_width(hidden)
        extra = max(0, self.room(hidden) - least)
        widths = {label: width + extra * width // least for label, width in self.least.items() if label not in hidden}
        if widths:
            widths[next(iter(widths))] += least + extra - sum(widths.values())
        return widths

    def rebuild(self) -> None:
        """Columns again at their new widths, with the same rows and the cursor where it was."""
        rows = [(row.key, row.height, self.full_rows[row.key]) for row in self.ordered_rows]
        cursor = self.cursor_coordinate
        self.clear(columns=True)
        self.add_all_columns()
        for key, height, cells in rows:
            self.add_row(*cells, key=key.value, height=height)
        if rows:
            self.move_cursor(row=min(cursor.row, len(rows) - 1), column=cursor.column, animate=False)
