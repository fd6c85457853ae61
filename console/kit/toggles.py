"""The console's checkbox: it shows its state in its glyph, not by colour alone."""

from __future__ import annotations

from textual.widgets import Checkbox as TextualCheckbox


class Checkbox(TextualCheckbox):
    """A ✓ when ticked, a blank when not."""

    @property  # Textual reads the mark from this class constant: a property lets it follow the value
    def BUTTON_INNER(self) -> str:
        return "✓" if self.value else " "
