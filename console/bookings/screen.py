"""Bookings: every booking of the operator's properties, newest first, filtered (today's arrivals, departures or
guests in house, by each property's own today; status, property, arrival dates, unacknowledged) and searched by
number or guest; the flags of a booking taken as sent marked; enter opens one with its rooms, guest, masked card
and revisions."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Label

from backend.core.listing import Filter, ListQuery
from backend.core.typed_dates import NotADate, typed_date
from console.bookings.detail import BookingDetailScreen, full_name
from console.bookings.flags import FLAGS, marks
from console.bookings.keys import BOOKINGS, TODAY
from console.kit.area import PAGE_SIZE, AreaScreen, FilteredArea, PropertiesFound
from console.kit.choice import Choice
from console.kit.fit_table import Fitted
from console.kit.toggles import Checkbox
from console.kit.words import party

STATUSES = ("new", "modified", "cancelled")
STATUS_MARKS = {"new": ("● new", "green"), "modified": ("◆ modified", "yellow"), "cancelled": ("✕ cancelled", "dim")}
# Where a stay stands on its property's own today (the engine's `stay` filter): its words, and the key that shows it.
SAID = {"arriving_today": "arriving today", "departing_today": "departing today", "in_house": "in house tonight"}


def status_cell(row: dict[str, Any]) -> Text:
    """The status, then a mark for each flag: "● new ⚠?"."""
    label, style = STATUS_MARKS.get(row["status"], (row["status"], ""))
    flagged = marks(row)
    return Text.assemble((label, style), *([" ", flagged] if flagged else []))


def guest_cell(row: dict[str, Any]) -> Fitted:
    """The guest's name; where the column has room, who comes too: "Anna Müller · 2 adults, 1 child"."""
    rooms = len(row["rooms"])
    return Fitted(Text(full_name(row.get("customer") or {})),
                  party(row["occupancy"]) + (f" in {rooms} rooms" if rooms > 1 else ""))


class BookingsScreen(FilteredArea, AreaScreen):
    WATCHES = ("booking.", "property.", "channel.", "vault.")
    AREA = "bookings"
    NOUNS = ("booking", "bookings")
    # What the desk needs first: which booking, whose, when; the rest gives way in a narrow window.
    COLUMNS = (("Status", 14), ("Booking", 13), ("Guest", 14), ("Arrival", 10), ("Departure", 10), ("Property", 18),
               ("Amount", 12), ("Acked", 7), ("Channel", 12))
    FLEX = "Guest"
    DROP = ("Channel", "Acked", "Amount", "Property", "Departure")
    # The filter bar takes one line where it fits, two where it does not.

    BINDINGS = BOOKINGS

    def __init__(self) -> None:
        super().__init__()
        self.filters: list[Filter] = []
        self.said: list[str] = []  # the filters in the status line's words

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="bk-filters"):
            with Horizontal(classes="filters bk-row"):
                yield Label("Today", classes="filter-label")
                yield Choice([(f"{words} ({key})", stay) for stay, (words, key) in TODAY.items()], prompt="any",
                             id="bk-stay")
                yield Label("Status", classes="filter-label")
                yield Choice([(s, s) for s in STATUSES], prompt="any", id="bk-status")
                yield Label("Property", classes="filter-label")
                yield self.make_property_filter("bk-property")
            with Horizontal(classes="filters bk-row"):
                yield Label("Arrival", classes="filter-label")
                yield Input(placeholder="from", id="bk-from", compact=True, classes="date-input")
                yield Label("–", classes="filter-label")
                yield Input(placeholder="to", id="bk-to", compact=True, classes="date-input")
                yield Checkbox("Unacked only", id="bk-unacked", compact=True)
                yield Input(placeholder="number or guest (/)", id="bk-search", compact=True)
        yield self.make_table()

    # --- reading -----------------------------------------------------------------------------

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        titles = {p["id"]: p["title"] for p in engine.properties.options(actor)}
        self.post_message(PropertiesFound(titles))
        rows, meta = engine.bookings.list(actor, ListQuery(page=number, limit=PAGE_SIZE, filters=self.filters))
        return [{**row, "title": titles.get(row["property_id"], "?"), "pending": not row["is_acked"]}
                for row in rows], meta

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        acked = Text("pending", style="bold yellow") if row["pending"] else Text("✓", style="green")
        return (status_cell(row), row["unique_id"], guest_cell(row), row["arrival_date"], row["departure_date"],
                row["title"], Text(f"{row['amount']} {row['currency']}", justify="right"), acked, row["ota_name"])

    def where(self) -> str:
        """Where the list is, what it is filtered by, and what the marks on this page mean."""
        found = " · ".join([super().where(), *([", ".join(self.said)] if self.said else [])])
        legend = [f"{flag.mark} {flag.words}" for flag in FLAGS if any(row[flag.field] for row in self.rows.values())]
        return " · ".join([found, *legend])

    # --- filters -----------------------------------------------------------------------------

    def apply_filters(self) -> None:
        """Read the filter bar into engine filters, and into words for the status line; the list starts again at
        page 1."""
        filters, said = [], []
        stay, status = self.query_one("#bk-stay", Choice).value, self.query_one("#bk-status", Choice).value
        prop = self.query_one("#bk-property", Choice).value
        if stay is not None:
            filters.append(Filter("stay", "eq", str(stay)))
            said.append(SAID[str(stay)])
        if status is not None:
            filters.append(Filter("status", "eq", str(status)))
            said.append(str(status))
        if prop is not None:
            filters.append(Filter("property_id", "eq", str(prop)))
            said.append(f"at {self.property_titles.get(str(prop), '?')}")
        for widget_id, op, words in (("#bk-from", "gte", "arriving from"), ("#bk-to", "lte", "arriving until")):
            field = self.query_one(widget_id, Input)
            if field.value.strip():
                try:
                    value = typed_date(field.value, self.app.engine.config.clock().date()).isoformat()
                except NotADate as problem:  # refused: the list stays as it was, the focus on the field
                    self.status.news(str(problem), error=True)
                    field.focus()
                    return
                filters.append(Filter("arrival_date", op, value))
                said.append(f"{words} {value}")
        if self.query_one("#bk-unacked", Checkbox).value:
            filters.append(Filter("is_acked", "eq", "false"))
            said.append("unacknowledged")
        if search := self.query_one("#bk-search", Input).value.strip():
            filters.append(Filter("search", "eq", search))
            said.append(f"number or guest containing “{search}”")
        self.filters, self.said = filters, said
        self.restart()

    def action_today(self, stay: str | None = None) -> None:
        """Show one of today's views (again: every booking); without one, the next view in turn."""
        choice = self.query_one("#bk-stay", Choice)
        current = choice.value
        if stay is None:
            order = [None, *TODAY]
            stay = order[(order.index(current) + 1) % len(order)]
        elif stay == current:
            stay = None
        choice.value = stay

    def action_toggle_unacked(self) -> None:
        self.query_one("#bk-unacked", Checkbox).toggle()

    def action_search(self) -> None:
        self.query_one("#bk-search", Input).focus()

    def key_escape(self) -> None:
        if isinstance(self.focused, Input):
            self.table.focus()

    # --- one booking -------------------------------------------------------------------------

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        if row := self.current_row():
            self.app.push_screen(BookingDetailScreen(row["id"], row["unique_id"]))
