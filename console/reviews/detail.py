"""The review being read: who wrote it, from which channel about which property, when, its scores as bars, its
text, the reply and where it stands (and on Airbnb, the host's review of the guest); the stay it is of beside it,
as the Inbox shows a conversation's (b opens the booking); and the box a reply is written in.

A widget: the screen reads the review (`show`); the stay is read here, afresh each time, as the booking may have
changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static, TextArea

from console.kit.stay import booking_view
from console.kit.text_box import TextBox
from console.kit.words import channel, when
from console.kit.workers import engine_work, post_fresh
from console.reviews.chart import chart, review_rows
from console.reviews.words import answerable, guest_review_state, reply_state, score_style, score_text

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

REPLY_PLACEHOLDER = "Write a public reply… (ctrl+s sends it, ctrl+r picks a saved reply)"
BAR_WIDTH = 16


class StayLoaded(Message):
    def __init__(self, booking_id: str, stay: dict[str, Any] | None) -> None:
        super().__init__()
        self.booking_id = booking_id
        self.stay = stay


def header(review: dict[str, Any]) -> Text:
    """Two lines: the guest and the overall score, then where and when the review came from."""
    text = Text(review["guest_name"] or "A guest", style="bold")
    text.append(f"  {score_text(review['overall_score'])}", style=score_style(review["overall_score"]))
    if review["overall_score"] is not None:
        text.append(" / 10", style="dim")
    text.append(f"\n{channel(review['ota'])} · {review['property_title']} · {when(review['received_at'])}", style="dim")
    return text


def review_view(review: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [header(review), Text()]
    if review["scores"]:
        parts += [chart(review_rows(review), BAR_WIDTH), Text()]
    parts.append(Text(review["content"]) if review["content"] else Text("The guest wrote no text.", style="italic"))
    if review["tags"]:
        parts.append(Text(" · ".join(tag_words(tag) for tag in review["tags"]), style="dim"))
    parts += [Text(), reply_state(review)]
    if review["reply"]:
        refused = review["reply_state"] == "failed"
        reply = Text(review["reply"], style="dim" if refused else "")
        if review["reply_sent_at"] and not refused:
            reply.append(f"\nreached the channel {when(review['reply_sent_at'])}", style="dim")
        parts.append(reply)
    if (mine := guest_review_state(review)) is not None:
        parts += [Text(), mine]
    return Group(*parts)


def tag_words(tag: str) -> str:
    """An Airbnb tag code as words: guest_review_host_positive_spotless_furniture_and_linens → "spotless furniture
    and linens"."""
    for kind in ("positive", "negative"):
        _, found, rest = tag.partition(f"_{kind}_")
        if found:
            return rest.replace("_", " ")
    return tag.replace("_", " ")


class ReviewPane(Vertical):
    app: ConsoleApp

    def __init__(self) -> None:
        super().__init__(id="rv-reading")
        self.review: dict[str, Any] | None = None
        self.stay: dict[str, Any] | None = None
        self.drafts: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static("", id="rv-stay", markup=False)
        with VerticalScroll(id="rv-review"):
            yield Static("Pick a review on the left.", id="rv-text", markup=False)
        yield TextBox(id="rv-reply", placeholder=REPLY_PLACEHOLDER, disabled=True)

    @property
    def reply_box(self) -> TextArea:
        return self.query_one("#rv-reply", TextArea)

    def show(self, review: dict[str, Any]) -> None:
        """Show a review (or the same one again, changed); the draft of each review waits for its return."""
        box = self.reply_box
        if self.review is None or self.review["id"] != review["id"]:
            if self.review is not None:
                self.drafts[self.review["id"]] = box.text
            draft = self.drafts.pop(review["id"], "")
            if draft != box.text:
                box.load_text(draft)
            self.query_one("#rv-review", VerticalScroll).scroll_home(animate=False)
        self.review = review
        self.query_one("#rv-text", Static).update(review_view(review))
        open_ = answerable(review)
        box.disabled = not open_
        box.placeholder = REPLY_PLACEHOLDER if open_ else "This review takes no reply now: see above."
        self.follow_stay(review["booking_id"])

    def clear(self, note: str) -> None:
        if self.review is not None:
            self.drafts[self.review["id"]] = self.reply_box.text
        self.review = None
        self.query_one("#rv-text", Static).update(note)
        self.reply_box.load_text("")
        self.reply_box.disabled = True
        self.follow_stay(None)

    def sent(self, review_id: str) -> None:
        """The reply went to the engine: its draft is done with."""
        self.drafts.pop(review_id, None)
        if self.review and self.review["id"] == review_id:
            self.reply_box.load_text("")

    # --- the stay ------------------------------------------------------------------------------

    def follow_stay(self, booking_id: str | None) -> None:
        if booking_id is None:
            self.show_stay(None)
        else:
            self.load_stay(booking_id)

    @engine_work(exclusive=True, group="review-stay")
    def load_stay(self, booking_id: str) -> None:
        post_fresh(self, StayLoaded(booking_id, self.app.engine.thread_stays.booking(self.app.actor(), booking_id)))

    def on_stay_loaded(self, message: StayLoaded) -> None:
        if self.review and self.review["booking_id"] == message.booking_id:
            self.show_stay(message.stay)

    def show_stay(self, stay: dict[str, Any] | None) -> None:
        self.stay = stay
        panel = self.query_one("#rv-stay", Static)
        panel.set_class(stay is not None, "-shown")
        if stay is None:
            panel.update("")
            return
        panel.border_title = Text(f"Booking {stay['unique_id']}")
        panel.border_subtitle = "b opens it"
        panel.update(booking_view(stay))
