"""The bar across the top of every screen: the product, the areas (clickable), where we are, the database."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static


class AreaTab(Static):
    def __init__(self, mode: str, key: str, title: str, active: bool) -> None:
        super().__init__(f"{key} {title}", classes="area-tab -active" if active else "area-tab", markup=False)
        self.mode = mode

    def on_click(self) -> None:
        self.app.switch_mode(self.mode)


class AppBar(Horizontal):
    def __init__(self, area: str, crumb: str = "") -> None:
        super().__init__()
        self.area = area
        self.crumb = crumb

    def compose(self) -> ComposeResult:
        yield Static("◆ Frontdesk", id="brand", markup=False)
        for area in self.app.AREAS:  # type: ignore[attr-defined]
            yield AreaTab(area.mode, area.key, area.title, area.mode == self.area)
        yield Static(f"› {self.crumb}" if self.crumb else "", id="crumb", markup=False)
        yield Static(self.app.db_label, id="db-path", markup=False)  # type: ignore[attr-defined]
