"""Channels: the OTAs and meta channels properties are sold on. Create, rename, pause, delete; see whether each
has the latest ARI (its sync), send it everything again, read what was sent; and the integrators' webhooks."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from backend.channels.service import SHOPPING_CODES
from backend.core.errors import Forbidden
from backend.core.listing import ListQuery
from console.channels.destinations import DestinationsArea
from console.channels.dialogs import AriSecretDialog, ChannelDialog, InboundKeyDialog
from console.channels.keys import CHANNELS
from console.channels.sync import NOUN, channel_log, sent_word
from console.channels.webhooks import WebhooksScreen
from console.channels.words import oldest_waiting, read_replicas, sync_state
from console.kit.area import PAGE_SIZE, mark
from console.kit.words import counted


def access(channel: dict[str, Any]) -> Text:
    """Shopping channels without a provider key answer anyone: say so."""
    if channel["channel"] not in SHOPPING_CODES:
        return Text("—", style="dim")
    if channel["has_provider_api_key"]:
        return Text("provider key")
    return Text("public ⚠", style="bold yellow")


class ChannelsScreen(DestinationsArea):
    # The kinds of change it shows: what waits to go moves with every ARI change and booking.
    WATCHES = ("channel.", "property.", "inventory.", "delivery.", "ari.", "booking.")
    AREA = "channels"
    NOUNS = ("channel", "channels")
    # What matters first: which channel, and whether it has the latest ARI.
    COLUMNS = (("Title", 24), ("Sync", 26), ("Active", 6), ("Properties", 10), ("Type", 12), ("Shopping access", 15))
    FLEX = "Sync"
    DROP = ("Type", "Shopping access")

    BINDINGS = CHANNELS

    def compose_body(self) -> ComposeResult:
        yield Static("Properties are connected in the Properties area (c); a shopping channel without a provider key "
                     "answers anyone. Sync: whether the channel has your latest ARI (l what was sent, f send "
                     "everything again). w: the integrators' webhooks; y copies a channel's id.",
                     id="channels-hint", markup=False)
        yield Static("", id="channels-outbox", markup=False)
        replicas = Static("", id="channels-replicas", markup=False)
        replicas.display = False  # shown only by a console whose engine reads from replicas
        yield replicas
        yield self.make_table()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        rows, meta = engine.channels.list(actor, ListQuery(page=number, limit=PAGE_SIZE))
        try:
            status = engine.outbox_status(actor)
            # The replicas' times are the real clock's, as they are watched, not the engine's.
            self.outbox, self.replicas = oldest_waiting(status), read_replicas(status["read_replicas"],
                                                                               datetime.now(UTC))
        except Forbidden:
            self.outbox, self.replicas = oldest_waiting(None), ""
        return [{**row, "sync": engine.distribution.sync_of(row)} for row in rows], meta

    def page_shown(self) -> None:
        self.query_one("#channels-outbox", Static).update(self.outbox)
        replicas = self.query_one("#channels-replicas", Static)
        replicas.update(self.replicas)
        replicas.display = bool(self.replicas)

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        title = Text(row["title"], style="" if row["is_active"] else "dim")
        sync = sync_state(row["sync"], self.app.engine.config.clock(), NOUN, sent_word(row))
        return (title, sync, mark(row["is_active"]), Text(str(len(row["properties"])), justify="right"),
                row["channel"], access(row))

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_new(self) -> None:
        def created(channel: dict[str, Any] | None) -> None:
            if channel is not None:
                self.status.news(f"Created “{channel['title']}”")
                self.app.push_screen(InboundKeyDialog(channel["title"], channel["inbound_key"]),
                                     lambda _: self.show_ari_secret(channel))

        self.app.push_screen(ChannelDialog(None, self.groups()), created)

    def action_edit(self) -> None:
        def saved(channel: dict[str, Any] | None) -> None:
            if channel is not None:
                self.status.news(f"Saved “{channel['title']}”")
                self.show_ari_secret(channel)

        if row := self.current_row():
            self.app.push_screen(ChannelDialog(row, self.groups()), saved)

    def show_ari_secret(self, channel: dict[str, Any]) -> None:
        """The answer that first turns a channel to push carries its signing secret, this once."""
        if "ari_secret" in channel:
            self.app.push_screen(AriSecretDialog(channel["title"], channel["ari_secret"]))

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

    # --- sync ----------------------------------------------------------------------------------

    def syncing_row(self) -> dict[str, Any] | None:
        """The channel under the cursor, if it gets ARI; else the status line says why nothing happens."""
        row = self.current_row()
        if row is not None and row["sync"] is None:
            self.status.news(f"“{row['title']}” gets no ARI: choose push or pull in its dialog (e) first",
                             error=True)
            return None
        return row

    def action_full_sync(self) -> None:
        if row := self.syncing_row():
            detail = ("Every mapped room type and rate plan, over each property's whole window, is queued for it, "
                      "as after connecting it or after it was down. A failing channel is tried again.")
            self.confirm_then_act(f"Send all ARI to “{row['title']}”?", detail, lambda: self.full_sync(row),
                                  confirm="Full sync")

    def full_sync(self, row: dict[str, Any]) -> str:
        queued = self.app.engine.distribution.full_sync(self.app.actor(), row["id"])
        return f"Full sync of “{row['title']}”: {counted(queued, 'range')} queued"

    def action_resume(self) -> None:
        if row := self.syncing_row():
            self.resume_failing(f"“{row['title']}”", row["sync"],
                                lambda: self.app.engine.distribution.resume(self.app.actor(), row["id"]))

    def action_log(self) -> None:
        if row := self.current_row():
            self.show_log(f"Sync of “{row['title']}”", channel_log, row["id"])

    def action_copy_id(self) -> None:
        """The channel's id, which its adapter and the API name it by, to the clipboard (the terminal's, over SSH too)."""
        if row := self.current_row():
            self.app.copy_to_clipboard(row["id"])
            self.status.news(f"Copied the id of “{row['title']}” to the clipboard: {row['id']}")

    def action_webhooks(self) -> None:
        self.app.push_screen(WebhooksScreen())
