"""The inbox's list of threads: two-line rows that scroll by whole rows, Home/End (g/G) to its first and last
row, and live refreshes that hold still.

A refresh (a guest writes, a thread arrives) replaces the rows; `hold` then keeps the row under the cursor at
the same height on screen, whatever arrived above it, and remembers the threads that came above it meanwhile:
while any of them is above the view the list says so (`NewAbove`), until the view goes up to them. The thread
under the cursor keeps the cursor: when its own guest writes, both go to the top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from textual.binding import Binding
from textual.geometry import clamp
from textual.message import Message

from console.kit.fit_table import FitTable


@dataclass(frozen=True)
class Place:
    """Where the cursor was before a refresh: on which thread, how far below the top of the view, which
    threads were above it, and which of those were news (kept here: emptying the table forgets them)."""

    row_id: str | None
    offset: int
    above: frozenset[str]
    unseen: frozenset[str] = frozenset()


class ThreadList(FitTable):
    BINDINGS = [
        Binding("home,g", "first", "First conversation", show=False),
        Binding("end,G", "last", "Last conversation", show=False),
    ]

    class NewAbove(Message):
        """How many threads that arrived (or came up with a new message) are above the view; 0 when none."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    def __init__(self, *args, row_height: int, **options) -> None:
        self.row_height = row_height  # before the table's own set-up, which scrolls
        self.unseen: set[str] = set()  # threads that came above the cursor's since the view was last above them
        self.told = 0  # the count last posted
        super().__init__(*args, **options)

    # --- whole rows ----------------------------------------------------------------------------

    def validate_scroll_y(self, value: float) -> float:
        """Whole rows: down rounds down the page, up rounds up, so the row the scroll was for stays in view."""
        rows = round(value / self.row_height, 3)
        whole = math.ceil(rows) if value > self.scroll_y else math.floor(rows)
        return clamp(whole * self.row_height, 0, self.max_scroll_y)

    @property
    def max_scroll_y(self) -> int:
        """A blank line under the last row rather than half a row at the top, when the view's height is odd."""
        return math.ceil(super().max_scroll_y / self.row_height) * self.row_height

    def action_first(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    # --- refreshes that hold still -----------------------------------------------------------------

    def place(self) -> Place:
        if not self.row_count:
            return Place(None, 0, frozenset())
        row = self.cursor_row
        row_id = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        above = frozenset(key.value for key in list(self.rows)[:row] if key.value)
        return Place(row_id, row * self.row_height - round(self.scroll_y), above, frozenset(self.unseen))

    def hold(self, before: Place) -> None:
        """After the rows were replaced: the cursor's row back where it was on screen, and the threads that came
        above it counted as new."""
        if before.row_id is None or before.row_id not in self.rows:
            return
        index = self.get_row_index(before.row_id)
        # The refill scrolled to the top of an empty table on its way, which counted every earlier arrival as seen.
        self.unseen = set(before.unseen) | {key.value for key in list(self.rows)[:index]
                                            if key.value and key.value not in before.above}
        self.scroll_to(y=index * self.row_height - before.offset, animate=False, force=True)
        self.call_after_refresh(self.count_unseen)

    def forget(self) -> None:
        """Another page, search or filter: what was new above is no longer news."""
        self.unseen.clear()
        self.count_unseen()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if self.unseen:
            self.count_unseen()

    def count_unseen(self) -> None:
        """Keep the threads still above the view; say how many there are when that changes."""
        top = round(self.scroll_y)
        self.unseen = {row_id for row_id in self.unseen
                       if row_id in self.rows and self.get_row_index(row_id) * self.row_height < top}
        if len(self.unseen) != self.told:
            self.told = len(self.unseen)
            self.post_message(self.NewAbove(self.told))
