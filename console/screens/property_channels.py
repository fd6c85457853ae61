"""The channels a property is sold on: connect or disconnect it, one channel at a time.

A channel refuses a property whose contact details are missing; the engine names each missing
field, and the dialog lists those messages so the user knows what to fill in."""

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

from backend.errors import FrontdeskError, ValidationFailed
from console.labels import label_for
from console.messages import ActionDone, ActionFailed, DataChanged

if TYPE_CHECKING:
    from console.app import FrontdeskApp


class ChannelsLoaded(Message):
    def __init__(self, channels: list[dict[str, Any]]) -> None:
        super().__init__()
        self.channels = channels


class PropertyChannelsDialog(ModalScreen[None]):
    BINDINGS = [
        Binding("space", "toggle", "Connect / disconnect"),
        Binding("escape,q", "dismiss", "Close"),
    ]

    app: FrontdeskApp

    def __init__(self, property_id: str, title: str) -> None:
        super().__init__(classes="dialog-screen")
        self.property_id = property_id
        self.property_title = title
        self.channels: dict[str, dict[str, Any]] = {}
        self.toggling: dict[str, Any] | None = None  # the channel of the last connect or disconnect

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog"):
            yield Label(f"Channels of “{self.property_title}”", classes="dialog-title", markup=False)
            table = DataTable(cursor_type="row", id="property-channels")
            table.add_columns("Connected", "Channel", "Type", "Channel active")
            yield table
            yield Static("", id="connect-problems", markup=False)
            yield Static("space or enter connects or disconnects · esc closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def on_data_changed(self, _: DataChanged) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="channels")
    def load(self) -> None:
        worker = get_current_worker()
        try:
            channels = self.app.engine.channels.for_property(self.app.actor(), self.property_id)
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
            return
        if not worker.is_cancelled:
            self.post_message(ChannelsLoaded(channels))

    def on_channels_loaded(self, message: ChannelsLoaded) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        self.channels = {c["id"]: c for c in message.channels}
        for channel in message.channels:
            state = Text("● connected", "bold green") if channel["connected"] else Text("○ not connected", "dim")
            table.add_row(
                state, channel["title"], channel["channel_code"],
                "yes" if channel["is_active"] else Text("no", style="dim"),
                key=channel["id"])
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1), animate=False)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_toggle()

    def action_toggle(self) -> None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return
        self.toggling = self.channels[table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value]
        self.toggle(self.toggling)

    @work(thread=True, group="toggle")
    def toggle(self, channel: dict[str, Any]) -> None:
        engine, actor = self.app.engine, self.app.actor()
        try:
            if channel["connected"]:
                engine.channels.disconnect(actor, channel["id"], self.property_id)
                text = f"Disconnected from {channel['title']}"
            else:
                engine.channels.connect(actor, channel["id"], self.property_id)
                text = f"Connected to {channel['title']}"
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
        else:
            self.post_message(ActionDone(text))

    def on_action_done(self, message: ActionDone) -> None:
        message.stop()
        self.problems(message.text, error=False)
        self.load()

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        error = message.error
        if isinstance(error, ValidationFailed):
            lines = [f"• {label_for(field)} {text}" for field, texts in error.details.items() for text in texts]
            title = self.toggling["title"] if self.toggling else "the channel"
            self.problems("\n".join([f"Not connected to {title}:", *lines,
                                      "Fill these in with e (edit) on the property."]))
        else:
            self.problems(str(error))

    def problems(self, text: str, error: bool = True) -> None:
        panel = self.query_one("#connect-problems", Static)
        panel.update(text)
        panel.set_class(error, "-error")
        panel.set_class(not error, "-ok")
