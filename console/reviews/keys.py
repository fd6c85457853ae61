"""The keys of the Reviews area's screens and dialogs: apart from them, so that help lists them without importing
the area."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS, RECORD_EDITOR

PAGES = Binding.Group("Pages")

# ReviewsScreen
REVIEWS: list[BindingType] = [
    Binding("escape", "back", "Back to list"),
    Binding("r", "open", "Reply"),
    Binding("b", "open_booking", "Booking"),  # early: at 80 columns the footer shows its first keys only
    Binding("ctrl+s", "send", "Send", priority=True),
    Binding("ctrl+r", "saved_reply", "Saved reply", priority=True),
    Binding("g", "guest_review", "Review the guest"),
    Binding("s", "scores", "Scores"),
    Binding("u", "toggle_unanswered", "Unanswered only"),
    Binding("i", "toggle_stay", "Stay"),
    Binding("f", "focus('#rv-property')", "Filters", show=False),
    *(replace(binding, group=PAGES) for binding in PAGE_BINDINGS),
]

# ScoresDialog
SCORES: list[BindingType] = [Binding("escape,s", "dismiss(None)", "Close")]

# GuestReviewForm
GUEST_REVIEW: list[BindingType] = [replace(RECORD_EDITOR[0], description="Send"), *RECORD_EDITOR[1:]]
