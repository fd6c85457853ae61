"""Shopping preview: what a shopping channel of ours sells for a stay, as its guests would see it.

Pick the channel, the dates and the party; the list shows each connected property with its best
offer for that stay. Enter opens the property: its closed dates, rooms and prices, and a test booking.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import DataTable, Input, Label

from backend.channels.service import SHOPPING_CODES
from backend.core.listing import Filter, ListQuery
from backend.core.typed_dates import NotADate, typed_date
from console.kit.area import PAGE_SIZE, AreaScreen, mark
from console.kit.choice import Choice
from console.kit.toggles import Checkbox
from console.shopping.keys import SHOPPING
from console.shopping.property import ShoppingPropertyScreen
from console.shopping.stay import StayQuery

LEAD_DAYS = 9  # default check-in: far enough ahead to be past any cut-off, not on a Sunday of the demo
NIGHTS = 3
DATE_HINT = "24 Dec, +7"  # any date as typed_dates takes it, in a short field


class ChannelsFound(Message):
    def __init__(self, channels: list[dict[str, Any]]) -> None:
        super().__init__()
        self.channels = channels


def offer(row: dict[str, Any]) -> Text:
    if row["best_offer"] is None:
        return Text("sold out", style="dim", justify="right")
    return Text(f"{row['best_offer']} {row['currency']}", justify="right")


class ShoppingScreen(AreaScreen):
    WATCHES = ("ari.", "booking.", "inventory.", "property.", "channel.")  # prices and closed dates
    AREA = "shopping"
    NOUNS = ("property", "properties")
    COLUMNS = (("Property", 24), ("City", 18), ("Country", 7), ("Best offer", 16), ("Available", 9))
    FLEX = ("Property", "City")
    DROP = ("Country", "City")

    BINDINGS = SHOPPING

    def __init__(self) -> None:
        super().__init__()
        today = self.app.engine.config.clock().date()
        checkin = today + timedelta(days=LEAD_DAYS)
        self.stay = StayQuery(None, checkin.isoformat(), (checkin + timedelta(days=NIGHTS)).isoformat())
        self.channels: dict[str, dict[str, Any]] = {}

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="shop-toolbar"):  # one line, or two at 80 columns
            with Horizontal(classes="filters"):
                yield Label("Channel", classes="filter-label")
                yield Choice([], prompt="no shopping channel", id="shop-channel")
                yield Label("Check-in", classes="filter-label")
                yield Input(self.stay.checkin, placeholder=DATE_HINT, id="shop-checkin", compact=True,
                            classes="date-input")
                yield Label("Check-out", classes="filter-label")
                yield Input(self.stay.checkout, placeholder=DATE_HINT, id="shop-checkout", compact=True,
                            classes="date-input")
            with Horizontal(classes="filters"):
                yield Label("Adults", classes="filter-label")
                yield Input(self.stay.adults, id="shop-adults", compact=True, classes="count-input")
                yield Label("Children", classes="filter-label")
                yield Input(self.stay.children, id="shop-children", compact=True, classes="count-input")
                yield Checkbox("Available only", id="shop-available", compact=True)
        yield self.make_table()

    # --- reading -----------------------------------------------------------------------------

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        query = ListQuery(limit=100, filters=[Filter("channel", "eq", ",".join(SHOPPING_CODES))])
        channels, _ = engine.channels.list(actor, query)
        self.post_message(ChannelsFound(channels))
        stay = self.stay
        ids = [c["id"] for c in channels]
        channel_id = stay.channel_id if stay.channel_id in ids else (ids[0] if ids else None)
        if channel_id is None:
            return [], {"total": 0}
        engine.shopping.own_channel(actor, channel_id)
        params = [*stay.params().items(), ("pagination[page]", str(number)), ("pagination[limit]", str(PAGE_SIZE))]
        if stay.available_only:
            params.append(("filter[is_available]", "true"))
        return engine.shopping.property_list([channel_id], params)

    def on_channels_found(self, message: ChannelsFound) -> None:
        self.channels = {c["id"]: c for c in message.channels}
        choice = self.query_one("#shop-channel", Choice)
        if self.stay.channel_id not in self.channels:
            self.stay = replace(self.stay, channel_id=next(iter(self.channels), None))
        with choice.prevent(Choice.Changed):
            choice.set_options([(c["title"], c["id"]) for c in message.channels])
            choice.value = self.stay.channel_id

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return (row["title"], row["city"] or "", row["country"] or "", offer(row), mark(row["best_offer"] is not None))

    def where(self) -> str:
        if not self.channels:
            return "No shopping channel yet: create an OpenShopping channel in Channels (2)"
        channel = self.channels.get(self.stay.channel_id or "")
        nights = self.stay.dates()
        span = f"{(nights[1] - nights[0]).days} nights" if nights else "stay"
        name = channel["title"] if channel else ""
        return f"{super().where()} on {name} · {span} from {self.stay.checkin} · {self.stay.party()}"

    # --- the stay ----------------------------------------------------------------------------

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "shop-channel" and event.value is not None and event.value != self.stay.channel_id:
            self.stay = replace(self.stay, channel_id=str(event.value))
            self.restart()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.stay = replace(self.stay, available_only=event.value)
        self.restart()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        def value(name: str) -> str:
            return self.query_one(f"#shop-{name}", Input).value.strip()

        dates = {}
        for name in ("checkin", "checkout"):  # typed as anywhere in the console; refused: the focus stays there
            field = self.query_one(f"#shop-{name}", Input)
            try:
                dates[name] = typed_date(field.value, self.app.engine.config.clock().date()).isoformat()
            except NotADate as problem:
                self.status.news(str(problem), error=True)
                field.focus()
                return
            field.value = dates[name]  # what "+3" or "24 Dec" was taken to mean
        self.stay = replace(self.stay, checkin=dates["checkin"], checkout=dates["checkout"], adults=value("adults"),
                            children=value("children") or "0")
        self.restart()
        self.table.focus()

    def key_escape(self) -> None:
        if isinstance(self.focused, Input):
            self.table.focus()

    # --- one property ------------------------------------------------------------------------

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        row = self.current_row()
        if row is not None and self.stay.channel_id:
            self.app.push_screen(ShoppingPropertyScreen(self.stay, row))
