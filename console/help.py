"""Help: what the console is for, and every key of every screen, read from the screens' own bindings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Label, Static

from console.bookings.detail import BookingDetailScreen
from console.bookings.reports import NoShowDialog
from console.bookings.screen import BookingsScreen
from console.channels.delivery_log import DeliveryLogDialog
from console.channels.dialogs import ChannelDialog, SecretDialog
from console.channels.screen import ChannelsScreen
from console.channels.webhooks import WebhooksScreen
from console.inbox.files import FileDialog
from console.inbox.reply_picker import ReplyPicker
from console.inbox.saved_replies import SavedRepliesScreen, TemplateDialog
from console.inbox.screen import InboxScreen
from console.inventory.editor import InventoryEditor
from console.inventory.range_dialog import RangeEditDialog
from console.inventory.rate_plan_channels import RatePlanChannelsDialog
from console.inventory.screen import InventoryScreen
from console.kit.screens import ModalScreen
from console.properties.channels_dialog import PropertyChannelsDialog
from console.properties.editor import PropertyEditor
from console.properties.screen import PropertiesScreen
from console.shopping.booking import BookStayDialog
from console.shopping.property import ShoppingPropertyScreen
from console.shopping.screen import ShoppingScreen
from console.tokenisation.editor import ProfileEditor
from console.tokenisation.screen import TokenisationScreen

INTRO = ("Frontdesk answers your guests and keeps your properties, their rooms, rates and availability, the "
         "channels they are sold on, the bookings those channels send and, tokenised in a vault, their cards. Every change goes straight to the database, and lists refresh "
         "by themselves when anything changes it, another frontdesk process included.")

SECTIONS: tuple[tuple[str, list[Binding]], ...] = (
    ("Inbox", [*InboxScreen.BINDINGS, Binding("enter", "", "Open and reply")]),
    ("Attach a file, save files", [Binding("enter", "", "Attach, save"), *FileDialog.BINDINGS]),
    ("Saved reply picker (ctrl+r)", [Binding("enter", "", "Insert at the cursor"), *ReplyPicker.BINDINGS]),
    ("Saved replies (t in the Inbox)", [*SavedRepliesScreen.BINDINGS, Binding("enter", "", "Edit")]),
    ("Saved reply editor", TemplateDialog.BINDINGS),
    ("Properties", [*PropertiesScreen.BINDINGS, Binding("enter", "", "Edit")]),
    ("Property editor", [*PropertyEditor.BINDINGS, Binding("tab", "", "Next field"),
                         Binding("shift+tab", "", "Previous field")]),
    ("Channels of a property", [*PropertyChannelsDialog.BINDINGS, Binding("enter", "", "Connect / disconnect")]),
    ("Channels", [*ChannelsScreen.BINDINGS, Binding("enter", "", "Edit")]),
    ("Channel dialog", ChannelDialog.BINDINGS),
    ("Inbound key, signing secret", SecretDialog.BINDINGS),
    ("Webhooks (w in Channels)", WebhooksScreen.BINDINGS),
    ("Delivery log (l)", DeliveryLogDialog.BINDINGS),
    ("Inventory", InventoryScreen.BINDINGS),
    ("Room type and rate plan editors", InventoryEditor.BINDINGS),
    ("Range edit", RangeEditDialog.BINDINGS),
    ("Channels of a rate plan", RatePlanChannelsDialog.BINDINGS),
    ("Shopping preview", ShoppingScreen.BINDINGS),
    ("A property on the channel", ShoppingPropertyScreen.BINDINGS),
    ("Test booking", BookStayDialog.BINDINGS),
    ("Bookings", BookingsScreen.BINDINGS),
    ("Booking", BookingDetailScreen.BINDINGS),
    ("A no-show", NoShowDialog.BINDINGS),
    ("Tokenisation", [*TokenisationScreen.BINDINGS, Binding("enter", "", "Edit"),
                      Binding("escape", "", "Leave a text box")]),
    ("Tokenisation profile editor", ProfileEditor.BINDINGS),
)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss", "Close")]

    def __init__(self, global_bindings: list[Binding]) -> None:
        super().__init__(classes="dialog-screen")
        self.global_bindings = global_bindings

    def compose(self) -> ComposeResult:
        with Vertical(id="help", classes="dialog -fits-short"):
            yield Label("Frontdesk · Help", classes="dialog-title")
            with VerticalScroll(id="help-body"):
                yield Static(INTRO, classes="dialog-text", markup=False)
                with Grid(id="help-keys"):
                    yield KeyTable("Everywhere", self.rows(self.global_bindings))
                    for title, bindings in SECTIONS:
                        yield KeyTable(title, self.rows(bindings))
            yield Static("esc closes · ctrl+p opens the command palette", classes="dialog-hint")

    def rows(self, bindings: list[Binding]) -> list[tuple[str, str]]:
        """(keys, what they do); bindings that share a description share a row ("e enter  Edit")."""
        rows: dict[str, list[str]] = {}
        for binding in bindings:
            if not binding.description:
                continue
            shown = ([binding.key_display] if binding.key_display else
                     [self.app.get_key_display(Binding(key, "")) for key in binding.key.split(",")])
            rows.setdefault(binding.description, []).extend(shown)
        return [(" ".join(dict.fromkeys(keys)), description) for description, keys in rows.items()]


class KeyTable(Widget):
    """A titled table of keys: the keys in bold, cut to their column, beside what they do, wrapped under itself.

    One widget drawing plain lines: help's 26 tables as Rich tables in Statics were each rendered twice (to
    measure, to paint), most of help's opening."""

    DEFAULT_CSS = "KeyTable { height: auto; }"
    KEYS = 12  # the keys' column
    GAP = 2

    def __init__(self, title: str, rows: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title = title
        self.rows = rows
        self.drawn: tuple[int, list[Content]] | None = None  # (width, lines)

    def lines(self, width: int) -> list[Content]:
        if self.drawn is None or self.drawn[0] != width:
            self.drawn = (width, self.draw(width))
        return self.drawn[1]

    def draw(self, width: int) -> list[Content]:
        text_width = max(width - self.KEYS - self.GAP, 1)
        lines = [Content.styled(self.title, "bold").truncate(width)]
        for keys, description in self.rows:
            key = Content.styled(keys, "bold").truncate(self.KEYS, pad=True) + " " * self.GAP
            first, *rest = Content(description).wrap(text_width)
            lines.append(key + first)
            lines.extend(" " * (self.KEYS + self.GAP) + line for line in rest)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Content:
        return Content("\n").join(self.lines(self.content_size.width))
