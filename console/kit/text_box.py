"""Textual's TextArea, safe to draw at any width: a window shrunk past a layout's room leaves a box no columns
inside its border for a frame or more, and Textual then wraps the placeholder at width 0, which raises (and
ended the console, the draft with it)."""

from __future__ import annotations

from textual.strip import Strip
from textual.widgets import TextArea


class TextBox(TextArea):
    def render_line(self, y: int) -> Strip:
        if self.content_size.width < 1:
            return Strip.blank(self.size.width)
        return super().render_line(y)
