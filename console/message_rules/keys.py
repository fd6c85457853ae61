"""The keys of the message rules area's screen and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

# MessageRulesScreen
MESSAGE_RULES: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("n", "new", "New"),
    Binding("e", "edit", "Edit"),
    Binding("d", "delete", "Delete"),
    Binding("p", "pause", "Pause/resume"),
    Binding("v", "preview", "Preview"),
    Binding("escape", "app.pop_screen", "Back"),
]

# RuleDialog
RULE_DIALOG: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("escape", "dismiss(None)", "Cancel"),
]

# RulePreview
RULE_PREVIEW: list[BindingType] = [Binding("escape", "dismiss(None)", "Close")]
