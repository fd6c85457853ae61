"""The channels a property is sold on: connect or disconnect it, one channel at a time. The channels
listed are those of the property's group, the only ones it can be connected to.

A channel refuses a property whose contact details are missing; the engine names each missing
field, and the dialog lists those messages so the user knows what to fill in."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, Static

from backend.core.errors import ValidationFailed
from console.kit.channel_toggles import ChannelsLoaded, ChannelTogglesDialog
from console.kit.fit_table import FitTable
from console.kit.labels import describe, label_for
from console.kit.messages import ActionDone, ActionFailed
from console.kit.workers import engine_work
from console.properties.keys import PROPERTY_CHANNELS

COLUMNS = (("Connected", 15), ("Channel", 20), ("Type", 12), ("Active", 6))
HINT = "its group's channels · space connects or disconnects · esc closes"


class PropertyChannelsDialog(ChannelTogglesDialog):
    NEWS = "#connect-problems"
    BINDINGS = PROPERTY_CHANNELS

    def __init__(self, property_id: str, title: str) -> None:
        super().__init__()
        self.property_id = property_id
        self.property_title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog -fits-short", id="property-channels-dialog"):
            yield Label(f"Channels of “{self.property_title}”", classes="dialog-title", markup=False)
            yield FitTable(COLUMNS, "Channel", cursor_type="row", id="property-channels")
            yield Static("", id="connect-problems", markup=False)

    def on_mount(self) -> None:
        """The keys in the border: at 80×24 the lines inside are for the engine's word on a refused connection.
        (The table's focus and load are the base class's mount.)"""
        self.query_one("#property-channels-dialog").border_subtitle = HINT

    def read(self) -> list[dict[str, Any]]:
        return self.app.engine.channels.for_property(self.app.actor(), self.property_id)

    def on_channels_loaded(self, message: ChannelsLoaded) -> None:
        """Said when there is none; the list itself is the base class's."""
        if not message.channels:
            self.news("No channel sells this property's group yet: add one in Channels (2) with the property's "
                      "group.", error=False)

    def cells(self, channel: dict[str, Any]) -> tuple[Any, ...]:
        state = Text("● connected", "bold green") if channel["connected"] else Text("○ not connected", "dim")
        return (state, channel["title"], channel["channel"],
                "yes" if channel["is_active"] else Text("no", style="dim"))

    @engine_work(group="toggle")
    def toggle(self, channel: dict[str, Any]) -> None:
        engine, actor = self.app.engine, self.app.actor()
        if channel["connected"]:
            engine.channels.disconnect(actor, channel["id"], self.property_id)
            text = f"Disconnected from {channel['title']}"
        else:
            engine.channels.connect(actor, channel["id"], self.property_id)
            text = f"Connected to {channel['title']}"
        self.post_message(ActionDone(text))

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        error = message.error
        if isinstance(error, ValidationFailed):
            lines = [f"• {label_for(field)} {text}" for field, texts in message.problems().items() for text in texts]
            title = self.toggling["title"] if self.toggling else "the channel"
            self.news("\n".join([f"Not connected to {title}:", *lines,
                                  "Fill these in with e (edit) on the property."]))
        else:
            self.news(describe(error))
