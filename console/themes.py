"""Frontdesk's own colour themes: calm backgrounds, one blue for focus, warm amber for attention.

The built-in Textual themes stay available from the command palette ("Theme")."""

from __future__ import annotations

from textual.theme import Theme

DARK = Theme(
    name="frontdesk",
    primary="#5E9FD0",
    secondary="#8FB8B3",
    accent="#D9A15B",
    warning="#D9A15B",
    error="#E0727B",
    success="#7FB77E",
    foreground="#D6DCE4",
    background="#15181D",
    surface="#1B1F26",
    panel="#252A33",
    dark=True,
    variables={
        "footer-key-foreground": "#5E9FD0",
        "input-selection-background": "#5E9FD0 35%",
    },
)

LIGHT = Theme(
    name="frontdesk-light",
    primary="#2F6FA3",
    secondary="#4F7F7A",
    accent="#B7792E",
    warning="#B7792E",
    error="#C0414C",
    success="#3F8A3E",
    foreground="#20252C",
    background="#F4F5F7",
    surface="#FFFFFF",
    panel="#E6E9EE",
    dark=False,
    variables={"footer-key-foreground": "#2F6FA3"},
)

THEMES = (DARK, LIGHT)
