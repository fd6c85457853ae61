"""Properties: a paged, searchable list of every property the operator sees, and what to do with one."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import DataTable, Input, Label

from backend.core.listing import Filter, ListQuery
from backend.identity.models import Actor
from console.kit.area import PAGE_SIZE, AreaScreen, mark
from console.properties.channels_dialog import PropertyChannelsDialog
from console.properties.keys import PROPERTIES

SEARCH_DELAY = 0.3  # seconds of quiet typing before the list is searched


class PropertiesScreen(AreaScreen):
    WATCHES = ("property.", "channel.", "inventory.", "user.")
    AREA = "properties"
    NOUNS = ("property", "properties")
    COLUMNS = (("Title", 26), ("Type", 13), ("City", 20), ("Country", 7), ("Currency", 8), ("Channels", 8),
               ("Chat", 4), ("Active", 6))
    FLEX = ("Title", "City")
    # At 80 columns: which property, where, and whether it sells and chats.
    DROP = ("Type", "Currency", "Country", "City")

    BINDINGS = PROPERTIES

    def __init__(self) -> None:
        super().__init__()
        self.search = ""
        self.search_timer: Timer | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="toolbar"):
            yield Label("Search", id="search-label")
            yield Input(placeholder="title contains…  ( / )", id="search", compact=True)
        yield self.make_table()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        filters = [Filter("title", "has", self.search)] if self.search else []
        rows, meta = engine.properties.list(actor, ListQuery(page=number, limit=PAGE_SIZE, filters=filters))
        chat = self.with_chat(actor, [row["id"] for row in rows])
        return [{**row, "chat": row["id"] in chat} for row in rows], meta

    def with_chat(self, actor: Actor, ids: list[str]) -> set[str]:
        """Which of these properties have the chat app, in one query for the whole page."""
        if not ids:
            return set()
        query = ListQuery(limit=PAGE_SIZE, filters=[Filter("property_id", "eq", ",".join(ids)),
                                                    Filter("application_code", "eq", "chat")])
        installed, _ = self.app.engine.applications.installed(actor, query)
        return {row["property_id"] for row in installed}

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        title = Text(row["title"], style="" if row["is_active"] else "dim")
        return (title, (row["property_type"] or "").replace("_", " "), row["city"] or "", row["country"] or "",
                row["currency"], Text(str(row["acc_cannels_count"]), justify="right"), mark(row["chat"]),
                mark(row["is_active"]))

    def where(self) -> str:
        found = super().where()
        return f"{found} · title contains “{self.search}”" if self.search else found

    # --- search ------------------------------------------------------------------------------

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "search":
            return
        if self.search_timer is not None:
            self.search_timer.stop()
        self.search_timer = self.set_timer(SEARCH_DELAY, lambda: self.apply_search(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":
            if self.search_timer is not None:
                self.search_timer.stop()
            self.apply_search(event.value)
            self.table.focus()

    def apply_search(self, text: str) -> None:
        if text.strip() != self.search:
            self.search = text.strip()
            self.restart()

    def key_escape(self) -> None:
        if self.focused is self.query_one("#search", Input):
            self.table.focus()

    # --- acting on the selected property -----------------------------------------------------

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_new(self) -> None:
        self.app.open_property_editor(None)

    def action_edit(self) -> None:
        if row := self.current_row():
            self.app.open_property_editor(row["id"])

    def action_delete(self) -> None:
        row = self.current_row()
        if row is None:
            return
        self.confirm_then_act(f"Delete “{row['title']}”?",
                              "Its channel connections and chat app go with it. This can't be undone.",
                              lambda: self.delete(row))

    def delete(self, row: dict[str, Any]) -> str:
        self.app.engine.properties.delete(self.app.actor(), row["id"])
        return f"Deleted “{row['title']}”"

    def action_channels(self) -> None:
        if row := self.current_row():
            self.app.push_screen(PropertyChannelsDialog(row["id"], row["title"]))

    def action_toggle_chat(self) -> None:
        if row := self.current_row():
            self.act(lambda: self.toggle_chat(row))

    def toggle_chat(self, row: dict[str, Any]) -> str:
        # Read the state afresh: the row may be older than a toggle still in flight.
        on = not self.app.engine.applications.is_installed(row["id"], "chat")
        self.app.engine.applications.set_installed(self.app.actor(), row["id"], "chat", on)
        return f"Chat app {'installed on' if on else 'removed from'} “{row['title']}”"
