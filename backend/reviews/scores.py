"""A property's scores (reference §8, `type: "score"`), kept as counts and sums per channel and category in the
transaction of every review written (review_counts, review_scores), so that reading them never scans reviews.

Sums are in hundredths of a point, integers: adding a review and taking it away again (when the channel changes it)
leaves exactly what was there. A score is the mean of the reviews that give one, to two decimals; `count` is every
review, scored or not.
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic_core import from_json

from backend.reviews.store import add_counts, add_scores
from storage import Connection, Row


def hundredths(value: float) -> int:
    return round(value * 100)


def tally(conn: Connection, review: Row | dict[str, Any], sign: int, now: str) -> None:
    """Count the review in (`sign` 1) or out (-1) of its property's scores, in the caller's transaction."""
    overall = review["overall_score"]
    add_counts(conn, review["property_id"], review["channel_id"], review["ota"],
               (sign, sign * (1 - int(review["is_replied"])), sign * (overall is not None),
                sign * hundredths(overall) if overall is not None else 0), now)
    scores = from_json(review["scores"])
    if scores:
        add_scores(conn, review["property_id"], review["channel_id"],
                   [(s["category"], sign, sign * hundredths(s["score"])) for s in scores])


def _mean(total: int, count: int) -> float | None:
    return round(total / count / 100, 2) if count else None


def _categories(rows: list[Row]) -> dict[str, dict[str, Any]]:
    sums: dict[str, list[int]] = {}
    for r in rows:
        counted = sums.setdefault(r["category"], [0, 0])
        counted[0] += r["count"]
        counted[1] += r["total"]
    return {name: {"count": count, "score": _mean(total, count)} for name, (count, total) in sorted(sums.items())}


def score(prop: Row, counts: list[Row], categories: list[Row], detailed: bool) -> dict[str, Any]:
    """The property's score from its counts; `detailed` adds one score per channel (`ota_scores`)."""
    made: dict[str, Any] = {
        "id": prop["id"], "property_id": prop["id"], "property_title": prop["title"],
        "count": sum(c["reviews"] for c in counts),
        "overall_score": _mean(sum(c["score_total"] for c in counts), sum(c["scored"] for c in counts)),
        "scores": _categories(categories),
        "inserted_at": min((c["inserted_at"] for c in counts), default=None),
        "updated_at": max((c["updated_at"] for c in counts), default=None)}
    if detailed:
        made["ota_scores"] = [{
            "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"frontdesk:ota_score:{prop['id']}:{c['channel_id']}")),
            "channel_id": c["channel_id"], "ota": c["ota"], "count": c["reviews"],
            "overall_score": _mean(c["score_total"], c["scored"]),
            "scores": _categories([s for s in categories if s["channel_id"] == c["channel_id"]])} for c in counts]
    return made
