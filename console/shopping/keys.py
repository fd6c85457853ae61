"""The keys of the shopping area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

# ShoppingScreen
SHOPPING: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("c", "focus('#shop-channel')", "Channel"),
    Binding("s", "focus('#shop-checkin')", "Stay"),
]

# ShoppingPropertyScreen
SHOPPING_PROPERTY: list[BindingType] = [
    Binding("b", "book", "Book a test stay"),
    Binding("left_square_bracket", "month(-1)", "Earlier", key_display="["),
    Binding("right_square_bracket", "month(1)", "Later", key_display="]"),
    Binding("escape", "app.pop_screen", "Back"),
]

# BookStayDialog
BOOK_STAY: list[BindingType] = [
    Binding("ctrl+s", "book", "Book", priority=True),
    Binding("escape", "close", "Close"),
]
