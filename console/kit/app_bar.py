"""The bar across the top of every screen: the product, the areas (clickable), where we are, the database.

When the full bar does not fit the terminal (80 columns), the product keeps only its mark and the
tabs other than the current one shorten their titles, so that every area still shows. The Inbox tab
carries the count of conversations with unread guest messages, which the app keeps live.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

BRAND = "◆ Frontdesk"
PADDING = 3  # columns around the brand, and (PADDING - 1) around each tab, as kit.tcss sets them
BADGED = "inbox"  # the area whose tab counts unread conversations
MOST = 999  # above this a badge reads "999+"


def badge(count: int, short: bool) -> str:
    """" (18)"; in a short bar " 18", bold all the same."""
    if not count:
        return ""
    shown = f"{min(count, MOST)}{'+' if count > MOST else ''}"
    return f" {shown}" if short else f" ({shown})"


class AreaTab(Static):
    def __init__(self, mode: str, key: str, title: str, active: bool) -> None:
        super().__init__(f"{key} {title}", classes="area-tab -active" if active else "area-tab", markup=False)
        self.mode = mode
        self.key = key
        self.area_title = title
        self.count = 0

    def label(self, short: bool) -> Text:
        title = self.area_title
        text = f"{self.key} {title[:4]}…" if short and len(title) > 5 and not self.has_class("-active") \
            else f"{self.key} {title}"
        return Text.assemble(text, (badge(self.count, short), "bold"))

    def on_click(self) -> None:
        self.app.switch_mode(self.mode)


class AppBar(Horizontal):
    app: ConsoleApp

    def __init__(self, area: str, crumb: str = "") -> None:
        super().__init__()
        self.area = area
        self.crumb = crumb
        self.fitted: tuple[bool, int] | None = None  # (short, unread) as the labels show them

    def compose(self) -> ComposeResult:
        yield Static(BRAND, id="brand", markup=False)
        for area in self.app.AREAS:  # type: ignore[attr-defined]
            yield AreaTab(area.mode, area.key, area.title, area.mode == self.area)
        yield Static(f"› {self.crumb}" if self.crumb else "", id="crumb", markup=False)
        yield Static(self.app.db_label, id="db-path", markup=False)

    def on_mount(self) -> None:
        self.watch(self.app, "unread_threads", self.show_unread)

    def show_unread(self, count: int) -> None:
        for tab in self.query(AreaTab):
            if tab.mode == BADGED:
                tab.count = count
        self.fit(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width)

    def fit(self, width: int) -> None:
        """Full or short labels for a bar `width` wide; before its first layout, the bar is as wide as the app.
        Labels already right are left alone: each update lays the screen out again."""
        tabs = list(self.query(AreaTab))
        full = len(BRAND) + PADDING + sum(tab.label(short=False).cell_len + PADDING - 1 for tab in tabs)
        short = full > (width or self.app.size.width)
        if (short, self.app.unread_threads) == self.fitted:
            return
        self.fitted = (short, self.app.unread_threads)
        self.query_one("#brand", Static).update(BRAND[0] if short else BRAND)
        for tab in tabs:
            tab.update(tab.label(short))
