"""The keys of the inbox area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

PAGES = Binding.Group("Pages")  # one footer item for both page keys: the conversation's keys need the room

# InboxScreen
INBOX: list[BindingType] = [
    Binding("escape", "back", "Back to list"),
    Binding("r", "open", "Reply"),
    Binding("b", "open_booking", "Booking"),  # early: at 80 columns the footer shows its first keys only
    Binding("i", "toggle_stay", "Stay"),
    Binding("ctrl+s", "send", "Send", priority=True),
    Binding("ctrl+o", "attach", "Attach", priority=True),
    Binding("ctrl+r", "saved_reply", "Saved reply", priority=True),
    Binding("ctrl+n", "note", "Note/reply", priority=True),
    Binding("n", "next_unread", "Next unread"),
    Binding("c", "toggle_closed", "Close/reopen"),
    Binding("u", "toggle_unread", "Unread only"),
    # The filter bar shows these two: the footer keeps its room for the conversation's keys.
    Binding("slash", "search", "Search", key_display="/", show=False),
    Binding("f", "focus('#ib-status')", "Filters", show=False),
    Binding("s", "save_files", "Save files"),
    Binding("o", "older", "Older"),
    # The list's keys beyond the footer's room: help (f1) lists them.
    Binding("a", "assign", "Assign", show=False),
    Binding("m", "assigned", "Mine, nobody's, everyone's", show=False),
    Binding("U", "mark_unread", "Mark unread", key_display="shift+u", show=False),
    Binding("t", "saved_replies", "Saved replies", show=False),
    Binding("R", "message_rules", "Message rules", key_display="shift+r", show=False),
    # The list takes these itself while it has the focus (thread_list.py); elsewhere they scroll the conversation.
    Binding("home,g", "conversation_edge('home')", "Top of the list or conversation", show=False),
    Binding("end,G", "conversation_edge('end')", "Bottom of the list or conversation", show=False),
    *(replace(binding, group=PAGES) for binding in PAGE_BINDINGS),
]

# FileDialog
FILE_DIALOG: list[BindingType] = [Binding("escape", "cancel", "Cancel")]

# SavedRepliesScreen
SAVED_REPLIES: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("n", "new", "New"),
    Binding("e", "edit", "Edit"),
    Binding("d", "delete", "Delete"),
    Binding("escape", "app.pop_screen", "Back"),
]

# TemplateDialog
TEMPLATE_DIALOG: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("escape", "dismiss(None)", "Cancel"),
]
