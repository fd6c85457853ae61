"""A range edit in words: what the engine's review says it would change (for the question asked before a big edit),
and what an edit or its undo did (for the status line). No widgets here."""

from __future__ import annotations

from datetime import date
from typing import Any

from backend.inventory.review import ASK_ABOVE_NIGHTS, Review, Span
from backend.inventory.undo import Undo
from console.kit.labels import label_for, plain
from console.kit.words import counted

# The values of a night as the range dialog and its summary name them: the console's labels, max stay's 0 explained.
FIELD_LABELS = {**{name: label_for(name) for name in ("availability", "rate", "min_stay_arrival", "min_stay_through",
                                                      "stop_sell", "closed_to_arrival", "closed_to_departure")},
                "max_stay": f"{label_for('max_stay')} (0: none)"}


def day_text(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b %Y}"


def dates_text(first: date, last: date) -> str:
    """ "Thu 24 Dec 2026 – Sun 7 Feb 2027", or one day."""
    return day_text(first) if first == last else f"{day_text(first)} – {day_text(last)}"


def span_text(span: Span, flag: bool) -> str:
    """What some nights hold: "280.00–350.00", "on", "off or on", "none", "120.00 (none on some)"."""
    if span.low is None:
        return "none"
    if flag:
        shown = "on" if span.low else "off" if not span.high else "off or on"
    else:
        shown = str(span.low) if span.low == span.high else f"{span.low}–{span.high}"
    return f"{shown} (none on some)" if span.blank else shown


def summary(review: Review) -> str:
    """Every line of what the edit would change, then why it is asked about."""
    lines = [f"{counted(review.nights, 'night')}, {dates_text(review.first, review.last)}"
             if review.first and review.last else "No nights: nothing would change"]
    if review.rooms:
        lines.append(f"Room types: {', '.join(review.rooms)}")
    if review.plans:
        lines.append(f"Rate plans: {', '.join(review.plans)}")
    for change in review.changes:
        flag = change.field in ("stop_sell", "closed_to_arrival", "closed_to_departure")
        currency = f" {change.currency}" if change.currency else ""
        lines.append(f"{FIELD_LABELS[change.field]}: {span_text(change.now, flag)} → "
                     f"{span_text(change.then, flag)}{currency}")
    if review.many_nights:
        lines.append(f"Asked because it is more than {ASK_ABOVE_NIGHTS} nights.")
    if jump := review.rate_jump:
        lines.append(f"Asked because the rate of {day_text(date.fromisoformat(jump.day))} goes from {jump.now} to "
                     f"{jump.then} {jump.currency} ({'+' if jump.percent > 0 else '−'}{abs(jump.percent)}%).")
    lines.extend(plain(warning["message"]) for warning in review.warnings)
    return "\n".join(lines)


def edited(verb: str, undo: Undo, warnings: list[dict[str, Any]]) -> str:
    """The status line's words for a range edit ("Saved"), its undo ("Undone") or its redo ("Redone"): what was
    written, the key that takes it back, and the engine's warnings."""
    days = undo.dates
    if not days:
        text = f"{verb}: nothing changed"
    else:
        what = f"{counted(len(days), 'night')} of {', '.join(dict.fromkeys(n.title for n in undo.nights))}"
        text = f"{verb} {what} · u {'redoes' if verb == 'Undone' else 'undoes'}"
    return f"{text} · {'; '.join(plain(w['message']) for w in warnings)}" if warnings else text
