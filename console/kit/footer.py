"""The key bar at the foot of a screen."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's footer, rebuilt only while its screen is on top.

    Opening any screen changes the bindings of the one beneath (its focus is put aside), and Textual's footer
    rebuilt its keys twice for it, with two layouts of the screen that nobody sees; under a dialog it was a third
    of the dialog's opening. The screen beneath keeps the keys it showed, and gets the right ones as it comes back
    on top: resuming a screen always publishes its bindings again."""

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and not screen.is_active:
            self._bindings_ready = True
            return
        super().bindings_changed(screen)
