"""Inbox: guests' conversations from every channel, newest first, beside the one being read and a reply box.

Moving through the list previews a thread; enter (or r) opens it, which marks it read and puts the
cursor in the reply box. Engine events ("message.received", "message.sent", "thread.changed") reach
the screen as DataChanged, which re-reads the list and the thread on show (see `reload`).
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Checkbox, DataTable, Input, Select, TextArea
from textual.worker import get_current_worker

from backend.errors import FrontdeskError
from backend.listing import Filter, ListQuery
from console.messages import ActionDone, ActionFailed
from console.screens.area import PAGE_BINDINGS, PAGE_SIZE, AreaScreen, FilteredArea
from console.screens.inbox_text import PROVIDERS, thread_cells
from console.widgets.conversation import Conversation

MESSAGE_PAGE = 100  # the engine's largest page
MESSAGE_PAGES = 5  # a thread shows its newest 500 messages at most


class PropertiesFound(Message):
    """The property filter's choices: the properties that have the chat application, by id."""

    def __init__(self, titles: dict[str, str]) -> None:
        super().__init__()
        self.titles = titles


class ConversationLoaded(Message):
    def __init__(self, thread: dict[str, Any], messages: list[dict[str, Any]], opened: bool) -> None:
        super().__init__()
        self.thread = thread
        self.messages = messages
        self.opened = opened


class ReplySent(Message):
    def __init__(self, thread_id: str) -> None:
        super().__init__()
        self.thread_id = thread_id


class InboxScreen(FilteredArea, AreaScreen):
    AREA = "inbox"
    NOUNS = ("conversation", "conversations")
    COLUMNS = (("", 1), ("Conversation", 40), ("Age", 6))
    ROW_HEIGHT = 2

    BINDINGS = [
        Binding("r", "open", "Reply"),
        Binding("ctrl+s", "send", "Send", priority=True),
        Binding("n", "next_unread", "Next unread"),
        Binding("c", "toggle_closed", "Close/reopen"),
        Binding("u", "toggle_unread", "Unread only"),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("f", "focus('#ib-status')", "Filters"),
        *PAGE_BINDINGS,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.filters: list[Filter] = []
        self.search = ""
        self.unread_only = False
        self.property_titles: dict[str, str] = {}
        self.first_page_shown = False

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="ib-toolbar", classes="filters"):
            yield Select([("open", "false"), ("closed", "true")], prompt="open & closed", id="ib-status",
                         compact=True)
            yield Select([(title, code) for code, title in PROVIDERS.items()], prompt="any channel",
                         id="ib-provider", compact=True)
            yield Select([], prompt="any property", id="ib-property", compact=True)
            yield Checkbox("Unread only", id="ib-unread", compact=True)
            yield Input(placeholder="guest or text (/)", id="ib-search", compact=True)
        with Horizontal(id="inbox-body"):
            yield self.make_table()
            yield Conversation()

    @property
    def conversation(self) -> Conversation:
        return self.query_one(Conversation)

    # --- the list ----------------------------------------------------------------------------

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        titles = {p["id"]: p["title"] for p in engine.chat.properties(actor)}
        self.post_message(PropertiesFound(titles))
        filters = list(self.filters)
        if self.search:
            filters.append(Filter("search", "has", self.search))
        if self.unread_only:
            filters.append(Filter("unread", "eq", "true"))
        return engine.chat.threads(actor, ListQuery(page=number, limit=PAGE_SIZE, filters=filters))

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return thread_cells(row, self.app.engine.config.clock())

    def page_shown(self) -> None:
        if not self.first_page_shown:
            self.first_page_shown = True
            self.call_after_refresh(self.app.first_page_painted)  # the start-up bench's moment
        if not self.rows:
            self.conversation.clear("No conversation matches the filters.")

    def reload(self, page: int | None = None) -> None:
        """The list, and the thread on show: a change or a return to the inbox may concern either."""
        super().reload(page)
        if self.conversation.thread:
            self.load_conversation(self.conversation.thread["id"], opened=False)

    def on_properties_found(self, message: PropertiesFound) -> None:
        titles = message.titles
        if titles == self.property_titles:
            return
        self.property_titles = titles
        select = self.query_one("#ib-property", Select)
        with select.prevent(Select.Changed):
            chosen = select.value
            select.set_options([(title, pid) for pid, title in titles.items()])
            if chosen in titles:
                select.value = chosen

    def where(self) -> str:
        found = super().where()
        shown = []
        if self.unread_only:
            shown.append("unread")
        for f in self.filters:
            if f.field == "is_closed":
                shown.append("closed" if f.value == "true" else "open")
            elif f.field == "provider":
                shown.append(PROVIDERS.get(f.value, f.value))
            elif f.field == "property_id":
                shown.append(self.property_titles.get(f.value, "one property"))
        if self.search:
            shown.append(f"containing “{self.search}”")
        return f"{found} · " + ", ".join(shown) if shown else found

    # --- filters -----------------------------------------------------------------------------

    def apply_filters(self) -> None:
        """Read the filter bar into engine filters; the list starts again at page 1."""
        filters = []
        for widget_id, field in (("#ib-status", "is_closed"), ("#ib-provider", "provider"),
                                 ("#ib-property", "property_id")):
            value = self.query_one(widget_id, Select).value
            if value is not Select.NULL:
                filters.append(Filter(field, "eq", str(value)))
        self.filters = filters
        self.search = self.query_one("#ib-search", Input).value.strip()
        self.unread_only = self.query_one("#ib-unread", Checkbox).value
        self.reload(1)

    def action_toggle_unread(self) -> None:
        self.query_one("#ib-unread", Checkbox).toggle()

    def action_search(self) -> None:
        self.query_one("#ib-search", Input).focus()

    def key_escape(self) -> None:
        if isinstance(self.focused, (Input, TextArea)):
            self.table.focus()

    def action_next_unread(self) -> None:
        """The next unread thread below the cursor on this page, from the top again after the last."""
        ids = list(self.rows)
        if not ids:
            self.app.bell()
            return
        start = self.table.cursor_row
        for step in range(1, len(ids) + 1):
            index = (start + step) % len(ids)
            if self.rows[ids[index]]["unread_count"] > 0:
                self.table.move_cursor(row=index)
                return
        self.status.news("No unread conversations on this page")

    # --- one thread --------------------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value:
            self.load_conversation(event.row_key.value, opened=False)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        if row := self.current_row():
            self.load_conversation(row["id"], opened=True)
            self.conversation.compose_box.focus()

    @work(thread=True, exclusive=True, group="conversation")
    def load_conversation(self, thread_id: str, opened: bool) -> None:
        """Read a thread and its messages; opening it marks it read first."""
        worker = get_current_worker()
        chat, actor = self.app.engine.chat, self.app.actor()
        try:
            thread = chat.mark_read(actor, thread_id) if opened else chat.thread(actor, thread_id)
            newest_first: list[dict[str, Any]] = []
            for number in range(1, MESSAGE_PAGES + 1):
                rows, meta = chat.thread_messages(actor, thread_id, ListQuery(page=number, limit=MESSAGE_PAGE))
                newest_first += rows
                if len(newest_first) >= meta["total"]:
                    break
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
            return
        # Oldest at the top; an inquiry's card comes before the guest's words sent with it.
        messages = sorted(newest_first, key=lambda m: (m["inserted_at"], m["sender"] != "system"))
        if not worker.is_cancelled:
            self.post_message(ConversationLoaded(thread, messages, opened))

    def on_conversation_loaded(self, message: ConversationLoaded) -> None:
        if message.opened or message.thread["id"] == self.current_id():
            self.conversation.show(message.thread, message.messages)

    def action_send(self) -> None:
        thread = self.conversation.thread
        if thread is None:
            self.app.bell()
            return
        self.send_reply(thread["id"], thread["title"], self.conversation.compose_box.text)

    @work(thread=True, group="action")
    def send_reply(self, thread_id: str, guest: str, text: str) -> None:
        try:
            self.app.engine.chat.reply(self.app.actor(), thread_id, {"message": text})
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
        else:
            self.post_message(ReplySent(thread_id))
            self.post_message(ActionDone(f"Reply sent to {guest}"))

    def on_reply_sent(self, message: ReplySent) -> None:
        self.conversation.sent(message.thread_id)

    def action_toggle_closed(self) -> None:
        thread = self.conversation.thread
        if thread is None:
            self.app.bell()
            return
        chat, actor, reopen = self.app.engine.chat, self.app.actor(), thread["is_closed"]

        def toggle() -> str:
            (chat.reopen if reopen else chat.close)(actor, thread["id"])
            return f"{'Reopened' if reopen else 'Closed'} the conversation with {thread['title']}"

        self.act(toggle)
