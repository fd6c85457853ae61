"""The Frontdesk console: one mode per area, a footer of keys, help, the command palette and themes.

The app owns the engine and the link to its changes: in-process change events, and a poll of the store's change stamp
(about once a second: SQLite's data_version, PostgreSQL's WAL position) for commits by other processes, whose kinds
and subjects it then reads (backend/outbox/changes.py). Each change of a kind bumps `generation`, notes it as that
kind's, and tells the screens on the stack, which reload only for the kinds they show (console/kit/messages.py
`DataChanged.concerns`), and only its subject where they can (the inbox: one thread); screens of other modes catch up
when shown, for what changed of their kinds meanwhile.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, cast

from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable

from backend.engine import Engine
from backend.identity.models import Actor
from console import collector
from console.commands import FrontdeskCommands
from console.inbox.screen import InboxScreen
from console.kit.app import ConsoleApp
from console.kit.area import AreaScreen
from console.kit.confirm import ConfirmDialog, Editing, KeepsDrafts, written
from console.kit.labels import describe, title_for
from console.kit.messages import ActionFailed, DataChanged
from console.kit.words import listed
from console.kit.workers import engine_work, post_fresh
from console.settings import read_settings, remember, settings_path
from console.stylesheet import Stylesheet
from console.themes import THEMES

HERE = Path(__file__).parent
UNREAD_KINDS = ("message.", "thread.")  # what moves the inbox tab's badge
# What moves the reviews tab's: a review in or answered, a channel deleted (its reviews take no reply), a property's.
UNANSWERED_KINDS = ("review.", "channel.", "property.")


class UnreadCounted(Message):
    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class UnansweredCounted(Message):
    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class BookingFound(Message):
    def __init__(self, booking_id: str, unique_id: str) -> None:
        super().__init__()
        self.booking_id = booking_id
        self.unique_id = unique_id


def later(module: str, name: str) -> Callable[[], Screen]:
    """A mode's screen, imported the first time the mode is shown: start-up loads only the inbox."""

    def make() -> Screen:
        screen = getattr(importlib.import_module(module), name)()
        return cast(ConsoleApp, screen.app).size_classes(screen)

    return make


@dataclass(frozen=True)
class Area:
    mode: str
    key: str
    title: str


def display_location(location: str) -> str:
    """Where the database is: a path with the home directory shortened to ~, or a PostgreSQL URL as it is."""
    try:
        return "~/" + str(Path(location).relative_to(Path.home()))
    except ValueError:
        return location


class FrontdeskApp(ConsoleApp):
    # The kit's rules first, then each area's own (every area's, so that a mode switch loads no stylesheet).
    # Whole paths: Textual reads relative ones from the folder of whichever subclass is run.
    CSS_PATH = [HERE / "kit" / "kit.tcss", *(HERE / area / f"{area}.tcss" for area in (
        "properties", "shopping", "bookings", "inventory", "inbox", "tokenisation", "channels", "reviews",
        "message_rules"))]
    TITLE = "Frontdesk"
    AREAS: ClassVar[tuple[Area, ...]] = (Area("inbox", "0", "Inbox"), Area("properties", "1", "Properties"),
                                         Area("channels", "2", "Channels"), Area("inventory", "3", "Inventory"),
                                         Area("shopping", "4", "Shopping"), Area("bookings", "5", "Bookings"),
                                         Area("tokenisation", "6", "Tokenisation"), Area("reviews", "7", "Reviews"))
    MODES = {"inbox": later("console.inbox.screen", "InboxScreen"),
             "properties": later("console.properties.screen", "PropertiesScreen"),
             "channels": later("console.channels.screen", "ChannelsScreen"),
             "inventory": later("console.inventory.screen", "InventoryScreen"),
             "shopping": later("console.shopping.screen", "ShoppingScreen"),
             "bookings": later("console.bookings.screen", "BookingsScreen"),
             "tokenisation": later("console.tokenisation.screen", "TokenisationScreen"),
             "reviews": later("console.reviews.screen", "ReviewsScreen")}
    DEFAULT_MODE = "inbox"
    COMMANDS = ConsoleApp.COMMANDS | {FrontdeskCommands}

    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", key_display="?", show=False),
        # A bare digit is text in a form, so it switches only from a list (see check_action); alt+digit always.
        *(Binding(a.key, f"area('{a.mode}')", a.title, show=False) for a in AREAS),
        *(Binding(f"alt+{a.key}", f"switch_mode('{a.mode}')", show=False) for a in AREAS),
        Binding("ctrl+t", "change_theme", "Theme", show=False),
    ]
    HELP_BINDINGS = [*BINDINGS, Binding("alt+0", "", "An area from a form or dialog", key_display="alt+0…7"),
                     Binding("ctrl+p", "command_palette", "Command palette"),
                     Binding("ctrl+q", "quit", "Quit")]

    def __init__(self, engine: Engine, *, poll_interval: float = 1.0, mode: str | None = None,
                 settings: Path | None = None, user: str | None = None, secure_url: str | None = None) -> None:
        """`settings`: the file where the theme is remembered between runs; None remembers nothing. `user`: the
        email of the user the console acts as (`frontdesk --as EMAIL`); None, the local operator. `secure_url`:
        the secure API that the tester captures from, when given (`frontdesk --secure-url`)."""
        if mode:  # the mode to open in: tests and screenshots start in other areas; App reads it on init
            self.DEFAULT_MODE = mode
        super().__init__()
        self.stylesheet = Stylesheet(variables=self.get_css_variables())
        self.engine = engine
        self.secure_url = secure_url
        self.poll_interval = poll_interval
        self.user = user
        # Who you are, in the bar, when you are someone: the local operator is the console's default.
        where = display_location(engine.location)
        self.db_label = f"{user} · {where}" if user else where
        engine.identity.operator()  # made on first use: before the workers, which only read it
        self.generation = 0  # counts data changes, so screens can tell whether they are behind
        self.kind_generations = {}
        self.change_stamp = engine.change_stamp()
        self.changes_mark = engine.changes_mark()
        self.unsubscribe = lambda: None
        self.quit_question: ConfirmDialog | None = None
        for theme in THEMES:
            self.register_theme(theme)
        self.settings = settings
        saved = read_settings(settings).get("theme") if settings else None
        self.theme = saved if saved in self.available_themes else THEMES[0].name
        # What a key changes is on screen, whole, in the next frame: no tab underline sliding for 0.3 s after a tab
        # has opened, no scrolling through a form field by field. TEXTUAL_ANIMATIONS=full brings Textual's back.
        if "TEXTUAL_ANIMATIONS" not in os.environ:
            self.animation_level = "none"
        self.gc_thresholds: tuple[int, int, int] | None = None  # the collector's own, while the console holds it

    def watch_theme(self, theme: str) -> None:
        if self.settings:
            remember(self.settings, "theme", theme)

    def actor(self) -> Actor:
        """The user named with --as, else the local operator, read afresh so that groups added meanwhile are seen."""
        identity = self.engine.identity
        return identity.actor_for(self.user) if self.user else identity.operator()

    # --- live refresh ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.gc_thresholds = collector.hold()
        # Engine events may come from worker threads; post_message is safe from any thread.
        self.unsubscribe = self.engine.events.subscribe(
            lambda event: self.post_message(DataChanged(event.kind, event.subject)))
        self.set_interval(self.poll_interval, self.check_change_stamp)
        self.count_unread()
        self.count_unanswered()

    def on_unmount(self) -> None:
        self.unsubscribe()
        if self.gc_thresholds is not None:
            collector.release(self.gc_thresholds)

    def check_change_stamp(self) -> None:
        stamp = self.engine.change_stamp()
        if stamp != self.change_stamp:
            self.change_stamp = stamp
            self.read_changes()

    @engine_work(exclusive=True, group="changes")
    def read_changes(self) -> None:
        """What the commits that moved the stamp changed (ours included: the bus told those already)."""
        self.changes_mark, changes = self.engine.changes_since(self.changes_mark)
        for change in sorted(changes, key=lambda change: (change.kind, change.subject or "")):
            self.post_message(DataChanged(change.kind, change.subject))

    def on_data_changed(self, message: DataChanged) -> None:
        self.generation += 1
        self.kind_generations[message.kind] = self.generation
        for screen in self.screen_stack:
            screen.post_message(DataChanged(message.kind, message.subject))
        if message.concerns(UNREAD_KINDS):
            self.count_unread()
        if message.concerns(UNANSWERED_KINDS):
            self.count_unanswered()

    @engine_work(exclusive=True, group="unread")
    def count_unread(self) -> None:
        """The inbox tab's badge, from whichever area is shown: a burst of changes costs one count."""
        post_fresh(self, UnreadCounted(self.engine.chat.unread_threads(self.actor())))

    def on_unread_counted(self, message: UnreadCounted) -> None:
        self.unread_threads = message.count

    @engine_work(exclusive=True, group="unanswered")
    def count_unanswered(self) -> None:
        """The reviews tab's badge: the reviews a reply can be written to now."""
        post_fresh(self, UnansweredCounted(self.engine.reviews.unanswered(self.actor())))

    def on_unanswered_counted(self, message: UnansweredCounted) -> None:
        self.unanswered_reviews = message.count

    # --- actions -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "area":  # a bare digit: only on an area's list is it not text being typed
            return isinstance(self.focused, DataTable) and isinstance(self.focused.screen, AreaScreen)
        return True

    def action_area(self, mode: str) -> None:
        self.switch_mode(mode)

    async def action_quit(self) -> None:
        """ctrl+q: asks first, as esc on an editor does, while any editor (in any area) holds unsaved changes, or
        replies are written and not sent (kept as drafts first, so nothing is lost whatever the answer). A second
        ctrl+q on that question quits."""
        # Textual keeps each mode's stack privately; an editor left open in another area counts too.
        screens = [screen for stack in self._screen_stacks.values() for screen in stack]
        editing = any(isinstance(screen, Editing) and screen.has_changes() for screen in screens)
        keeping = [screen for screen in screens if isinstance(screen, KeepsDrafts)]
        unsent = [held for screen in keeping for held in screen.unsent()]
        for screen in keeping:
            screen.keep_drafts()
        if self.screen is self.quit_question or not (editing or unsent):
            self.exit()
            return

        def answered(quit_: bool | None) -> None:
            if quit_:
                self.exit()

        kept = (f"{written(unsent)} not sent yet ({listed([held.guest for held in unsent])}): kept as drafts, back "
                "in the reply box when you open Frontdesk again.") if unsent else ""
        if editing:
            question, detail = "Quit and lose your changes?", " ".join(
                part for part in ("An editor holds changes that are not saved.", kept) if part)
        else:
            question, detail = f"Quit with {written(unsent)} unsent?", kept
        self.quit_question = ConfirmDialog(question, detail, confirm="Quit")
        self.push_screen(self.quit_question, answered)

    def action_help(self) -> None:
        from console.help import HelpScreen  # reads every screen's keys: loaded when first asked

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.HELP_BINDINGS))

    def start_in(self, mode: str, action: str = "new") -> None:
        """"New property", "New channel", "Webhooks" from the palette: go to the area and start there."""
        self.switch_mode(mode)
        getattr(self.screen_stack[0], f"action_{action}")()

    def open_message_rules(self, property_id: str | None) -> None:
        from console.message_rules.screen import MessageRulesScreen

        self.push_screen(MessageRulesScreen(property_id))

    def open_property_editor(self, property_id: str | None) -> None:
        """Open the editor on a property (None: a new one) once its data is read."""
        self.switch_mode("properties")
        self.load_property_editor(property_id)

    def open_booking(self, booking_id: str) -> None:
        """The booking's page over the Bookings list, once the booking is read (its number names the page)."""
        self.load_booking_page(booking_id)

    @engine_work(exclusive=True, group="booking")
    def load_booking_page(self, booking_id: str) -> None:
        booking = self.engine.bookings.get(self.actor(), booking_id)
        self.post_message(BookingFound(booking["id"], booking["unique_id"]))

    def on_booking_found(self, message: BookingFound) -> None:
        from console.bookings.detail import BookingDetailScreen

        self.switch_mode("bookings")
        self.push_screen(BookingDetailScreen(message.booking_id, message.unique_id))

    async def open_thread(self, thread_id: str) -> None:
        """The Inbox, with the conversation selected and opened; on the inbox's first visit, once it is mounted
        (which puts the focus on its list)."""
        await self.switch_mode("inbox")
        inbox = self.screen_stack[0]
        assert isinstance(inbox, InboxScreen)
        inbox.show_thread(thread_id)

    @engine_work(exclusive=True, group="editor")
    def load_property_editor(self, property_id: str | None) -> None:
        from console.properties.editor import EditorReady, load_editor_data

        data = load_editor_data(self.engine, self.actor(), property_id)
        self.post_message(EditorReady(data))

    def on_editor_ready(self, message) -> None:
        from console.properties.editor import PropertyEditor

        self.push_screen(PropertyEditor(message.data))

    def on_action_failed(self, message: ActionFailed) -> None:
        self.notify(describe(message.error), title=title_for(message.error), severity="error")


def run_console(engine: Engine, user: str | None = None, secure_url: str | None = None) -> None:
    """The console as `user` (an email; None: the local operator), delivering the outbox's events while no
    `frontdesk serve` holds the database; `secure_url`: where the tester captures, when given."""
    # The deliverer's first look waits a second: its routes import the HTTP client and the channels' formats, which
    # would otherwise share the CPU with the console's first page.
    with engine.delivering("console", after=1.0):
        FrontdeskApp(engine, settings=settings_path(), user=user, secure_url=secure_url).run()
