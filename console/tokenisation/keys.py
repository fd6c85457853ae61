"""The keys of the tokenisation area's screens and dialogs: apart from them, so that help lists them without
importing the area."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from console.kit.keys import PAGE_BINDINGS

# TokenisationScreen
TOKENISATION: list[BindingType] = [
    *PAGE_BINDINGS,
    Binding("p", "show_tab('profiles')", "Profiles"),
    Binding("t", "show_tab('tester')", "Tester"),
    Binding("v", "show_tab('vault')", "Vault"),
    Binding("n", "new", "New"),
    Binding("e", "edit", "Edit"),
    Binding("d", "delete", "Delete"),
    Binding("l", "load_sample", "Load a sample"),
    Binding("ctrl+r", "dry_run", "Dry run"),
    Binding("ctrl+g", "tokenise", "Tokenise for real"),
    Binding("c", "capture", "Capture"),
    Binding("w", "wipe_cvv", "Wipe CVV"),
]

# ProfileEditor
PROFILE_EDITOR: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", priority=True),
    Binding("escape", "close", "Close"),
]
