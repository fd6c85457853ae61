"""The console's checkbox and switch: each shows its state in its glyph, not by colour alone."""

from __future__ import annotations

from textual.content import Content
from textual.style import Style
from textual.widgets import Checkbox as TextualCheckbox
from textual.widgets import Switch as TextualSwitch

KNOB = 2  # cells of a switch's knob, in a track of twice that


class Checkbox(TextualCheckbox):
    """A ✓ when ticked, a blank when not."""

    @property  # Textual reads the mark from this class constant: a property lets it follow the value
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802
        return "✓" if self.value else " "


class Switch(TextualSwitch):
    """The knob carries a ✓ when on, and is blank when off, on whichever side it stands."""

    def render(self) -> Content:
        slider = self.get_visual_style("switch--slider")  # its colour is the knob's, its background the track's
        track = Style(background=slider.background)
        knob = Style(foreground=slider.background, background=slider.foreground, bold=True)
        left = round(self._slider_position * KNOB)  # follows the knob while it slides
        return Content.assemble((" " * left, track), ("✓ " if self.value else "  ", knob),
                                (" " * (KNOB - left), track))
