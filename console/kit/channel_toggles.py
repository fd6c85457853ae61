"""What the "channels of a property" and "channels of a rate plan" dialogs share: a table of
channels, reloaded whenever the data changes, where space or enter toggles the one under the
cursor, and a line below the table that says how the last toggle went."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.message import Message
from textual.widgets import DataTable, Static

from console.kit.messages import ActionDone, DataChanged
from console.kit.screens import ModalScreen
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp


class ChannelsLoaded(Message):
    def __init__(self, channels: list[dict[str, Any]]) -> None:
        super().__init__()
        self.channels = channels


class ChannelTogglesDialog(ModalScreen[None]):
    NEWS: ClassVar[str]  # the selector of the Static that says how the last toggle went

    app: ConsoleApp

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")
        self.channels: dict[str, dict[str, Any]] = {}
        self.toggling: dict[str, Any] | None = None  # the channel of the last toggle, for messages about it

    # --- what each dialog defines ------------------------------------------------------------

    def read(self) -> list[dict[str, Any]]:
        """The channels to list (runs in a worker)."""
        raise NotImplementedError

    def cells(self, channel: dict[str, Any]) -> tuple[Any, ...]:
        raise NotImplementedError

    def toggle(self, channel: dict[str, Any]) -> None:
        """Start the engine call that toggles this channel; it posts ActionDone or ActionFailed."""
        raise NotImplementedError

    # --- the table ---------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def on_data_changed(self, message: DataChanged) -> None:
        if message.concerns(("channel.", "property.")):
            self.load()

    @engine_work(exclusive=True, group="channels")
    def load(self) -> None:
        channels = self.read()
        post_fresh(self, ChannelsLoaded(channels))

    def on_channels_loaded(self, message: ChannelsLoaded) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear()
        self.channels = {c["id"]: c for c in message.channels}
        for channel in message.channels:
            table.add_row(*self.cells(channel), key=channel["id"])
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1), animate=False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_toggle()

    def action_toggle(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            self.toggling = self.channels[table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value]
            self.toggle(self.toggling)

    # --- how it went -------------------------------------------------------------------------

    def on_action_done(self, message: ActionDone) -> None:
        message.stop()
        self.news(message.text, error=False)
        self.load()

    def news(self, text: str, error: bool = True) -> None:
        panel = self.query_one(self.NEWS, Static)
        panel.update(text)
        panel.set_class(error, "-error")
        panel.set_class(not error, "-ok")
