"""One line above the footer: where you are in a list on the left (and which of its columns the width hides),
what last happened on the right, after a gap. What happened comes first: it wraps onto a second line at
80 columns rather than be cut, and where you are is then cut with an ellipsis. A message goes by itself once
read (news_seconds, longer for errors), or when the next one replaces it."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Static

WIDEN = " (widen the window)"


class StatusLine(Horizontal):
    news_seconds = 15.0
    error_seconds = 30.0

    def __init__(self) -> None:
        super().__init__()
        self.place = "Loading…"
        self.hidden = ""
        self.clearing: Timer | None = None

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
        self.set_class(bool(text), "-news")
        if self.clearing is not None:
            self.clearing.stop()
        self.clearing = self.set_timer(self.error_seconds if error else self.news_seconds,
                                       self.clear_news) if text else None

    def clear_news(self) -> None:
        self.clearing = None
        self.news("")
