"""The channels a rate plan is sold on: of the channels its property is connected to, map or unmap
the plan one channel at a time."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Label, Static

from backend.channels.service import mapped_plan_ids
from console.inventory.keys import RATE_PLAN_CHANNELS
from console.kit.channel_toggles import ChannelTogglesDialog
from console.kit.labels import describe
from console.kit.messages import ActionDone, ActionFailed
from console.kit.workers import engine_work


class RatePlanChannelsDialog(ChannelTogglesDialog):
    NEWS = "#plan-channels-news"
    BINDINGS = RATE_PLAN_CHANNELS

    def __init__(self, plan: dict[str, Any]) -> None:
        super().__init__()
        self.plan = plan

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog"):
            yield Label(f"Channels selling “{self.plan['title']}”", classes="dialog-title", markup=False)
            table = DataTable(cursor_type="row", id="plan-channels")
            table.add_columns("Sold", "Channel", "Type")
            yield table
            yield Static("", id="plan-channels-news", markup=False)
            yield Static("Channels the property is connected to · space or enter maps or unmaps · esc closes",
                         classes="dialog-hint", markup=False)

    def read(self) -> list[dict[str, Any]]:
        channels = self.app.engine.channels.for_property(self.app.actor(), self.plan["property_id"])
        return [c for c in channels if c["connected"]]

    def cells(self, channel: dict[str, Any]) -> tuple[Any, ...]:
        mapped = self.plan["id"] in mapped_plan_ids(channel)
        return (Text("● mapped", "bold green") if mapped else Text("○ not mapped", "dim"), channel["title"],
                channel["channel"])

    @engine_work(group="toggle")
    def toggle(self, channel: dict[str, Any]) -> None:
        mapped = self.plan["id"] not in mapped_plan_ids(channel)
        self.app.engine.channels.map_rate_plan(self.app.actor(), channel["id"], self.plan["id"], mapped)
        self.post_message(ActionDone(f"{'Mapped to' if mapped else 'Unmapped from'} {channel['title']}"))

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        self.news(describe(message.error))
