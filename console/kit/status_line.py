"""One line above the footer: where you are in a list on the left (and which of its columns the width hides),
what last happened on the right."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static


class StatusLine(Horizontal):
    def __init__(self) -> None:
        super().__init__()
        self.place = "Loading…"
        self.hidden = ""

    def compose(self) -> ComposeResult:
        yield Static("Loading…", id="status-where", markup=False)
        yield Static("", id="status-news", markup=False)

    def where(self, text: str) -> None:
        self.place = text
        self.query_one("#status-where", Static).update(self.place + self.hidden)

    def columns_hidden(self, labels: tuple[str, ...]) -> None:
        """Say which columns a narrow window leaves out, so that none goes missing without a word."""
        self.hidden = f" · not shown: {', '.join(labels)} (widen the window)" if labels else ""
        self.where(self.place)

    def news(self, text: str, error: bool = False) -> None:
        news = self.query_one("#status-news", Static)
        news.update(text)
        news.set_class(error, "-error")
