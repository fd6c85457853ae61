"""The host's review of an Airbnb guest (`g` on an Airbnb review): a rating of 1 to 5 for respect of the house
rules, communication and cleanliness, a public review, a private note to the guest, and whether staff would host
them again. Sent whole through the engine (`reviews.guest_review`), which refuses what Airbnb would; its messages
show beside the fields they name, as in every editor. Airbnb takes one such review, so the form has no edit."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid

from backend.identity.models import Actor
from console.kit.form_editor import FormEditor
from console.kit.section import Section
from console.reviews.keys import GUEST_REVIEW

# The categories Airbnb asks a host to rate, in its order, as staff read them.
RATED = (("respect_house_rules", "House rules"), ("communication", "Communication"),
         ("cleanliness", "Cleanliness"))
STARS = [(f"{'★' * n}{'☆' * (5 - n)} {n}", n) for n in range(5, 0, -1)]
AGAIN = [("Yes, I would host them again", True), ("No", False)]


class GuestReviewSender:
    """The form's "record service": sending creates the guest review of one review."""

    def __init__(self, form: GuestReviewForm) -> None:
        self.form = form

    def create(self, actor: Actor, data: dict[str, Any]) -> dict[str, Any]:
        return self.form.app.engine.reviews.guest_review(actor, self.form.review["id"], data)

    def update(self, actor: Actor, record_id: str, data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError  # never called: the form only creates


class GuestReviewForm(FormEditor):
    AREA = "reviews"
    NOUN = "review of the guest"
    LABELS = {**{f"scores.{index}.rating": words for index, (_, words) in enumerate(RATED)},
              "public_review": "Public review", "private_review": "Private note to the guest",
              "is_reviewee_recommended": "Would you host them again?"}
    BINDINGS = GUEST_REVIEW

    def __init__(self, review: dict[str, Any]) -> None:
        self.review = review
        guest = review["guest_name"] or "the guest"
        super().__init__(None, {}, f"{guest} › Review the guest on Airbnb")

    def service(self) -> GuestReviewSender:
        return GuestReviewSender(self)

    def build(self) -> None:
        for index in range(len(RATED)):
            self.choice(f"scores.{index}.rating", STARS, prompt="choose")
        self.long_text("public_review", "shown on the guest's Airbnb profile")
        self.long_text("private_review", "only the guest reads it")
        self.choice("is_reviewee_recommended", AGAIN, prompt="choose")

    def sections(self) -> ComposeResult:
        f = self.fields
        yield Section("Ratings", Grid(*(f[f"scores.{index}.rating"] for index in range(len(RATED))), classes="fields"),
                      hint="how the guest kept them, 1 to 5 stars")
        yield Section("Your words", f["public_review"], f["private_review"], f["is_reviewee_recommended"])

    def payload(self) -> dict[str, Any]:
        f = self.fields
        return {"scores": [{"category": name, "rating": f[f"scores.{index}.rating"].value}
                           for index, (name, _) in enumerate(RATED)],
                "public_review": f["public_review"].value, "private_review": f["private_review"].value,
                "is_reviewee_recommended": f["is_reviewee_recommended"].value, "tags": []}

    def saved_text(self, record: dict[str, Any]) -> str:
        return f"Review of {self.review['guest_name'] or 'the guest'} sent to Airbnb: waiting for the channel"
