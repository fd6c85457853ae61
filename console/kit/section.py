"""Widgets held back until staff reach them, a form's titled sections, and the scrolling form that builds a
deferred section once it comes into view.

An editor opens in the time it takes to mount, style, lay out and paint its widgets, about a millisecond each. A
section at or below the fold (a property's content and facilities, a rate plan's policy and taxes) or hidden until
a choice shows it (a derived plan's modifiers) can wait: it is a titled box, open at the bottom and as tall as a
few rows, until three rows of its inside come into view, it takes the focus on the way of tab, or it is built
because the editor needs it (a save the engine refused, a choice that shows it). A section whose title alone shows
at the bottom edge is so left for the first scroll, rather than built in a second pass of the opening. Its fields
exist from the start, outside the screen, so the form's values never depend on what has been built. The same holds
for a tab shown only on demand (Tokenisation's tester and vault).
"""

from __future__ import annotations

from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget


class Deferred(Vertical):
    """Children held back (with `deferred`) until `build`: when the focus reaches the box, a Form scrolls it into
    view, or the screen needs them."""

    def __init__(self, *children: Widget, deferred: bool = True, id: str | None = None, classes: str = "") -> None:
        super().__init__(*() if deferred else children, id=id, classes=classes)
        self.held = list(children) if deferred else []
        self.can_focus = bool(self.held)  # on the way of tab: built, and the focus passed on to its first field
        self.set_class(bool(self.held), "-held")

    async def build(self) -> None:
        if not self.held:
            return
        children, self.held = self.held, []
        self.can_focus = False
        self.remove_class("-held")
        await self.mount_all(children)

    async def on_focus(self) -> None:
        await self.build()
        first = next((widget for widget in self.query("*") if widget.focusable), None)
        if first is not None:
            first.focus()


class Section(Deferred):
    """A titled box of fields; `deferred`: its children are mounted when it is first reached."""

    def __init__(self, title: str, *children: Widget, hint: str = "", deferred: bool = False,
                 id: str | None = None) -> None:
        super().__init__(*children, deferred=deferred, id=id, classes="section")
        self.border_title = title
        self.border_subtitle = hint or None


async def build_deferred(root: Widget) -> None:
    """Everything held under `root` built, as when the screen must show something anywhere in it."""
    for box in list(root.query(Deferred)):
        await box.build()


PEEK = 3  # rows of a held section's inside in view that build it


class Form(VerticalScroll, can_focus=False):
    """An editor's scrolling form: a deferred section is built once PEEK rows of its inside are in view."""

    def on_resize(self) -> None:
        self.reveal_later()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.reveal_later()

    def watch_virtual_size(self) -> None:  # a section above grew or shrank
        self.reveal_later()

    def reveal_later(self) -> None:
        self.call_after_refresh(self.reveal)  # once the layout has placed the sections

    async def reveal(self) -> None:
        bottom = self.region.bottom
        for box in list(self.query(Deferred)):
            if box.held and box.region and box.region.y + PEEK < bottom:  # past its title; hidden: no region
                await box.build()
