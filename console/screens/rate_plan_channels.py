"""The channels a rate plan is sold on: of the channels its property is connected to, map or unmap
the plan one channel at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static
from textual.worker import get_current_worker

from backend.errors import FrontdeskError
from console.messages import ActionDone, ActionFailed, DataChanged
from console.screens.area import describe

if TYPE_CHECKING:
    from console.app import FrontdeskApp


class ChannelsLoaded(Message):
    def __init__(self, channels: list[dict[str, Any]]) -> None:
        super().__init__()
        self.channels = channels


class RatePlanChannelsDialog(ModalScreen[None]):
    BINDINGS = [
        Binding("space", "toggle", "Map / unmap"),
        Binding("escape,q", "dismiss", "Close"),
    ]

    app: FrontdeskApp

    def __init__(self, plan: dict[str, Any]) -> None:
        super().__init__(classes="dialog-screen")
        self.plan = plan
        self.channels: dict[str, dict[str, Any]] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog"):
            yield Label(f"Channels selling “{self.plan['title']}”", classes="dialog-title", markup=False)
            table = DataTable(cursor_type="row", id="plan-channels")
            table.add_columns("Sold", "Channel", "Type")
            yield table
            yield Static("", id="plan-channels-news", markup=False)
            yield Static("Channels the property is connected to · space or enter maps or unmaps · esc closes",
                         classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def on_data_changed(self, _: DataChanged) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="channels")
    def load(self) -> None:
        worker = get_current_worker()
        try:
            channels = self.app.engine.channels.for_property(self.app.actor(), self.plan["property_id"])
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
            return
        if not worker.is_cancelled:
            self.post_message(ChannelsLoaded([c for c in channels if c["connected"]]))

    def on_channels_loaded(self, message: ChannelsLoaded) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        self.channels = {c["id"]: c for c in message.channels}
        for channel in message.channels:
            mapped = self.plan["id"] in channel["rate_plan_ids"]
            table.add_row(Text("● mapped", "bold green") if mapped else Text("○ not mapped", "dim"), channel["title"],
                          channel["channel_code"], key=channel["id"])
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1), animate=False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_toggle()

    def action_toggle(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            self.toggle(self.channels[table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value])

    @work(thread=True, group="toggle")
    def toggle(self, channel: dict[str, Any]) -> None:
        mapped = self.plan["id"] not in channel["rate_plan_ids"]
        try:
            self.app.engine.channels.map_rate_plan(self.app.actor(), channel["id"], self.plan["id"], mapped)
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
        else:
            self.post_message(ActionDone(f"{'Mapped to' if mapped else 'Unmapped from'} {channel['title']}"))

    def on_action_done(self, message: ActionDone) -> None:
        message.stop()
        self.news(message.text, error=False)
        self.load()

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        self.news(describe(message.error), error=True)

    def news(self, text: str, error: bool) -> None:
        panel = self.query_one("#plan-channels-news", Static)
        panel.update(text)
        panel.set_class(error, "-error")
