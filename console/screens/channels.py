"""Channels: the OTAs and meta channels properties are sold on. Create, rename, pause, delete."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from backend.channels import SHOPPING_CODES
from backend.listing import ListQuery
from console.screens.area import PAGE_BINDINGS, PAGE_SIZE, AreaScreen, mark
from console.screens.channel_dialogs import ChannelDialog, InboundKeyDialog


def access(channel: dict[str, Any]) -> Text:
    """Shopping channels without a provider key answer anyone: say so."""
    if channel["channel"] not in SHOPPING_CODES:
        return Text("—", style="dim")
    if channel["has_provider_api_key"]:
        return Text("provider key")
    return Text("public ⚠", style="bold yellow")


class ChannelsScreen(AreaScreen):
    AREA = "channels"
    NOUNS = ("channel", "channels")
    COLUMNS = (("Title", 34), ("Type", 14), ("Properties", 10), ("Active", 6), ("Shopping access", 16))

    BINDINGS = [
        Binding("n", "new", "New"),
        Binding("e", "edit", "Edit"),
        Binding("d", "delete", "Delete"),
        *PAGE_BINDINGS,
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("Properties are connected from the Properties area (c). A shopping channel without a "
                     "provider key answers anyone.", id="channels-hint", markup=False)
        yield self.make_table()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return self.app.engine.channels.list(self.app.actor(), ListQuery(page=number, limit=PAGE_SIZE))

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        title = Text(row["title"], style="" if row["is_active"] else "dim")
        return (title, row["channel"], Text(str(len(row["properties"])), justify="right"),
                mark(row["is_active"]), access(row))

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_new(self) -> None:
        def created(channel: dict[str, Any] | None) -> None:
            if channel is not None:
                self.status.news(f"Created “{channel['title']}”")
                self.app.push_screen(InboundKeyDialog(channel["title"], channel["inbound_key"]))

        self.app.push_screen(ChannelDialog(None, self.groups()), created)

    def action_edit(self) -> None:
        def saved(channel: dict[str, Any] | None) -> None:
            if channel is not None:
                self.status.news(f"Saved “{channel['title']}”")

        if row := self.current_row():
            self.app.push_screen(ChannelDialog(row, self.groups()), saved)

    def groups(self) -> list[dict[str, Any]]:
        return self.app.engine.identity.groups(self.app.actor())

    def action_delete(self) -> None:
        row = self.current_row()
        if row is None:
            return
        count = len(row["properties"])
        detail = (f"{count} propert{'ies are' if count != 1 else 'y is'} connected to it and will no longer be "
                  "sold there. Its adapter's inbound key stops working. This can't be undone.")
        self.confirm_then_act(f"Delete channel “{row['title']}”?", detail, lambda: self.delete(row))

    def delete(self, row: dict[str, Any]) -> str:
        self.app.engine.channels.delete(self.app.actor(), row["id"])
        return f"Deleted channel “{row['title']}”"
