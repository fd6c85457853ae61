"""A table that fits its width: one flexible column takes what the others leave (never less than its own
width), so 80 columns show the columns that matter and 120 or more show them roomier; and a cell that adds
its detail only where the column has room for all of it."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual import events
from textual.widgets import DataTable

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


class FitTable(DataTable):
    def __init__(self, columns: tuple[tuple[str, int], ...], flex: str | None = None, **options) -> None:
        super().__init__(**options)
        self.widths = dict(columns)  # label → width; labels are the column keys
        self.least = self.widths.get(flex, 0)
        self.flex = flex
        self.add_all_columns()

    def add_all_columns(self) -> None:
        for label, width in self.widths.items():
            self.add_column(label, width=width, key=label)

    def on_resize(self, _: events.Resize) -> None:
        if self.flex is None:
            return
        # The vertical scrollbar's room is always kept, so that a page long enough to need one never adds
        # a horizontal one too.
        others = sum(width + 2 * self.cell_padding for label, width in self.widths.items() if label != self.flex)
        room = self.size.width - self.styles.scrollbar_size_vertical - others - 2 * self.cell_padding
        width = max(self.least, room)
        if width != self.widths[self.flex]:
            self.widths[self.flex] = width
            self.rebuild()

    def rebuild(self) -> None:
        """Columns again at their new widths, with the same rows and the cursor where it was."""
        rows = [(row.key, row.height, self.get_row(row.key)) for row in self.ordered_rows]
        cursor = self.cursor_coordinate
        self.clear(columns=True)
        self.add_all_columns()
        for key, height, cells in rows:
            self.add_row(*cells, key=key.value, height=height)
        if rows:
            self.move_cursor(row=min(cursor.row, len(rows) - 1), column=cursor.column, animate=False)
