"""Inbox: guests' conversations from every channel, newest first, beside the one being read and a reply box.

Moving through the list previews a thread; enter (or r) opens it, which marks it read and puts the
cursor in the reply box. While it stays open, a guest message arriving in it is read at once. Changes
reach the screen as DataChanged: one about a thread ("message.received", "message.sent", "thread.changed",
which name it) re-reads that thread's row, moved as the list's order says, and the conversation only when it
is the one shown (see `thread_changed`); any other re-reads the list and the thread on show (`reload`). The
list holds still meanwhile (thread_list.py), and what is typed in the reply box stays.

The guest's stay shows beside the conversation (stay_panel.py). The layout follows the width: under 100
columns the list takes the whole width and enter opens the conversation in its place (esc goes back);
from 100 the two sit side by side with the stay above the conversation; from 160 the stay has a column
of its own.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from backend.chat.placeholders import placeholders_in
from backend.core.errors import FrontdeskError
from backend.core.listing import Filter, ListQuery
from console.inbox.assign import AssignDialog, Assignment
from console.inbox.conversation import Conversation
from console.inbox.files import AttachDialog, SaveDialog, default_folder, saved_text
from console.inbox.keys import INBOX
from console.inbox.notes import as_item, with_notes
from console.inbox.saved_replies import SavedRepliesScreen
from console.inbox.stay_panel import StayLoaded, StayPanel
from console.inbox.text import named, queued_text, thread_cells, whose_message
from console.inbox.thread_list import ThreadList
from console.kit.area import PAGE_SIZE, AreaScreen, FilteredArea, PropertiesFound
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog, Unsent
from console.kit.messages import ActionDone, DataChanged
from console.kit.reply_picker import ReplyPicker
from console.kit.toggles import Checkbox
from console.kit.words import CHANNELS, channel, counted, listed, when
from console.kit.workers import engine_work, post_fresh

MESSAGE_PAGE = 100  # the engine's largest page
MESSAGE_PAGES = 5  # a thread shows its newest 500 messages, and `o` 500 older ones at a time
RECEIVED = "last_message_received_at"
AGE_COLUMN = 3
AGE_TICK = 30.0  # seconds between updates of the list's ages
# The filter bar's "whose" choice, which `m` goes round: the engine's filter, and what the choice and status line say.
ASSIGNED = {None: None, "mine": Filter("assignee_id", "eq", "me"), "unassigned": Filter("is_assigned", "eq", "false")}
WHOSE = (("mine", "mine"), ("nobody's", "unassigned"))
OPEN = Filter("is_closed", "eq", "false")  # what staff want first: the conversations still to answer


def inbox_order(thread: dict[str, Any]) -> tuple[str, str]:
    """Where a thread comes in the list, newest last: the engine's order (backend/chat/store.py threads_page)."""
    return thread[RECEIVED] or "", thread["id"]


class ConversationLoaded(Message):
    def __init__(self, thread: dict[str, Any], messages: list[dict[str, Any]], total: int, opened: bool) -> None:
        super().__init__()
        self.thread = thread
        self.messages = messages
        self.total = total
        self.opened = opened


class RowsLoaded(Message):
    """The rows of the threads changes were about, read again under the list's filters: those that no longer match
    them are missing."""

    def __init__(self, ids: frozenset[str], rows: list[dict[str, Any]]) -> None:
        super().__init__()
        self.ids = ids
        self.rows = rows


class UnreadFound(Message):
    """The next unread thread beyond the page shown, and the page of the list it is on (None: there is none)."""

    def __init__(self, thread_id: str | None, page: int) -> None:
        super().__init__()
        self.thread_id = thread_id
        self.page = page


class ReplySent(Message):
    def __init__(self, thread_id: str) -> None:
        super().__init__()
        self.thread_id = thread_id


class ReplyRefused(Message):
    """The engine refused a reply: its text goes back to the thread's box."""

    def __init__(self, thread_id: str, text: str, attachment: dict[str, Any] | None) -> None:
        super().__init__()
        self.thread_id = thread_id
        self.text = text
        self.attachment = attachment


class NoteSaved(Message):
    def __init__(self, thread_id: str) -> None:
        super().__init__()
        self.thread_id = thread_id


class RepliesFound(Message):
    """The saved replies of a thread, filled in for it: the picker opens on them."""

    def __init__(self, guest: str, templates: list[dict[str, Any]]) -> None:
        super().__init__()
        self.guest = guest
        self.templates = templates


class AssigneesFound(Message):
    """Whom a thread may go to, and who you are: the assignment picker opens on them."""

    def __init__(self, thread: dict[str, Any], users: list[dict[str, Any]], me: str) -> None:
        super().__init__()
        self.thread = thread
        self.users = users
        self.me = me


class ThreadLocated(Message):
    """The page of the list a thread is on, and whether the filters had to be cleared to show it."""

    def __init__(self, thread_id: str, page: int, cleared: bool) -> None:
        super().__init__()
        self.thread_id = thread_id
        self.page = page
        self.cleared = cleared


class InboxScreen(FilteredArea, AreaScreen):
    # The kinds of change it shows: threads, their stays, properties, assignees, saved replies.
    WATCHES = ("message.", "thread.", "booking.", "property.", "user.", "saved_reply.")
    STAY_WATCHES = ("ari.", "inventory.")  # what moves the stay panel's offer alone, not the list
    AREA = "inbox"
    NOUNS = ("conversation", "conversations")
    COLUMNS = (("", 1), ("Conversation", 31), ("Assignee", 8), ("Age", 5))
    DROP = ("Assignee",)  # hidden only where nothing else is left to give way (under 60 columns)
    FLEX = "Conversation"
    ROW_HEIGHT = 2

    BINDINGS = INBOX

    def __init__(self) -> None:
        super().__init__()
        self.filters: list[Filter] = [OPEN]
        self.search = ""
        self.unread_only = False
        self.assigned: str | None = None  # a key of ASSIGNED
        self.opened_id: str | None = None  # the thread opened with enter, while it is the one shown
        self.pages: tuple[str | None, int] = (None, MESSAGE_PAGES)  # a thread and how many pages it shows
        self.cursor_target: str | None = None  # the thread to put the cursor on when its page arrives
        self.footer_keys: tuple[bool, ...] = ()  # what the footer was last refreshed for
        self.open_target: str | None = None  # the thread to open once the cursor is on it (from a booking's page)
        self.reply_waits = False  # opened before the reply box could take the focus
        self.filled: tuple[int, str] | None = None  # the page and filters the list last showed
        self.reader = ""  # the user the console acts as: "You" in the list and the conversation
        # Replies taken from the box, sent one at a time in the order written: (thread id, guest, text, file id).
        self.outgoing: list[tuple[str, str, str, dict[str, Any] | None]] = []
        self.sending = False
        self.stale: set[str] = set()  # threads that changes were about, whose rows are being read again

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="ib-toolbar", classes="filters"):
            yield Choice([("open", "false"), ("closed", "true")], "false", prompt="open & closed", id="ib-status")
            yield Choice(WHOSE, prompt="everyone's", id="ib-assigned")
            yield Choice([(title, code) for code, title in CHANNELS.items()], prompt="any channel", id="ib-provider")
            yield self.make_property_filter("ib-property")
            yield Checkbox("Unread", id="ib-unread", compact=True)
            yield Input(placeholder="guest or text (/)", id="ib-search", compact=True)
        with Horizontal(id="inbox-body"):
            with Vertical(id="ib-list-pane"):
                yield self.make_table()
                yield Static("", id="new-above", markup=False)  # over the list's header, so that no row moves
            with Vertical(id="reading"):
                yield StayPanel()
                yield Conversation()

    def make_table(self) -> ThreadList:
        return ThreadList(self.COLUMNS, self.FLEX, self.DROP, row_height=self.ROW_HEIGHT, cursor_type="row",
                          zebra_stripes=True, id="list")

    @property
    def table(self) -> ThreadList:
        return self.query_one("#list", ThreadList)

    @property
    def conversation(self) -> Conversation:
        return self.query_one(Conversation)

    @property
    def stay(self) -> StayPanel:
        return self.query_one(StayPanel)

    def on_descendant_focus(self, _: events.DescendantFocus) -> None:
        """Under 100 columns the conversation takes the list's place while the focus is in it."""
        reading = self.focused is not None and self.query_one("#reading") in self.focused.ancestors_with_self
        if reading != self.has_class("-reading"):
            self.set_class(reading, "-reading")
            self.refresh_bindings()

    # --- the list ----------------------------------------------------------------------------

    def list_filters(self) -> list[Filter]:
        """The engine's filters for what the list shows."""
        filters = list(self.filters)
        if self.search:
            filters.append(Filter("search", "has", self.search))
        if self.unread_only:
            filters.append(Filter("unread", "eq", "true"))
        if self.assigned:
            filters.append(ASSIGNED[self.assigned])
        return filters

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        self.reader = actor.user_id
        # The property filter's choices: the properties that have the chat application.
        titles = {p["id"]: p["title"] for p in engine.chat.properties(actor)}
        self.post_message(PropertiesFound(titles))
        return engine.chat.threads(actor, ListQuery(page=number, limit=PAGE_SIZE, filters=self.list_filters()))

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return thread_cells(row, self.app.engine.config.clock(), self.reader)

    def on_mount(self) -> None:
        # AreaScreen's own on_mount runs too (Textual calls each class's handler): calling it here loaded the
        # first page twice.
        self.set_interval(AGE_TICK, self.tick_ages)

    def tick_ages(self) -> None:
        """Ages follow the clock while nothing changes: an hour later, "now" reads "1h"."""
        now, table = self.app.engine.config.clock(), self.table
        for index, row in enumerate(self.rows.values()):  # fill_table added them in this order
            table.update_cell_at(Coordinate(index, AGE_COLUMN), thread_cells(row, now, self.reader)[AGE_COLUMN])

    def fill_table(self) -> None:
        """A refresh of the same page and filters holds the list still; anything else starts it afresh."""
        table, shown = self.table, (self.page.number, repr(self.list_filters()))
        before = table.place()
        live = shown == self.filled and not self.from_top
        super().fill_table()
        self.filled = shown
        if live:
            table.hold(before)
        else:
            table.forget()

    def on_thread_list_new_above(self, message: ThreadList.NewAbove) -> None:
        marker = self.query_one("#new-above", Static)
        marker.update(f"↑ {counted(message.count, 'new conversation')} above · Home")
        marker.display = message.count > 0

    def page_shown(self) -> None:
        if self.cursor_target in self.rows:
            self.table.move_cursor(row=self.table.get_row_index(self.cursor_target))
            if self.open_target == self.cursor_target:
                self.action_open()
        self.cursor_target = self.open_target = None
        if not self.rows:
            self.opened_id = None
            self.conversation.clear("No conversation matches the filters.")
            self.stay.follow(None)
        self.update_footer()

    def on_data_changed(self, message: DataChanged) -> None:
        message.prevent_default()  # AreaScreen's handler would reload all for a change of one thread
        if message.concerns(self.WATCHES):
            if message.subject and message.kind.startswith(("message.", "thread.")):
                self.thread_changed(message.subject)
            else:
                self.reload()
        elif message.concerns(self.STAY_WATCHES):
            self.stay.follow(self.conversation.thread)

    def on_screen_resume(self) -> None:
        if self.app.changed_since(self.seen_generation, self.STAY_WATCHES):
            self.stay.follow(self.conversation.thread)
        super().on_screen_resume()

    def reload(self, page: int | None = None) -> None:
        """The list, and the thread on show: a change or a return to the inbox may concern either."""
        super().reload(page)
        if self.conversation.thread:
            self.load(self.conversation.thread["id"])

    def thread_changed(self, thread_id: str) -> None:
        """A change about one thread: its row, and its conversation if shown. A search's list, in its own order
        (relevance), is read again whole."""
        self.seen_generation = self.app.generation
        if (shown := self.conversation.thread) and shown["id"] == thread_id:
            self.load(thread_id)
        if self.search:
            super().reload()
            return
        self.stale.add(thread_id)
        if len(self.stale) > PAGE_SIZE:  # a burst over many threads: the page, at once
            self.stale.clear()
            super().reload()
        else:
            self.fetch_rows(frozenset(self.stale), self.list_filters())

    @engine_work(exclusive=True, group="rows")
    def fetch_rows(self, ids: frozenset[str], filters: list[Filter]) -> None:
        """The rows of `ids` that the list's filters still show (a newer read, of every stale id, replaces this)."""
        rows, _ = self.app.engine.chat.threads(self.app.actor(), ListQuery(
            limit=len(ids), filters=[*filters, Filter("id", "eq", ",".join(sorted(ids)))]))
        post_fresh(self, RowsLoaded(ids, rows))

    def on_rows_loaded(self, message: RowsLoaded) -> None:
        """Each row in its place: changed where it is, or the list refilled (holding still) when the order moved it.
        A row that comes into the page or leaves it, or moves past the page's ends, changes the page: read again."""
        self.stale -= message.ids
        found = {row["id"]: row for row in message.rows}
        if any((thread_id in self.rows) != (thread_id in found) for thread_id in message.ids):
            super().reload()
            return
        if not found:
            return  # threads the list does not show, before or after
        others = [inbox_order(row) for row_id, row in self.rows.items() if row_id not in found]
        newest, oldest = max(map(inbox_order, found.values())), min(map(inbox_order, found.values()))
        page = self.page
        if (page.number > 1 and (not others or newest > max(others))
                or page.number < page.count and (not others or oldest < min(others))):
            super().reload()  # it belongs to another page now
            return
        rows = sorted({**self.rows, **found}.values(), key=inbox_order, reverse=True)
        if [row["id"] for row in rows] == list(self.rows):
            self.rows.update(found)
            for thread_id, row in found.items():
                self.table.update_row(thread_id, self.cells(row))
        else:
            self.rows = {row["id"]: row for row in rows}
            self.fill_table()
        self.page = replace(page, rows=rows)
        self.update_footer()

    def where(self) -> str:
        found = super().where()
        shown = []
        if self.unread_only:
            shown.append("unread")
        if self.assigned:
            shown.append(next(label for label, value in WHOSE if value == self.assigned))
        for f in self.filters:
            if f.field == "is_closed":
                shown.append("closed" if f.value == "true" else "open")
            elif f.field == "provider":
                shown.append(channel(f.value))
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
            value = self.query_one(widget_id, Choice).value
            if value is not None:
                filters.append(Filter(field, "eq", str(value)))
        self.filters = filters
        self.search = self.query_one("#ib-search", Input).value.strip()
        self.unread_only = self.query_one("#ib-unread", Checkbox).value
        self.assigned = self.query_one("#ib-assigned", Choice).value
        self.restart()

    def action_toggle_unread(self) -> None:
        self.query_one("#ib-unread", Checkbox).toggle()

    def action_search(self) -> None:
        self.query_one("#ib-search", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that would do nothing now stay out of the footer."""
        if not self.is_mounted:
            return True
        conversation = self.conversation
        writing = self.focused is conversation.compose_box
        thread = conversation.thread
        reading = not self.has_class("-narrow") or self.has_class("-reading")  # the conversation is on screen
        shown = {"back": not self.table.has_focus, "send": writing, "attach": writing, "saved_reply": writing,
                 "note": writing,
                 "save_files": not writing and conversation.with_files(None) is not None,
                 "older": not writing and conversation.older > 0, "page": self.page.count > 1,
                 "open_booking": reading and not writing and bool(thread and thread["booking_id"]),
                 "toggle_stay": reading and not writing and self.stay.stay is not None}
        return shown.get(action, True)

    def update_footer(self) -> None:
        """Refresh the footer when a key of `check_action` comes or goes, and only then: it rebuilds
        itself on every refresh, which would cost more than the rest of a switch between threads."""
        conversation, thread = self.conversation, self.conversation.thread
        keys = (self.page.count > 1, conversation.with_files(None) is not None, conversation.older > 0,
                bool(thread and thread["booking_id"]), self.stay.stay is not None)
        if keys != self.footer_keys:
            self.footer_keys = keys
            self.refresh_bindings()

    def action_back(self) -> None:
        """Back to the list; under 100 columns, from the reply box to the conversation first (where i, b and g
        work), as the list is not on screen."""
        if self.has_class("-narrow") and self.focused is self.conversation.compose_box:
            self.conversation.box.focus()
        else:
            self.table.focus()

    def action_conversation_edge(self, edge: str) -> None:
        box = self.conversation.box
        if edge == "home":
            box.scroll_home(animate=False)
        else:
            box.scroll_end(animate=False)

    def action_toggle_stay(self) -> None:
        """Under 100 columns the stay is hidden until asked for; wider, it shows until hidden. The conversation
        keeps its newest message in view if it showed it."""
        box = self.conversation.box
        at_end = box.is_vertical_scroll_end
        self.toggle_class("-stay-on" if self.has_class("-narrow") else "-stay-off")
        if at_end:
            box.call_after_refresh(box.scroll_end, animate=False)

    def action_open_booking(self) -> None:
        thread = self.conversation.thread
        if thread is None or not thread["booking_id"]:
            self.app.bell()
            return
        self.app.open_booking(thread["booking_id"])

    def show_thread(self, thread_id: str) -> None:
        """Select and open a thread (from a booking's page): on its page of the list as filtered, else of the
        whole list, the filters cleared."""
        self.locate(thread_id, self.list_filters())

    @engine_work(exclusive=True, group="locate")
    def locate(self, thread_id: str, filters: list[Filter]) -> None:
        chat, actor = self.app.engine.chat, self.app.actor()
        thread = chat.thread(actor, thread_id)
        _, matching = chat.threads(actor, ListQuery(limit=1, filters=[*filters, Filter("id", "eq", thread_id)]))
        newer = Filter(RECEIVED, "gt", thread[RECEIVED])
        cleared = matching["total"] == 0
        if not cleared:
            _, before = chat.threads(actor, ListQuery(limit=1, filters=[*filters, newer]))
            cleared = before.get("total_at_least", False)  # deep in a search too common to count: the whole list
        if cleared:
            _, before = chat.threads(actor, ListQuery(limit=1, filters=[newer]))
        self.post_message(ThreadLocated(thread_id, before["total"] // PAGE_SIZE + 1, cleared))

    def on_thread_located(self, message: ThreadLocated) -> None:
        if message.cleared:
            self.clear_filters()
        self.cursor_target = self.open_target = message.thread_id
        self.reload(message.page)

    def clear_filters(self) -> None:
        """The filter bar back to showing everything, without applying it: the caller reloads."""
        for choice in self.query("#ib-toolbar Choice").results(Choice):
            with choice.prevent(Choice.Changed):
                choice.clear()
        unread = self.query_one("#ib-unread", Checkbox)
        with unread.prevent(Checkbox.Changed):
            unread.value = False
        self.query_one("#ib-search", Input).value = ""
        self.filters, self.search, self.unread_only, self.assigned = [], "", False, None

    def action_next_unread(self) -> None:
        """The next unread thread below the cursor; past this page, the engine finds it and its page,
        and after the last one the first again."""
        ids = list(self.rows)
        for row_id in ids[self.table.cursor_row + 1:]:
            if self.rows[row_id]["unread_count"] > 0:
                self.table.move_cursor(row=self.table.get_row_index(row_id))
                return
        last = self.rows[ids[-1]][RECEIVED] if ids else None
        ties = frozenset(row_id for row_id, row in self.rows.items() if last and row[RECEIVED] == last)
        self.find_unread(self.list_filters(), last, ties)

    @engine_work(exclusive=True, group="unread")
    def find_unread(self, filters: list[Filter], last: str | None, ties: frozenset[str]) -> None:
        """The first unread thread of the list after `last` (the page's last row's time; the page's rows
        of that very time are `ties`), else the first of all; then its page, from how many come before it."""
        chat, actor = self.app.engine.chat, self.app.actor()
        unread = [*filters, Filter("unread", "eq", "true")]
        found = None
        if last:
            rows, _ = chat.threads(actor, ListQuery(limit=len(ties) + 1,
                                                    filters=[*unread, Filter(RECEIVED, "lte", last)]))
            found = next((row for row in rows if row["id"] not in ties), None)
        if found is None:
            rows, _ = chat.threads(actor, ListQuery(limit=1, filters=unread))
            found = rows[0] if rows else None
        if found is None:
            self.post_message(UnreadFound(None, 0))
            return
        _, before = chat.threads(actor, ListQuery(limit=1, filters=[*filters,
                                                                    Filter(RECEIVED, "gt", found[RECEIVED])]))
        self.post_message(UnreadFound(found["id"], before["total"] // PAGE_SIZE + 1))

    def on_unread_found(self, message: UnreadFound) -> None:
        if message.thread_id is None:
            self.status.news("No unread conversations")
        elif message.thread_id in self.rows:
            self.table.move_cursor(row=self.table.get_row_index(message.thread_id))
        else:
            self.cursor_target = message.thread_id
            self.reload(message.page)

    # --- one thread --------------------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Another thread under the cursor is previewed. Not read: the thread shown, highlighted again by a refill
        of the list that moved its row, nor a row the cursor has left since (a refill highlights its first row on
        the way to the cursor's)."""
        shown, row_id = self.conversation.thread, event.row_key.value
        if row_id and row_id == self.current_id() and not (shown and shown["id"] == row_id):
            self.load(row_id)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        if row := self.current_row():
            self.opened_id = row["id"]
            self.load(row["id"])
            box = self.conversation.compose_box
            # Before any conversation is shown the reply box is disabled, and takes no focus: it does once one is.
            self.reply_waits = box.disabled
            box.focus()

    def load(self, thread_id: str) -> None:
        """(Re)read a thread: as many pages as it shows, and read at once while it is the opened one."""
        thread, pages = self.pages
        self.load_conversation(thread_id, opened=thread_id == self.opened_id,
                               pages=pages if thread == thread_id else MESSAGE_PAGES)

    @engine_work(exclusive=True, group="conversation")
    def load_conversation(self, thread_id: str, opened: bool, pages: int) -> None:
        """Read a thread and its newest `pages` pages of messages; the opened thread is marked read."""
        chat, actor = self.app.engine.chat, self.app.actor()
        thread = chat.thread(actor, thread_id)
        if opened and thread["unread_count"]:
            thread = chat.mark_read(actor, thread_id)
        newest_first: list[dict[str, Any]] = []
        for number in range(1, pages + 1):
            rows, meta = chat.thread_messages(actor, thread_id, ListQuery(page=number, limit=MESSAGE_PAGE))
            newest_first += rows
            if len(newest_first) >= meta["total"]:
                break
        # Oldest at the top, staff's notes among them; an inquiry's card comes before the guest's words sent with it.
        notes, _ = self.app.engine.notes.list(actor, thread_id, ListQuery(limit=MESSAGE_PAGE))
        messages = with_notes(named(newest_first, actor.user_id), [as_item(note, actor.user_id) for note in reversed(notes)],
                              older=len(newest_first) < meta["total"])
        post_fresh(self, ConversationLoaded(thread, messages, meta["total"], opened))

    def on_conversation_loaded(self, message: ConversationLoaded) -> None:
        thread_id = message.thread["id"]
        if message.opened or thread_id == self.current_id():
            self.conversation.show(message.thread, message.messages, message.total)
            self.stay.follow(message.thread)
            if self.reply_waits and message.opened:
                self.reply_waits = False
                self.conversation.compose_box.focus()
            if thread_id != self.opened_id:
                self.opened_id = None  # another thread is shown: the opened one is closed
            if self.pages[0] != thread_id:
                self.pages = (thread_id, MESSAGE_PAGES)
            self.update_footer()

    def on_stay_loaded(self, _: StayLoaded) -> None:
        """After the panel has shown it (the message bubbles up from there): `i` and `b` come and go with a stay."""
        self.update_footer()

    def action_older(self) -> None:
        """Another 500 older messages above those shown; the view stays on the message being read."""
        thread = self.conversation.thread
        if thread is None or not self.conversation.older:
            self.app.bell()
            return
        self.pages = (thread["id"], self.pages[1] + MESSAGE_PAGES)
        self.load(thread["id"])

    def action_send(self) -> None:
        thread = self.conversation.thread
        if thread is None:
            self.app.bell()
            return
        if self.conversation.writing_note:
            self.save_note(thread["id"], thread["title"], self.conversation.compose_box.text)
            return
        if unfilled := placeholders_in(self.conversation.compose_box.text):
            self.ask_unfilled(unfilled)
            return
        self.queue_reply()

    def queue_reply(self) -> None:
        thread = self.conversation.thread
        if thread is None:
            return
        # The text leaves the box at once, so that what is typed next is the next reply; on refusal it comes back.
        text, attachment = self.conversation.take(thread["id"])
        self.outgoing.append((thread["id"], thread["title"], text, attachment))
        self.send_next()

    def ask_unfilled(self, names: list[str]) -> None:
        """A placeholder left in a reply (nothing filled it, or it was typed) would reach the guest as written."""
        box = self.conversation.compose_box
        shown = listed([f"{{{name}}}" for name in names])

        def answered(send: bool | None) -> None:
            if send:
                self.queue_reply()
            box.focus()

        self.app.push_screen(ConfirmDialog(
            f"Send with {shown} in it?",
            f"The guest would read {shown} just as it is written: nothing fills it for this conversation. "
            "Cancel, and write what it stands for.", confirm="Send anyway"), answered)

    def send_next(self) -> None:
        if self.outgoing and not self.sending:
            self.sending = True
            self.send_reply(*self.outgoing.pop(0))

    @engine_work(group="action")
    def send_reply(self, thread_id: str, guest: str, text: str, attachment: dict[str, Any] | None) -> None:
        body = {"message": text, **({"attachment_id": attachment["id"]} if attachment else {})}
        chat, actor = self.app.engine.chat, self.app.actor()
        try:
            chat.reply(actor, thread_id, body)
        except FrontdeskError:
            self.post_message(ReplyRefused(thread_id, text, attachment))
            raise
        self.post_message(ReplySent(thread_id))
        self.post_message(ActionDone(queued_text(guest, chat.thread(actor, thread_id)["provider"])))

    def unsent(self) -> list[Unsent]:
        """The replies and notes written and not sent: drafts, and replies still waiting their turn to send."""
        held = self.conversation.unsent()
        held.update({thread_id: Unsent(guest, "reply") for thread_id, guest, _, _ in self.outgoing})
        return list(held.values())

    def keep_drafts(self) -> None:
        """The console quits: replies not yet sent go back to their boxes, and every draft is saved."""
        for thread_id, _, text, attachment in self.outgoing:
            self.conversation.give_back(thread_id, text, attachment)
        self.outgoing.clear()
        self.conversation.keep_drafts()

    def on_reply_sent(self, message: ReplySent) -> None:
        self.sending = False
        self.send_next()

    def on_reply_refused(self, message: ReplyRefused) -> None:
        self.sending = False
        self.conversation.give_back(message.thread_id, message.text, message.attachment)
        self.send_next()

    def on_note_saved(self, message: NoteSaved) -> None:
        self.conversation.noted(message.thread_id)

    # --- notes, saved replies, assignment, unread --------------------------------------------

    def action_note(self) -> None:
        """The reply box writes an internal note (or a reply again)."""
        self.conversation.write_note(not self.conversation.writing_note)

    @engine_work(group="action")
    def save_note(self, thread_id: str, guest: str, text: str) -> None:
        self.app.engine.notes.add(self.app.actor(), thread_id, {"message": text})
        self.post_message(NoteSaved(thread_id))
        self.post_message(ActionDone(f"Note saved on the conversation with {guest}: only staff see it"))

    def action_saved_reply(self) -> None:
        if thread := self.conversation.thread:
            self.find_replies(thread["id"], thread["title"])

    @engine_work(exclusive=True, group="replies")
    def find_replies(self, thread_id: str, guest: str) -> None:
        templates = self.app.engine.message_templates.for_thread(self.app.actor(), thread_id)
        post_fresh(self, RepliesFound(guest, templates))

    def on_replies_found(self, message: RepliesFound) -> None:
        box = self.conversation.compose_box

        def chosen(text: str | None) -> None:
            if text:
                box.insert(text)
            box.focus()

        self.app.push_screen(ReplyPicker(message.guest, message.templates), chosen)

    def action_saved_replies(self) -> None:
        thread = self.conversation.thread
        self.app.push_screen(SavedRepliesScreen(thread["property_id"] if thread else None))

    def action_message_rules(self) -> None:
        shown = self.query(Conversation)  # none yet when the palette opens the rules on the inbox's first visit
        thread = shown.first().thread if shown else None
        self.app.open_message_rules(thread["property_id"] if thread else None)

    def action_assigned(self) -> None:
        """Whose threads the list shows: everyone's, then yours, then nobody's (the filter bar's choice)."""
        order = list(ASSIGNED)
        self.query_one("#ib-assigned", Choice).value = order[(order.index(self.assigned) + 1) % len(order)]

    def action_assign(self) -> None:
        if thread := self.conversation.thread:
            self.find_assignees(thread)

    @engine_work(exclusive=True, group="assignees")
    def find_assignees(self, thread: dict[str, Any]) -> None:
        actor = self.app.actor()
        post_fresh(self, AssigneesFound(thread, self.app.engine.chat.assignees(actor, thread["id"]), actor.user_id))

    def on_assignees_found(self, message: AssigneesFound) -> None:
        thread, chat = message.thread, self.app.engine.chat

        def chosen(answer: Assignment | None) -> None:
            if answer is None:
                return
            user = answer.user

            def assign() -> str:
                chat.update_thread(self.app.actor(), thread["id"], {"assignee_id": user["id"] if user else None})
                who = "you" if user and user["id"] == message.me else user["email"] if user else None
                return f"{thread['title']}'s conversation is " + (f"assigned to {who}" if who else "unassigned")

            self.act(assign)

        self.app.push_screen(AssignDialog(thread["title"], message.users, thread["assignee_id"], message.me), chosen)

    def action_mark_unread(self) -> None:
        """Leave the thread for later: unread again, and no longer open (which would read it at once)."""
        thread = self.conversation.thread
        if thread is None:
            self.app.bell()
            return
        self.opened_id = None
        self.table.focus()
        chat, actor = self.app.engine.chat, self.app.actor()

        def unread() -> str:
            chat.mark_unread(actor, thread["id"])
            return f"Marked {thread['title']}'s conversation unread"

        self.act(unread)

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

    # --- files -------------------------------------------------------------------------------

    def action_attach(self) -> None:
        """Choose the file that goes with the next reply to this thread (or change or drop it)."""
        thread = self.conversation.thread
        if thread is None:
            self.app.bell()
            return
        thread_id, before = thread["id"], self.conversation.pending.get(thread["id"])

        def chosen(after: dict[str, Any] | None) -> None:
            if after is before:
                return
            if before is not None:
                self.discard(before)
            self.conversation.set_pending(thread_id, after)

        self.app.push_screen(AttachDialog(thread["title"], before), chosen)

    def discard(self, attachment: dict[str, Any]) -> None:
        """An upload that will not be sent after all leaves the database."""
        chat, actor = self.app.engine.chat, self.app.actor()

        def drop() -> str:
            chat.discard_upload(actor, attachment["id"])
            return f"Dropped {attachment['file_name']}"

        self.act(drop)

    def action_save_files(self) -> None:
        """Save the files of the message in focus, else of the newest message that has some."""
        view = self.conversation.with_files(self.focused)
        thread = self.conversation.thread
        if view is None or thread is None:
            self.status.news("No files in this conversation")
            return
        message = view.message
        source = f"{whose_message(message, thread['title'])} of {when(message['inserted_at'])}"

        def saved(paths: list[Path] | None) -> None:
            if paths:
                self.notify(saved_text(paths), title="Files saved")

        self.app.push_screen(SaveDialog(message["attachments"], source, default_folder()), saved)
