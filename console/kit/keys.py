"""The keys every area shares, and the record editors' keys: apart from the screens that use them, so that
help lists them without importing a screen."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# Priority, so that the table's own page keys (which only scroll) don't swallow them.
PAGE_BINDINGS = [
    Binding("pagedown", "page(1)", "Next page", key_display="PgDn", priority=True),
    Binding("pageup", "page(-1)", "Prev page", key_display="PgUp", priority=True),
]

# RecordEditor
RECORD_EDITOR: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("escape", "close", "Close"),
]
