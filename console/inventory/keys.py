"""The keys of the inventory area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# InventoryScreen
INVENTORY: list[BindingType] = [
    Binding("o", "pick_property", "Property"),
    Binding("r", "show_tab('rooms')", "Room types"),
    Binding("p", "show_tab('plans')", "Rate plans"),
    Binding("c", "show_tab('calendar')", "Calendar"),
    Binding("n", "new", "New"),
    Binding("e", "edit", "Edit"),
    Binding("d", "delete", "Delete"),
    Binding("m", "channels", "Channels"),
    Binding("left_square_bracket", "shift(-7)", "Week back", key_display="["),
    Binding("right_square_bracket", "shift(7)", "Week on", key_display="]"),
    Binding("t", "today", "Today"),
    Binding("j", "jump", "Jump to date"),
    Binding("u,ctrl+z", "undo", "Undo", key_display="u"),
]

# RangeEditDialog
RANGE_EDIT: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("escape", "close", "Cancel"),
]

# RatePlanChannelsDialog
RATE_PLAN_CHANNELS: list[BindingType] = [
    Binding("space", "toggle", "Map / unmap"),
    Binding("escape,q", "dismiss", "Close"),
]
