"""What an area may ask of the app it runs in. Screens and widgets type `self.app` against this, never
against the app class (console/app.py), which imports the areas: so no area imports the app."""

from __future__ import annotations

from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.reactive import reactive
from textual.screen import Screen

from backend.engine import Engine
from backend.identity.models import Actor
from console.kit.messages import concerns

S = TypeVar("S", bound=Screen)


class ConsoleApp(App[None]):
    """The app's side of the areas' contract; `FrontdeskApp` fills it in."""

    # Classes that every screen gets from the terminal's size, for the layouts of narrow, wide and short windows
    # in the areas' stylesheets: -narrow below 100 columns (80 is the least we design for), -wide from 160;
    # -short below 30 rows (24 is the least).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-normal"), (160, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    engine: Engine
    generation: int  # counts data changes, so a screen can tell that it is behind
    kind_generations: dict[str, int]  # the generation of each kind's last change
    db_label: str  # the database, as the bar shows it
    unread_threads: reactive[int] = reactive(0)  # threads with unread guest messages: the inbox tab's badge
    unanswered_reviews: reactive[int] = reactive(0)  # reviews a reply can be written to: the reviews tab's badge
    secure_url: str | None  # the secure API the tester captures from, when given (`frontdesk --secure-url`)

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        # Textual styles a widget whose classes change even before it is mounted, and styles it again as it mounts:
        # an Input made compact was 4-7 ms of matching the whole stylesheet, a form's fields a fifth of its opening.
        # A widget not yet in the DOM is left to be styled once, as it mounts.
        if isinstance(node, App) or node.is_attached:
            super().update_styles(node, animate)

    async def on_event(self, event: events.Event) -> None:
        # A key with a priority binding (ctrl+s, ctrl+r…) runs as the app takes it, while the keys typed before it
        # may still wait in the focused widget's queue: a fast burst then ctrl+s sent part of the burst. Such a key
        # waits its turn in that queue, behind them.
        if isinstance(event, events.Key) and not event.is_forwarded and self.screen_stack:
            focused = self.focused
            if focused is not None and self.priority_key(event.key) and focused.call_later(super().on_event, event):
                return
        await super().on_event(event)

    def priority_key(self, key: str) -> bool:
        return any(binding.priority for _, bindings in self.screen._binding_chain
                   for binding in bindings.key_to_bindings.get(key, ()))

    def push_screen(self, screen: Screen | str, *args: Any, **kwargs: Any) -> Any:
        if isinstance(screen, Screen) and not screen.is_running:
            self.size_classes(screen)
        return super().push_screen(screen, *args, **kwargs)

    def size_classes(self, screen: S) -> S:
        """Give a screen about to be mounted its size classes, as its first resize would: its widgets are then
        styled once as they mount, where the resize would style all of them again (for a form of many fields, a
        good part of its opening). Textual also restyles the whole app when a mode's new screen lags behind the
        app's CSS; one made now is styled with the CSS as it stands."""
        width, height = self.size
        for dimension, own, default in ((width, screen.HORIZONTAL_BREAKPOINTS, self.HORIZONTAL_BREAKPOINTS),
                                        (height, screen.VERTICAL_BREAKPOINTS, self.VERTICAL_BREAKPOINTS)):
            fits = [(least, name) for least, name in (default if own is None else own) or [] if dimension >= least]
            if fits:
                screen.add_class(max(fits)[1], update=False)
        screen._css_update_count = self._css_update_count  # Textual's own mark of a screen styled with today's CSS
        return screen

    def changed_since(self, generation: int, watches: tuple[str, ...]) -> bool:
        """Whether a change of a kind in `watches` came after `generation` (a screen shown again catches up)."""
        return any(at > generation and concerns(kind, watches) for kind, at in self.kind_generations.items())

    def actor(self) -> Actor:
        """Whom the console acts as, read afresh so that groups added meanwhile are seen."""
        raise NotImplementedError

    def open_property_editor(self, property_id: str | None) -> None:
        """Open the editor on a property (None: a new one)."""
        raise NotImplementedError

    def open_booking(self, booking_id: str) -> None:
        """Show a booking's page in the Bookings area (from the inbox, beside its conversation)."""
        raise NotImplementedError

    async def open_thread(self, thread_id: str) -> None:
        """Show a conversation in the Inbox, selected and opened (from a booking's page)."""
        raise NotImplementedError

    def open_message_rules(self, property_id: str | None) -> None:
        """The message rules over the Inbox (an area of their own: console/message_rules/); `property_id`, the
        property a new rule is for at first."""
        raise NotImplementedError

    def start_in(self, mode: str, action: str = "new") -> None:
        """Go to an area's main screen and run one of its actions there."""
        raise NotImplementedError

    def action_help(self) -> None:
        raise NotImplementedError
