"""Help: what the console is for, and every key of every screen, read from the bindings the screens use (each
area's keys.py): help imports no area's screens, so its first open imports no area."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Label, Static

from console.bookings.keys import BOOKING, BOOKINGS, NO_SHOW
from console.channels.keys import CHANNEL_DIALOG, CHANNELS, DELIVERY_LOG, SECRET_DIALOG, WEBHOOKS
from console.inbox.keys import FILE_DIALOG, INBOX, SAVED_REPLIES, TEMPLATE_DIALOG
from console.inventory.keys import INVENTORY, RANGE_EDIT, RATE_PLAN_CHANNELS
from console.kit.keys import RECORD_EDITOR, REPLY_PICKER
from console.kit.screens import ModalScreen
from console.message_rules.keys import MESSAGE_RULES, RULE_DIALOG, RULE_PREVIEW
from console.properties.keys import PROPERTIES, PROPERTY_CHANNELS
from console.reviews.keys import GUEST_REVIEW, REVIEWS, SCORES
from console.shopping.keys import BOOK_STAY, SHOPPING, SHOPPING_PROPERTY
from console.tokenisation.keys import PROFILE_EDITOR, TOKENISATION

INTRO = ("Frontdesk answers your guests and keeps your properties, their rooms, rates and availability, the "
         "channels they are sold on, the bookings those channels send, the reviews guests write there and, tokenised in "
         "a vault, their cards. Every change goes straight to the database, and lists refresh "
         "by themselves when anything changes it, another frontdesk process included.")

SECTIONS: tuple[tuple[str, list[Binding]], ...] = (
    ("Inbox", [*INBOX, Binding("enter", "", "Open and reply")]),
    ("Attach a file, save files", [Binding("enter", "", "Attach, save"), *FILE_DIALOG]),
    ("Saved reply picker (ctrl+r)", [Binding("enter", "", "Insert at the cursor"), *REPLY_PICKER]),
    ("Saved replies (t in the Inbox)", [*SAVED_REPLIES, Binding("enter", "", "Edit")]),
    ("Saved reply editor", TEMPLATE_DIALOG),
    ("Message rules (shift+r in the Inbox)", [*MESSAGE_RULES, Binding("enter", "", "Edit")]),
    ("Message rule editor", RULE_DIALOG),
    ("Message rule preview (v)", RULE_PREVIEW),
    ("Properties", [*PROPERTIES, Binding("enter", "", "Edit")]),
    ("Property editor", [*RECORD_EDITOR, Binding("tab", "", "Next field"),
                         Binding("shift+tab", "", "Previous field")]),
    ("Channels of a property", [*PROPERTY_CHANNELS, Binding("enter", "", "Connect / disconnect")]),
    ("Channels", [*CHANNELS, Binding("enter", "", "Edit")]),
    ("Channel dialog", CHANNEL_DIALOG),
    ("Inbound key, signing secret", SECRET_DIALOG),
    ("Webhooks (w in Channels)", WEBHOOKS),
    ("Delivery log (l)", DELIVERY_LOG),
    ("Inventory", INVENTORY),
    ("Room type and rate plan editors", RECORD_EDITOR),
    ("Range edit", RANGE_EDIT),
    ("Channels of a rate plan", RATE_PLAN_CHANNELS),
    ("Shopping preview", SHOPPING),
    ("A property on the channel", SHOPPING_PROPERTY),
    ("Test booking", BOOK_STAY),
    ("Bookings", BOOKINGS),
    ("Booking", BOOKING),
    ("A no-show", NO_SHOW),
    ("Tokenisation", [*TOKENISATION, Binding("enter", "", "Edit"),
                      Binding("escape", "", "Leave a text box")]),
    ("Tokenisation profile editor", PROFILE_EDITOR),
    ("Reviews", [*REVIEWS, Binding("enter", "", "Open and reply")]),
    ("Scores of a property (s in Reviews)", SCORES),
    ("Review of an Airbnb guest (g in Reviews)", [*GUEST_REVIEW, Binding("tab", "", "Next field")]),
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
