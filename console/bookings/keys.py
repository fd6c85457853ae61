"""The keys of the bookings area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

# The today views: what the filter calls them and their key.
TODAY = {"arriving_today": ("arrivals", "a"), "departing_today": ("departures", "d"), "in_house": ("in house", "h")}

# BookingsScreen
BOOKINGS: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("slash", "search", "Search", key_display="/"),
    Binding("t", "today", "Today"),
    Binding("f", "focus('#bk-stay')", "Filters"),
    Binding("u", "toggle_unacked", "Unacked only"),
    *(Binding(key, f"today('{stay}')", f"Today: {words}", show=False) for stay, (words, key) in TODAY.items()),
]

# BookingDetailScreen
BOOKING: list[BindingType] = [
    Binding("a", "ack", "Acknowledge"),
    Binding("n", "no_show", "No-show"),
    Binding("i", "invalid_card", "Card invalid"),
    Binding("x", "cancel_invalid_card", "Cancel: card"),
    Binding("m", "open_thread", "Messages"),
    Binding("escape", "app.pop_screen", "Back"),
]

# NoShowDialog
NO_SHOW: list[BindingType] = [
    Binding("c", "answer(False)", "Charge the fee"),
    Binding("w", "answer(True)", "Waive the fee"),
    Binding("escape", "answer(None)", "Back"),
]
