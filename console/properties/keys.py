"""The keys of the properties area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

# PropertiesScreen
PROPERTIES: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("n", "new", "New"),
    Binding("e", "edit", "Edit"),
    Binding("d", "delete", "Delete"),
    Binding("c", "channels", "Channels"),
    Binding("a", "toggle_chat", "Chat app"),
    Binding("slash", "search", "Search", key_display="/"),
]

# PropertyChannelsDialog
PROPERTY_CHANNELS: list[BindingType] = [
    Binding("space", "toggle", "Connect / disconnect"),
    Binding("escape,q", "dismiss", "Close"),
]
