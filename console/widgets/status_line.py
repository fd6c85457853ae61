"""One line above the footer: where you are in a list on the left, what last happened on the right."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static


class StatusLine(Horizontal):
    def compose(self) -> ComposeResult:
        yield Static("Loading…", id="status-where", markup=False)
        yield Static("", id="status-news", markup=False)

    def where(self, text: str) -> None:
        self.query_one("#status-where", Static).update(text)

    def news(self, text: str, error: bool = False) -> None:
        news = self.query_one("#status-news", Static)
        news.update(text)
        news.set_class(error, "-error")
