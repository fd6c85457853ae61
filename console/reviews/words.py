"""How the Reviews area writes a review: channels, score categories and where a reply stands, in the words staff
read (never the API's field names). Pure functions, easy to test."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from console.kit.words import channel, day, one_line

# The engine's score categories (and Airbnb's own name for one of them), as staff read them.
CATEGORIES = {"clean": "Cleanliness", "cleanliness": "Cleanliness", "comfort": "Comfort", "facilities": "Facilities",
              "location": "Location", "services": "Services", "staff": "Staff", "value": "Value for money",
              "accuracy": "Accuracy", "communication": "Communication", "checkin": "Check-in"}
UNANSWERED = "●"
PREVIEW = 300  # characters of a review's text the list keeps: it shows one line of it


def category(name: str) -> str:
    return CATEGORIES.get(name, name.replace("_", " ").capitalize())


def score_text(score: float | None) -> str:
    """"9.2", "10"; "–" for a review that gave no overall score."""
    if score is None:
        return "–"
    return f"{score:.1f}".removesuffix(".0")


def score_style(score: float | None) -> str:
    """Green for a good score, yellow for a middling one, red for a poor one (out of 10)."""
    if score is None:
        return "dim"
    return "bold green" if score >= 8 else "bold yellow" if score >= 6 else "bold red"


def answerable(review: dict[str, Any]) -> bool:
    """A reply can be written now: none yet (or the last one refused by the channel), not hidden, not expired, the
    channel still there (the engine refuses the rest)."""
    return not (review["is_replied"] or review["is_hidden"] or review["is_expired"] or review["channel_id"] is None)


def reply_state(review: dict[str, Any]) -> Text:
    """Where the answer to a review stands, in a few words."""
    state = review["reply_state"]
    if state == "pending":
        return Text("◷ Reply waiting for the channel", style="bold yellow")
    if state == "delivered":
        return Text("✓ Reply delivered", style="green")
    if review["is_expired"]:
        return Text("Too late to answer: the channel takes no reply now", style="dim")
    if review["channel_id"] is None:
        return Text("The review's channel is gone: no reply can reach the guest", style="dim")
    if review["is_hidden"]:
        return Text("Hidden until you review the guest (g): then you can answer", style="italic")
    if state == "failed":
        return Text(f"✕ The channel refused the reply ({review.get('reply_error') or 'no reason given'}): write it "
                    "again", style="bold red")
    return Text(f"{UNANSWERED} Not answered yet", style="bold")


def can_review_guest(review: dict[str, Any]) -> bool:
    """Airbnb takes one review of the guest from the host (again once it refused one), until the review expires."""
    mine = review["guest_review"]
    return (review["ota"] == "AirBNB" and not review["is_expired"] and review["channel_id"] is not None
            and (mine is None or mine.get("state") == "failed"))


GUEST_REVIEW_STATES = {"pending": ("◷ waiting for the channel", "bold yellow"), "delivered": ("✓ delivered", "green"),
                       "failed": ("✕ refused by the channel", "bold red")}


def guest_review_state(review: dict[str, Any]) -> Text | None:
    """Airbnb only: whether the host has reviewed the guest, and where that review stands."""
    if review["ota"] != "AirBNB":
        return None
    mine = review["guest_review"]
    if not mine:
        return Text("You have not reviewed the guest yet" + (" · g writes it" if can_review_guest(review) else ""),
                    style="dim")
    words, style = GUEST_REVIEW_STATES.get(mine.get("state") or "", ("sent", ""))
    text = Text(f"Your review of the guest: {words}", style=style)
    if mine.get("state") == "failed":
        text.append(f" ({mine.get('error') or 'no reason given'}) · g writes it again", style="")
    if mine.get("public_review"):
        text.append(f"\n{mine['public_review']}", style="")
    return text


def list_state(review: dict[str, Any]) -> str | None:
    """Where the answer stands, in the list's few words; None for a reply delivered."""
    state = review["reply_state"]
    if state == "pending":
        return "Reply waiting"
    if review["is_replied"]:
        return None
    if review["is_expired"]:
        return "Too late to answer"
    if review["is_hidden"]:
        return "Hidden"
    return "Reply refused" if state == "failed" else "Not answered yet"


def review_cells(review: dict[str, Any]) -> tuple[Text, Text, Text]:
    """Two lines a review: the guest (bold while unanswered) with channel and property, then its text or where it
    stands; the overall score and the day it came."""
    open_ = not review["is_replied"]
    mark = Text(UNANSWERED if open_ else " ", style="bold")
    who = Text(review["guest_name"] or "A guest", style="bold" if open_ else "", overflow="ellipsis", no_wrap=True)
    who.append(f"  {channel(review['ota'])} · {review['property_title']}", style="dim")
    who.append("\n")
    if (state := list_state(review)) is not None:
        who.append(f"{state} · ", style="italic")
    text = one_line((review["content"] or "")[:PREVIEW])
    who.append(text or "no text, scores only", style="" if open_ else "dim")
    score = Text.assemble((score_text(review["overall_score"]), score_style(review["overall_score"])), "\n",
                          (day(review["received_at"][:10]), "dim"), justify="right")
    return mark, who, score
