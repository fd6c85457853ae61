"""Reviews: guests' reviews from Airbnb and Booking.com, newest first, those not answered yet marked; beside the
list the review being read (its scores as bars, its text, the reply and where it stands), the stay it is of (`b`
opens the booking, as in the Inbox) and a box for the reply, with the saved-reply picker (ctrl+r). On an Airbnb
review `g` writes the host's review of the guest; `s` shows a property's scores as a chart.

The filter bar narrows the list to a property, a channel, a range of scores, the unanswered ones. Engine events
reach the screen as DataChanged, which re-reads the list and the review on show: a reply's state follows the
channel (waiting, delivered, refused) by itself.

The layout follows the width as the Inbox's does: under 100 columns the list takes the whole width and enter opens
the review in its place (esc goes back), and the stay shows over it with `i`; from 100 the two sit side by side,
the stay above the review; from 160 the stay has a column of its own.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable

from backend.core.listing import Filter, ListQuery
from console.kit.area import PAGE_SIZE, AreaScreen, FilteredArea, PropertiesFound
from console.kit.choice import Choice
from console.kit.messages import ActionDone
from console.kit.reply_picker import ReplyPicker
from console.kit.toggles import Checkbox
from console.kit.words import CHANNELS, channel
from console.kit.workers import engine_work, post_fresh
from console.reviews.detail import ReviewPane, StayLoaded
from console.reviews.keys import REVIEWS
from console.reviews.words import answerable, can_review_guest, review_cells

# The score filter's choices: (words, (operator, value)) on the overall score out of 10.
SCORE_RANGES = [("9 or more", ("gte", "9")), ("7 or more", ("gte", "7")), ("6 or less", ("lte", "6")),
                ("4 or less", ("lte", "4"))]


class ReviewLoaded(Message):
    def __init__(self, review: dict[str, Any]) -> None:
        super().__init__()
        self.review = review


class ReplySent(Message):
    def __init__(self, review: dict[str, Any]) -> None:
        super().__init__()
        self.review = review


class RepliesFound(Message):
    """The saved replies of a review's property, filled in for its guest: the picker opens on them."""

    def __init__(self, guest: str, templates: list[dict[str, Any]]) -> None:
        super().__init__()
        self.guest = guest
        self.templates = templates


class ReviewsScreen(FilteredArea, AreaScreen):
    WATCHES = ("review.", "property.", "booking.", "saved_reply.")
    AREA = "reviews"
    NOUNS = ("review", "reviews")
    COLUMNS = (("", 1), ("Review", 34), ("Score", 11))
    FLEX = "Review"
    ROW_HEIGHT = 2

    BINDINGS = REVIEWS

    def __init__(self) -> None:
        super().__init__()
        self.filters: list[Filter] = []
        self.unanswered_only = False
        self.footer_keys: tuple[bool, ...] = ()  # what the footer was last refreshed for

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="rv-toolbar", classes="filters"):
            yield self.make_property_filter("rv-property")
            yield Choice([(words, code) for code, words in CHANNELS.items()], prompt="any channel", id="rv-channel")
            yield Choice(SCORE_RANGES, prompt="any score", id="rv-score")
            yield Checkbox("Unanswered", id="rv-unanswered", compact=True)
        with Horizontal(id="reviews-body"):
            with Vertical(id="rv-list-pane"):
                yield self.make_table()
            yield ReviewPane()

    @property
    def pane(self) -> ReviewPane:
        return self.query_one(ReviewPane)

    def on_descendant_focus(self, _: events.DescendantFocus) -> None:
        """Under 100 columns the review takes the list's place while the focus is in it."""
        reading = self.focused is not None and self.pane in self.focused.ancestors_with_self
        if reading != self.has_class("-reading"):
            self.set_class(reading, "-reading")
            self.refresh_bindings()

    # --- the list ----------------------------------------------------------------------------

    def list_filters(self) -> list[Filter]:
        filters = list(self.filters)
        if self.unanswered_only:
            filters.append(Filter("is_replied", "eq", "false"))
        return filters

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        # The property filter's choices: every property of the account (reviews need no application).
        self.post_message(PropertiesFound({p["id"]: p["title"] for p in engine.reviews.properties(actor)}))
        return engine.reviews.list(actor, ListQuery(page=number, limit=PAGE_SIZE, filters=self.list_filters()))

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return review_cells(row)

    def page_shown(self) -> None:
        if not self.rows:
            self.pane.clear("No review matches the filters.")
        elif (review := self.pane.review) is not None and review["id"] in self.rows:
            self.pane.show(self.rows[review["id"]])  # as the list read it now: a reply's state may have moved on
        elif (row := self.current_row()) is not None:
            self.pane.show(row)  # as the list just read it: the footer's keys are the review's at once
        self.update_footer()

    def where(self) -> str:
        found = super().where()
        shown = []
        if self.unanswered_only:
            shown.append("not answered")
        for f in self.filters:
            if f.field == "property_id":
                shown.append(self.property_titles.get(f.value, "one property"))
            elif f.field == "ota":
                shown.append(channel(f.value))
            elif f.field == "overall_score":
                shown.append(f"scores {'from' if f.op == 'gte' else 'up to'} {f.value}")
        return f"{found} · " + ", ".join(shown) if shown else found

    # --- filters -----------------------------------------------------------------------------

    def apply_filters(self) -> None:
        """Read the filter bar into engine filters; the list starts again at page 1."""
        filters = []
        for widget_id, field in (("#rv-property", "property_id"), ("#rv-channel", "ota")):
            value = self.query_one(widget_id, Choice).value
            if value is not None:
                filters.append(Filter(field, "eq", str(value)))
        score = self.query_one("#rv-score", Choice).value
        if score is not None:
            filters.append(Filter("overall_score", *score))
        self.filters = filters
        self.unanswered_only = self.query_one("#rv-unanswered", Checkbox).value
        self.restart()

    def action_toggle_unanswered(self) -> None:
        self.query_one("#rv-unanswered", Checkbox).toggle()

    # --- keys --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that would do nothing now stay out of the footer."""
        if not self.is_mounted:
            return True
        pane = self.pane
        writing = self.focused is pane.reply_box
        review = pane.review
        reading = not self.has_class("-narrow") or self.has_class("-reading")  # the review is on screen
        shown = {"back": not self.table.has_focus, "send": writing, "saved_reply": writing,
                 "page": self.page.count > 1,
                 "open_booking": reading and not writing and bool(review and review["booking_id"]),
                 "toggle_stay": reading and not writing and pane.stay is not None,
                 "guest_review": not writing and review is not None and can_review_guest(review),
                 "scores": not writing and review is not None,
                 "open": not writing and review is not None and answerable(review),
                 "toggle_unanswered": not writing}
        return shown.get(action, True)

    def update_footer(self) -> None:
        """Refresh the footer when a key of `check_action` comes or goes, and only then."""
        review = self.pane.review
        keys = (self.page.count > 1, bool(review and review["booking_id"]), self.pane.stay is not None,
                bool(review and can_review_guest(review)),
                bool(review and answerable(review)))
        if keys != self.footer_keys:
            self.footer_keys = keys
            self.refresh_bindings()

    def action_back(self) -> None:
        """Back to the list; under 100 columns, from the reply box to the review first (where i, b and g work), as
        the list is not on screen."""
        if self.has_class("-narrow") and self.focused is self.pane.reply_box:
            self.pane.query_one("#rv-review").focus()
        else:
            self.table.focus()

    def action_toggle_stay(self) -> None:
        """Under 100 columns the stay is hidden until asked for; wider, it shows until hidden."""
        self.toggle_class("-stay-on" if self.has_class("-narrow") else "-stay-off")

    def action_open_booking(self) -> None:
        review = self.pane.review
        if review is None or not review["booking_id"]:
            self.app.bell()
            return
        self.app.open_booking(review["booking_id"])

    def action_scores(self) -> None:
        """The scores of the property the list is narrowed to, else of the review's."""
        from console.reviews.scores import ScoresDialog  # loaded when first asked, as is the guest review's form

        review = self.pane.review
        chosen = self.query_one("#rv-property", Choice).value
        if chosen is not None:
            self.app.push_screen(ScoresDialog(chosen, self.property_titles.get(chosen, "the property")))
        elif review is not None:
            self.app.push_screen(ScoresDialog(review["property_id"], review["property_title"]))
        else:
            self.app.bell()

    # --- one review --------------------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value:
            self.load_review(event.row_key.value)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        """The review, and the reply box when it takes a reply."""
        row = self.current_row()
        if row is None:
            return
        self.load_review(row["id"])
        box = self.pane.reply_box
        if answerable(row):
            box.disabled = False
            box.focus()
        else:
            self.pane.query_one("#rv-review").focus()

    @engine_work(exclusive=True, group="review")
    def load_review(self, review_id: str) -> None:
        post_fresh(self, ReviewLoaded(self.app.engine.reviews.get(self.app.actor(), review_id)))

    def on_review_loaded(self, message: ReviewLoaded) -> None:
        if message.review["id"] == self.current_id():
            self.pane.show(message.review)
            self.update_footer()

    def on_stay_loaded(self, _: StayLoaded) -> None:
        """After the pane has shown it: `b` and `i` come and go with a stay."""
        self.update_footer()

    def action_send(self) -> None:
        review = self.pane.review
        text = self.pane.reply_box.text
        if review is None or not text.strip():
            self.app.bell()
            return
        self.send_reply(review, text)

    @engine_work(group="action")
    def send_reply(self, review: dict[str, Any], text: str) -> None:
        replied = self.app.engine.reviews.reply(self.app.actor(), review["id"], {"reply": text})
        self.post_message(ReplySent(replied))
        self.post_message(ActionDone(f"Reply to {review['guest_name'] or 'the guest'} sent: waiting for the channel"))

    def on_reply_sent(self, message: ReplySent) -> None:
        self.pane.sent(message.review["id"])
        if self.pane.review and self.pane.review["id"] == message.review["id"]:
            self.pane.show(message.review)
        self.pane.query_one("#rv-review").focus()  # where the reply now shows, waiting for the channel
        self.reload()

    def action_saved_reply(self) -> None:
        if review := self.pane.review:
            self.find_replies(review)

    @engine_work(exclusive=True, group="replies")
    def find_replies(self, review: dict[str, Any]) -> None:
        templates = self.app.engine.message_templates.for_guest(self.app.actor(), review["property_id"],
                                                                review["guest_name"], review["booking_id"])
        post_fresh(self, RepliesFound(review["guest_name"] or "the guest", templates))

    def on_replies_found(self, message: RepliesFound) -> None:
        box = self.pane.reply_box

        def chosen(text: str | None) -> None:
            if text:
                box.insert(text)
            box.focus()

        self.app.push_screen(ReplyPicker(message.guest, message.templates), chosen)

    def action_guest_review(self) -> None:
        review = self.pane.review
        if review is None or not can_review_guest(review):
            self.app.bell()
            return
        # Loaded when first asked: its form's modules were a tenth of the area's first opening.
        from console.reviews.guest_review import GuestReviewForm

        self.app.push_screen(GuestReviewForm(review), lambda _: self.reload())
