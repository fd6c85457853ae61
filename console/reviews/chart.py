"""Scores as bars: a review's categories in its detail, and a property's in the scores dialog (`s`), each category
a line of Unicode blocks out of 10, drawn to the eighth of a cell."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.table import Table
from rich.text import Text

from console.kit.words import counted
from console.reviews.words import category, score_style, score_text

BLOCKS = " ▏▎▍▌▋▊▉█"  # an eighth of a cell more each
OUT_OF = 10.0

Row = tuple[str, float | None, int | None]  # what the line names, its score, how many reviews gave it (if known)


def bar(score: float | None, width: int) -> Text:
    """`width` cells, filled as far as the score goes out of 10; the rest a faint track."""
    share = min(max((score or 0.0) / OUT_OF, 0.0), 1.0)
    full, part = divmod(round(share * width * 8), 8)
    filled = "█" * full + (BLOCKS[part] if part else "")
    return Text.assemble((filled, score_style(score).removeprefix("bold ")), ("·" * (width - len(filled)), "dim"))


def chart(rows: Iterable[Row | None], width: int) -> Table:
    """One line a row: its name, its bar, its score (and its count); None is a blank line between groups."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, justify="right")
    grid.add_column(no_wrap=True, style="dim")
    for row in rows:
        if row is None:
            grid.add_row("", "", "", "")
            continue
        name, score, count = row
        grid.add_row(name, bar(score, width), Text(score_text(score), style=score_style(score)),
                     f"({count:,})" if count is not None else "")
    return grid


def review_rows(review: dict[str, Any]) -> list[Row]:
    return [(category(s["category"]), s["score"], None) for s in review["scores"]]


def category_rows(scores: dict[str, Any]) -> list[Row]:
    """A score map ({category: {count, score}}), best categories first."""
    ranked = sorted(scores.items(), key=lambda item: -(item[1]["score"] or 0))
    return [(category(name), s["score"], s["count"]) for name, s in ranked]


def overall(score: float | None, count: int) -> Text:
    """"9.2 / 10 · 1,122 reviews"."""
    return Text.assemble((score_text(score), score_style(score)), (f" / 10 · {counted(count, 'review')}", "dim"))
