"""One line above the footer: where you are in a list on the left (and which of its columns the width hides),
what last happened on the right."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Static

WIDEN = " (widen the window)"
# How long what happened stays: long enough to read, gone before it reads as what is happening now. An error stays
# longer, for it asks for something.
NEWS_KEPT = 15.0
ERROR_KEPT = 60.0


class StatusLine(Horizontal):
    def __init__(self) -> None:
        super().__init__()
        self.place = "Loading…"
        self.hidden = ""
        self.news_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(self.place, id="status-where", markup=False)
        yield Static("", id="status-news", markup=False)

    def where(self, text: str) -> None:
        self.place = text
        self.show_place()

    def columns_hidden(self, labels: tuple[str, ...]) -> None:
        """Say which columns a narrow window leaves out, so that none goes missing without a word."""
        self.hidden = f" · not shown: {', '.join(labels)}{WIDEN}" if labels else ""
        self.show_place()

    def on_resize(self, _: events.Resize) -> None:
        self.call_after_refresh(self.show_place)  # once the line's parts have their new widths

    def show_place(self) -> None:
        """Where you are, with the columns not shown; the advice to widen the window only where it fits the line."""
        where = self.query_one("#status-where", Static)
        text = self.place + self.hidden
        if len(text) > where.size.width > 0:
            text = self.place + self.hidden.removesuffix(WIDEN)
        if text != where.content:  # an update lays the screen out again: only a change
            where.update(text)

    def news(self, text: str, error: bool = False) -> None:
        news = self.query_one("#status-news", Static)
        news.update(text)
        news.set_class(error, "-error")
        if self.news_timer is not None:
            self.news_timer.stop()
        self.news_timer = self.set_timer(ERROR_KEPT if error else NEWS_KEPT, self.clear_news) if text else None

    def clear_news(self) -> None:
        self.query_one("#status-news", Static).update("")
        self.news_timer = None
