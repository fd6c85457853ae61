"""The keys of the channels area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

# ChannelsScreen
CHANNELS: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("n", "new", "New"),
    Binding("e", "edit", "Edit"),
    Binding("d", "delete", "Delete"),
    Binding("f", "full_sync", "Full sync"),
    Binding("r", "resume", "Resume"),
    Binding("l", "log", "Log"),
    Binding("w", "webhooks", "Webhooks"),
    Binding("y", "copy_id", "Copy id"),
]

# ChannelDialog
CHANNEL_DIALOG: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("ctrl+y", "copy_id", "Copy id", priority=True),
    Binding("escape", "dismiss", "Cancel"),
]

# SecretDialog
SECRET_DIALOG: list[BindingType] = [Binding("escape", "dismiss", "Done"), Binding("ctrl+y", "copy", "Copy key")]

# WebhooksScreen
WEBHOOKS: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("p", "pause", "Pause/unpause"),
    Binding("r", "resume", "Resume"),
    Binding("t", "test", "Test"),
    Binding("l", "log", "Log"),
    Binding("d", "delete", "Delete"),
    Binding("escape", "app.pop_screen", "Back"),
]

# DeliveryLogDialog
DELIVERY_LOG: list[BindingType] = [Binding("escape,q", "dismiss", "Close")]
