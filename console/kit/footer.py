"""The key bar at the foot of a screen."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


class Footer(TextualFooter):
    """Textual's footer, rebuilt only when the keys it shows change, and only while its screen is on top.

    Textual's footer rebuilt its keys (and so laid out the whole screen again) every time the screen's bindings
    might have changed: twice for the screen beneath each screen that opened, three times for a tab that showed the
    same keys. The screen beneath keeps the keys it showed and gets the right ones as it comes back on top
    (resuming a screen always publishes its bindings again); on top, the signals of one moment make one rebuild at
    most, and none when the keys are the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown: tuple[Any, ...] | None = None  # the keys as last composed
        self.pending = False

    def compose(self) -> ComposeResult:
        # The screen's keys from the start: Textual's footer shows none until the screen first publishes its
        # bindings, and is then rebuilt (the screen laid out again) as the screen opens.
        self._bindings_ready = True
        self.shown = self.keys()
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # Made in the footer's style: Textual makes a key compact, then not as it mounts, each a restyle
                # of the key (of a console's start, a tenth of a second). The palette's key stays compact.
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not (screen.app.app_focus and self.is_attached and screen is self.screen and screen.is_active):
            return
        if not self.pending:
            self.pending = True
            self.call_after_refresh(self.rebuild)

    async def rebuild(self) -> None:
        self.pending = False
        keys = self.keys()
        if keys != self.shown:
            self.shown = keys
            await self.recompose()

    def keys(self) -> tuple[Any, ...]:
        """What the footer would show: every shown binding with its state, and the palette's key."""
        return tuple((binding.key, binding.key_display, binding.description, binding.action, binding.group,
                      enabled, tooltip)
                     for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
                     if binding.show or binding.key == self.app.COMMAND_PALETTE_BINDING)
