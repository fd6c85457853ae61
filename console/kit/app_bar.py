"""The bar across the top of every screen: the product, the areas (clickable), where we are, the database.

When the full bar does not fit the terminal (80 columns), the product keeps only its mark and the
tabs other than the current one shorten their titles, so that every area still shows.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

BRAND = "◆ Frontdesk"
PADDING = 3  # columns around the brand, and (PADDING - 1) around each tab, as kit.tcss sets them


class AreaTab(Static):
    def __init__(self, mode: str, key: str, title: str, active: bool) -> None:
        super().__init__(f"{key} {title}", classes="area-tab -active" if active else "area-tab", markup=False)
        self.mode = mode
        self.key = key
        self.area_title = title

    def label(self, short: bool) -> str:
        title = self.area_title
        return f"{self.key} {title[:4]}…" if short and len(title) > 5 and not self.has_class("-active") \
            else f"{self.key} {title}"

    def on_click(self) -> None:
        self.app.switch_mode(self.mode)


class AppBar(Horizontal):
    def __init__(self, area: str, crumb: str = "") -> None:
        super().__init__()
        self.area = area
        self.crumb = crumb

    def compose(self) -> ComposeResult:
        yield Static(BRAND, id="brand", markup=False)
        for area in self.app.AREAS:  # type: ignore[attr-defined]
            yield AreaTab(area.mode, area.key, area.title, area.mode == self.area)
        yield Static(f"› {self.crumb}" if self.crumb else "", id="crumb", markup=False)
        yield Static(self.app.db_label, id="db-path", markup=False)  # type: ignore[attr-defined]

    def on_resize(self, event: events.Resize) -> None:
        tabs = list(self.query(AreaTab))
        full = len(BRAND) + PADDING + sum(len(tab.label(short=False)) + PADDING - 1 for tab in tabs)
        short = full > event.size.width
        self.query_one("#brand", Static).update(BRAND[0] if short else BRAND)
        for tab in tabs:
            tab.update(tab.label(short))
