"""Bookings: every booking of the operator's properties, newest first, filtered and searched;
enter opens one with its rooms, guest, masked card and revisions."""

from __future__ import annotations

from datetime import date
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import DataTable, Input, Label, Select

from backend.listing import Filter, ListQuery
from console.bookings.detail import BookingDetailScreen
from console.kit.area import PAGE_BINDINGS, PAGE_SIZE, AreaScreen, FilteredArea
from console.kit.toggles import Checkbox

STATUSES = ("new", "modified", "cancelled")
STATUS_MARKS = {"new": ("● new", "green"), "modified": ("◆ modified", "yellow"), "cancelled": ("✕ cancelled", "dim")}


class PropertiesFound(Message):
    def __init__(self, titles: dict[str, str]) -> None:
        super().__init__()
        self.titles = titles


def status_cell(status: str) -> Text:
    label, style = STATUS_MARKS.get(status, (status, ""))
    return Text(label, style=style)


def nights(booking: dict[str, Any]) -> int:
    return (date.fromisoformat(booking["departure_date"]) - date.fromisoformat(booking["arrival_date"])).days


def guest_name(booking: dict[str, Any]) -> str:
    customer = booking.get("customer") or {}
    return " ".join(part for part in (customer.get("name"), customer.get("surname")) if part)


class BookingsScreen(FilteredArea, AreaScreen):
    AREA = "bookings"
    NOUNS = ("booking", "bookings")
    COLUMNS = (("Status", 11), ("Booking", 13), ("Channel", 12), ("Property", 18), ("Guest", 13), ("Arrival", 10),
               ("Nts", 3), ("Amount", 13), ("Acked", 7))

    BINDINGS = [
        Binding("slash", "search", "Search", key_display="/"),
        Binding("f", "focus('#bk-status')", "Filters"),
        Binding("u", "toggle_unacked", "Unacked only"),
        *PAGE_BINDINGS,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.filters: list[Filter] = []
        self.unacked_only = False
        self.search = ""
        self.property_titles: dict[str, str] = {}

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="bk-toolbar", classes="filters"):
            yield Label("Status", classes="filter-label")
            yield Select([(s, s) for s in STATUSES], prompt="any", id="bk-status", compact=True)
            yield Label("Property", classes="filter-label")
            yield Select([], prompt="any property", id="bk-property", compact=True)
            yield Label("Arrival", classes="filter-label")
            yield Input(placeholder="from", id="bk-from", compact=True, classes="date-input")
            yield Label("–", classes="filter-label")
            yield Input(placeholder="to", id="bk-to", compact=True, classes="date-input")
            yield Checkbox("Unacked only", id="bk-unacked", compact=True)
            yield Input(placeholder="number (/)", id="bk-search", compact=True)
        yield self.make_table()

    # --- reading -----------------------------------------------------------------------------

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        titles = {p["id"]: p["title"] for p in engine.properties.options(actor)}
        self.post_message(PropertiesFound(titles))
        filters = list(self.filters)
        if self.search:
            filters.append(Filter("unique_id", "has", self.search))
        if self.unacked_only:
            filters.append(Filter("is_acked", "eq", "false"))
        rows, meta = engine.bookings.list(actor, ListQuery(page=number, limit=PAGE_SIZE, filters=filters))
        return [{**row, "title": titles.get(row["property_id"], "?"), "pending": not row["is_acked"]}
                for row in rows], meta

    def on_properties_found(self, message: PropertiesFound) -> None:
        if message.titles == self.property_titles:
            return
        self.property_titles = message.titles
        select = self.query_one("#bk-property", Select)
        with select.prevent(Select.Changed):
            chosen = select.value
            select.set_options([(title, pid) for pid, title in message.titles.items()])
            if chosen in message.titles:
                select.value = chosen

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        acked = Text("pending", style="bold yellow") if row["pending"] else Text("✓", style="green")
        return (status_cell(row["status"]), row["unique_id"], row["ota_name"], row["title"], guest_name(row),
                row["arrival_date"], Text(str(nights(row)), justify="right"),
                Text(f"{row['amount']} {row['currency']}", justify="right"), acked)

    def where(self) -> str:
        found = super().where()
        shown = [f"{f.field.replace('_', ' ')} {f.op} {f.value}" for f in self.filters]
        if self.unacked_only:
            shown.append("unacknowledged")
        if self.search:
            shown.append(f"number contains “{self.search}”")
        return f"{found} · " + ", ".join(shown) if shown else found

    # --- filters -----------------------------------------------------------------------------

    def apply_filters(self) -> None:
        """Read the filter bar into engine filters; the list starts again at page 1."""
        status = self.query_one("#bk-status", Select).value
        prop = self.query_one("#bk-property", Select).value
        filters = []
        if status is not Select.NULL:
            filters.append(Filter("status", "eq", str(status)))
        if prop is not Select.NULL:
            filters.append(Filter("property_id", "eq", str(prop)))
        for widget_id, op in (("#bk-from", "gte"), ("#bk-to", "lte")):
            if value := self.query_one(widget_id, Input).value.strip():
                filters.append(Filter("arrival_date", op, value))
        self.filters = filters
        self.search = self.query_one("#bk-search", Input).value.strip()
        self.unacked_only = self.query_one("#bk-unacked", Checkbox).value
        self.restart()

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
