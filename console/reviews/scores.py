"""A property's scores (`s` in Reviews): the overall score over its reviews and each category's as a bar, best
first; then each channel's overall score. Read from the engine when opened."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Label, Static

from console.kit.screens import ModalScreen
from console.kit.words import channel
from console.kit.workers import engine_work, post_fresh
from console.reviews.chart import Row, category_rows, chart, overall
from console.reviews.keys import SCORES

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

BAR_WIDTH = 20


class ScoreLoaded(Message):
    def __init__(self, score: dict[str, Any]) -> None:
        super().__init__()
        self.score = score


def score_view(score: dict[str, Any]) -> RenderableType:
    """The overall score, each category's, then each channel's."""
    if not score["count"]:
        return Text("No reviews with scores yet.", style="italic")
    rows: list[Row | None] = category_rows(score["scores"])
    channels = score.get("ota_scores") or []
    if channels:
        rows += [None, *((f"On {channel(s['ota'])}", s["overall_score"], s["count"]) for s in channels)]
    return Group(overall(score["overall_score"], score["count"]), Text(), chart(rows, BAR_WIDTH))


class ScoresDialog(ModalScreen[None]):
    BINDINGS = SCORES

    app: ConsoleApp

    def __init__(self, property_id: str, title: str) -> None:
        super().__init__(classes="dialog-screen")
        self.property_id = property_id
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="rv-scores", classes="dialog -fits-short"):
            yield Label(f"Scores of {self.title_text}", classes="dialog-title", markup=False)
            with VerticalScroll(id="rv-scores-body"):
                yield Static("Reading the scores…", id="rv-chart", markup=False)
            yield Static("esc closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.load()

    @engine_work(exclusive=True, group="scores")
    def load(self) -> None:
        post_fresh(self, ScoreLoaded(self.app.engine.reviews.score(self.app.actor(), self.property_id, detailed=True)))

    def on_score_loaded(self, message: ScoreLoaded) -> None:
        self.query_one("#rv-chart", Static).update(score_view(message.score))
