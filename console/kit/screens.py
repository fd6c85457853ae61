"""The console's screens and dialogs: Textual's, opened with less work done twice.

Opening a screen, Textual styles its widgets as they mount, then restyles all of them when the screen is resumed
(in case styles changed while it was covered), lays it out, and lays it out again when the screen gets the resize
event of that first layout. On a form of many fields each of those passes is a good part of the opening. Here a
screen that was never covered is not restyled (its widgets were styled a moment before; once covered, it is
restyled on resuming as Textual does), and a resize to the size the screen was just laid out at lays nothing out
again (what changed since is laid out on the next refresh, as any change is).
"""

from __future__ import annotations

from typing import TypeVar

from textual import events, screen as textual
from textual.geometry import Size

R = TypeVar("R")


class OpensOnce(textual.Screen):
    covered = False  # suspended at least once since it was mounted

    def _on_screen_suspend(self) -> None:
        self.covered = True

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler of the same event (handlers run down the class's MRO).
        if not self.covered:
            event.refresh_styles = False

    def _screen_resized(self, size: Size) -> None:
        if size != self._compositor.size:
            super()._screen_resized(size)


class Screen(OpensOnce, textual.Screen[R]):
    pass


class ModalScreen(OpensOnce, textual.ModalScreen[R]):
    pass
