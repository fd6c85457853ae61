"""The keys every area shares, and the record editors' keys: apart from the screens that use them, so that
help lists them without importing a screen."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# First in each area's keys, as the footer shows them. Priority, so that no widget's own page keys swallow them.
PAGE_BINDINGS = [
    Binding("pageup", "page(-1)", "Prev page", key_display="PgUp", priority=True),
    Binding("pagedown", "page(1)", "Next page", key_display="PgDn", priority=True),
]

# ReplyPicker (console/kit/reply_picker.py)
REPLY_PICKER: list[BindingType] = [
    Binding("escape", "dismiss(None)", "Cancel"),
    Binding("down", "move(1)", "Next", show=False, priority=True),
    Binding("up", "move(-1)", "Previous", show=False, priority=True),
]

# RecordEditor
RECORD_EDITOR: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("escape", "close", "Close"),
]
