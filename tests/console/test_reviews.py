"""Reviews in the console, over the demo's reviews and the real engine: the list newest first with the unanswered
marked, its filters, a reply sent and its state as the channel takes it, the saved-reply picker, the host's review
of an Airbnb guest (on Airbnb only), `b` to the review's booking and a property's scores as a chart; snapshots at
120×40 and 80×24."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from backend.core.errors import Unauthorized
from backend.core.listing import Filter, ListQuery
from backend.engine import Engine
from console.bookings.detail import BookingDetailScreen
from console.kit.choice import Choice
from console.kit.reply_picker import ReplyPicker
from console.reviews.chart import bar
from console.reviews.guest_review import GuestReviewForm
from console.reviews.scores import ScoresDialog
from console.reviews.screen import ReviewsScreen
from console.reviews.words import answerable
from tests.console.helpers import (
    SIZE,
    error_text,
    frozen_clock,
    press_for,
    run_command,
    settle,
    tab_count,
    type_text,
    until,
)

pytestmark = pytest.mark.anyio

NARROW = (80, 24)
BOTH = pytest.mark.parametrize("size", [SIZE, NARROW], ids=["120x40", "80x24"])


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the demo's reviews are dated back from the clock


def operator(engine: Engine):
    return engine.identity.operator()


def everyone(engine: Engine, *filters: Filter) -> list[dict[str, Any]]:
    rows, _ = engine.reviews.list(operator(engine), ListQuery(limit=100, filters=list(filters)))
    return rows


def review_of(engine: Engine, guest: str) -> dict[str, Any]:
    return next(r for r in everyone(engine) if r["guest_name"] == guest)


def adapter(engine: Engine, review: dict[str, Any]):
    """The channel's side, as its adapter reaches the engine."""
    return engine.store.one("SELECT * FROM channels WHERE id = ?", (review["channel_id"],))


def text_of(widget: Static) -> str:
    console = Console(width=200, record=True)
    console.print(widget.content)
    return " ".join(console.export_text().split())


def guests(screen: ReviewsScreen) -> list[str]:
    return [row["guest_name"] for row in screen.rows.values()]


async def open_reviews(pilot: Pilot, guest: str | None = None) -> ReviewsScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewsScreen)
    if guest:
        row_id = next(key for key, row in screen.rows.items() if row["guest_name"] == guest)
        screen.table.move_cursor(row=screen.table.get_row_index(row_id))
        await settle(pilot)
    return screen


def shown(screen: ReviewsScreen) -> str:
    return text_of(screen.pane.query_one("#rv-text", Static))


async def choose(pilot: Pilot, choice: Choice, words: str) -> None:
    choice.value = next(value for label, value in choice.options if label == words)
    await settle(pilot)


# --- the list -------------------------------------------------------------------------------------

async def test_newest_first_with_the_unanswered_marked(engine: Engine, make_app) -> None:
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot)
        rows = list(screen.rows.values())
        assert len(rows) == len(everyone(engine)) > 5
        assert [r["received_at"] for r in rows] == sorted((r["received_at"] for r in rows), reverse=True)
        marks = [screen.table.get_row_at(index)[0].plain for index in range(len(rows))]
        assert marks == ["●" if not r["is_replied"] else " " for r in rows]
        assert {True, False} == {r["is_replied"] for r in rows}
        lines = {r["guest_name"]: screen.table.get_row_at(index)[1].plain.split("\n")[1] for index, r in enumerate(rows)}
        assert lines["Marco Rossi"].startswith("Not answered yet · ")  # Booking.com, unanswered
        assert lines["Lucía García"].startswith("Hidden · ")  # Airbnb, until the host reviews her
        assert lines["João Silva"].startswith("Too late to answer · ")
        assert lines["Felix Koch"].startswith("Reply waiting · ")  # answered, not yet on the channel
        assert lines["Anna Müller"] == review_of(engine, "Anna Müller")["content"]  # answered and delivered
        assert screen.status.place == f"Page 1 of 1 · {len(rows)} reviews"


async def test_the_reviews_tab_counts_the_reviews_to_answer_from_every_area(engine: Engine, make_app) -> None:
    """Those a reply can still reach, as the area offers a reply to (not hidden, not too late), kept live from another
    area and from another process."""
    to_answer = [r for r in everyone(engine) if answerable(r)]
    assert 0 < len(to_answer) < sum(not r["is_replied"] for r in everyone(engine))
    async with make_app().run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert tab_count(pilot, "7 Reviews") == len(to_answer)
        other = Engine.open(engine.location, engine.config)
        other.reviews.reply(operator(other), to_answer[0]["id"], {"reply": "Thank you!"})
        await until(pilot, lambda: tab_count(pilot, "7 Reviews") == len(to_answer) - 1)
        marco = review_of(engine, "Marco Rossi")
        engine.reviews.receive(adapter(engine, marco), {
            "ota_review_id": "NEW-1", "property_id": marco["property_id"], "guest_name": "Ada Lovelace",
            "overall_score": 8.0, "content": "Quiet and clean.", "received_at": "2026-11-21T08:00:00Z"})
        await until(pilot, lambda: tab_count(pilot, "7 Reviews") == len(to_answer))
        other.close()


async def test_seven_and_the_palette_open_reviews(make_app) -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press_for(pilot, "7", ReviewsScreen)
        await pilot.press("1")
        await settle(pilot)
        await run_command(pilot, "reviews")
        assert isinstance(pilot.app.screen, ReviewsScreen)


async def test_filters_narrow_the_list_as_the_engine_does(engine: Engine, make_app) -> None:
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot)
        await choose(pilot, screen.query_one("#rv-channel", Choice), "Airbnb")
        assert guests(screen) == [r["guest_name"] for r in everyone(engine, Filter("ota", "eq", "AirBNB"))]
        assert {r["ota"] for r in screen.rows.values()} == {"AirBNB"} and "Airbnb" in screen.status.place

        await choose(pilot, screen.query_one("#rv-channel", Choice), "Booking.com")
        await choose(pilot, screen.query_one("#rv-score", Choice), "9 or more")
        scores = [r["overall_score"] for r in screen.rows.values()]
        assert scores and all(score >= 9 for score in scores) and {r["ota"] for r in screen.rows.values()} == {
            "BookingCom"}
        assert len(scores) == len(everyone(engine, Filter("ota", "eq", "BookingCom"),
                                           Filter("overall_score", "gte", "9")))
        assert "scores from 9" in screen.status.place

        await choose(pilot, screen.query_one("#rv-score", Choice), "6 or less")
        assert all(r["overall_score"] <= 6 for r in screen.rows.values())

        screen.query_one("#rv-channel", Choice).clear()
        screen.query_one("#rv-score", Choice).clear()
        await settle(pilot)
        edelweiss = review_of(engine, "Anna Müller")["property_id"]
        await choose(pilot, screen.query_one("#rv-property", Choice), "Hotel Edelweiss")
        assert guests(screen) == [r["guest_name"] for r in everyone(engine, Filter("property_id", "eq", edelweiss))]
        assert "Hotel Edelweiss" in screen.status.place

        screen.query_one("#rv-property", Choice).clear()
        await settle(pilot)
        await pilot.press("u")  # unanswered only
        await settle(pilot)
        unanswered = everyone(engine, Filter("is_replied", "eq", "false"))
        assert guests(screen) == [r["guest_name"] for r in unanswered] and len(unanswered) < len(everyone(engine))
        assert "not answered" in screen.status.place


# --- one review -----------------------------------------------------------------------------------

async def test_a_review_shows_its_scores_text_and_reply(engine: Engine, make_app) -> None:
    anna = review_of(engine, "Anna Müller")  # Booking.com, 9.6, answered and delivered
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Anna Müller")
        text = shown(screen)
        assert "Anna Müller 9.6 / 10" in text and "Booking.com · Hotel Edelweiss" in text
        for words in ("Cleanliness", "Comfort", "Facilities", "Location", "Services", "Staff", "Value for money"):
            assert words in text
        assert "clean" not in text.replace("Cleanliness", "")  # the staff's words, not the engine's
        assert anna["content"] in text and "✓ Reply delivered" in text and anna["reply"] in text
        assert screen.pane.reply_box.disabled  # a review takes one reply


async def test_a_reply_is_sent_and_shows_its_state_as_the_channel_takes_it(engine: Engine, make_app) -> None:
    marco = review_of(engine, "Marco Rossi")
    assert not marco["is_replied"]
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Marco Rossi")
        assert "● Not answered yet" in shown(screen)
        await pilot.press("r")
        assert pilot.app.focused is screen.pane.reply_box
        await type_text(pilot, "Grazie mille, Marco!")
        await pilot.press("ctrl+s")
        await settle(pilot)
        stored = engine.reviews.get(operator(engine), marco["id"])
        assert stored["reply"] == "Grazie mille, Marco!" and stored["reply_state"] == "pending"
        assert "◷ Reply waiting for the channel" in shown(screen) and screen.pane.reply_box.disabled
        assert screen.pane.reply_box.text == ""
        index = screen.table.get_row_index(marco["id"])
        assert screen.table.get_row_at(index)[0].plain == " "  # no longer marked
        assert "Reply waiting" in screen.table.get_row_at(index)[1].plain

        engine.reviews.delivered(adapter(engine, marco), marco["id"], "reply")  # the channel's adapter
        await until(pilot, lambda: "✓ Reply delivered" in shown(screen))


async def test_a_refused_reply_says_why_and_can_be_written_again(engine: Engine, make_app) -> None:
    marco = review_of(engine, "Marco Rossi")
    engine.reviews.reply(operator(engine), marco["id"], {"reply": "Grazie!"})
    engine.reviews.failed(adapter(engine, marco), marco["id"], "reply", {"error": "reply too short"})
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Marco Rossi")
        assert "✕ The channel refused the reply (reply too short): write it again" in shown(screen)
        assert not screen.pane.reply_box.disabled


async def test_a_hidden_or_expired_review_takes_no_reply(engine: Engine, make_app) -> None:
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Lucía García")  # Airbnb, hidden until the host reviews her
        assert "Hidden until you review the guest (g)" in shown(screen) and screen.pane.reply_box.disabled
        screen = await open_reviews(pilot, "João Silva")  # too old
        assert "Too late to answer" in shown(screen) and screen.pane.reply_box.disabled
        await pilot.press("ctrl+s")
        assert engine.reviews.get(operator(engine), review_of(engine, "João Silva")["id"])["reply"] is None


@pytest.mark.usefixtures("no_saved_replies")
async def test_the_saved_reply_picker_fills_in_the_reviews_guest(engine: Engine, make_app) -> None:
    marco = review_of(engine, "Marco Rossi")
    engine.message_templates.create(operator(engine), {"title": "Thanks for the review",
                                                       "message": "Dear {guest_first_name}, thank you for staying at "
                                                                  "{property}.", "property_id": marco["property_id"]})
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Marco Rossi")
        await pilot.press("r")
        picker = await press_for(pilot, "ctrl+r", ReplyPicker)
        assert picker.guest == "Marco Rossi"
        await type_text(pilot, "thanks")
        await pilot.press("enter")
        await settle(pilot)
        assert pilot.app.screen is screen and pilot.app.focused is screen.pane.reply_box
        assert screen.pane.reply_box.text == "Dear Marco, thank you for staying at Hotel Edelweiss."


@pytest.mark.usefixtures("no_saved_replies")
def test_saved_replies_for_a_review_are_its_propertys_and_only_for_who_reaches_it(engine: Engine) -> None:
    """`for_guest`: the property's saved replies filled for the review's guest, its booking's stay when it has one;
    someone else's property is a 401."""
    marco = review_of(engine, "Marco Rossi")
    engine.message_templates.create(operator(engine), {"title": "Dates", "message": "{guest_name}: {arrival_date}",
                                                       "property_id": marco["property_id"]})
    filled = engine.message_templates.for_guest(operator(engine), marco["property_id"], "Marco Rossi")
    assert [(t["filled_message"], t["unfilled"]) for t in filled] == [("Marco Rossi: {arrival_date}",
                                                                       ["arrival_date"])]
    review, booking = review_with_booking(engine)  # Emma's, of her booking at Hotel Edelweiss
    engine.message_templates.create(operator(engine), {"title": "Stay", "message": "{guest_first_name}, "
                                                       "{arrival_date} to {departure_date} ({booking_id})",
                                                       "property_id": review["property_id"]})
    emma = engine.message_templates.for_guest(operator(engine), review["property_id"], "Emma Clarke",
                                              review["booking_id"])
    assert [t["filled_message"] for t in emma if t["title"] == "Stay"] == [
        f"Emma, 5 Feb 2027 to 7 Feb 2027 ({booking['unique_id']})"]
    grace = review_of(engine, "Grace Wood")  # at Harbour Lights Apartments
    engine.message_templates.create(operator(engine), {"title": "Dates", "message": "{guest_name}: {arrival_date}",
                                                       "property_id": grace["property_id"]})
    elsewhere = engine.message_templates.for_guest(operator(engine), grace["property_id"], "Grace Wood",
                                                   review["booking_id"])  # another property's booking: ignored
    assert [t["filled_message"] for t in elsewhere] == ["Grace Wood: {arrival_date}"]
    stranger, _ = engine.identity.add_user("stranger@example.com")  # a group of their own
    with pytest.raises(Unauthorized):
        engine.message_templates.for_guest(stranger, marco["property_id"], "x")


# --- the stay and its booking ---------------------------------------------------------------------

def review_with_booking(engine: Engine) -> tuple[dict[str, Any], dict[str, Any]]:
    """Emma Clarke's Booking.com review of her booking at Hotel Edelweiss (the Inbox's example), as the channel sends
    it, an hour before the clock: the newest review."""
    thread = next(t for t in engine.chat.threads(operator(engine), ListQuery(limit=50))[0]
                  if t["title"] == "Emma Clarke")
    booking = engine.bookings.get(operator(engine), thread["booking_id"])
    channel = engine.store.one("SELECT * FROM channels WHERE id = ?", (booking["channel_id"],))
    review, _ = engine.reviews.receive(channel, {
        "ota_review_id": "BOO-R-EMMA", "booking_id": booking["id"], "guest_name": "Emma Clarke",
        "content": "Quiet room with the Matterhorn in the window, and the kindest staff.", "overall_score": 9.1,
        "scores": [{"category": "clean", "score": 9.5}, {"category": "comfort", "score": 9.0},
                   {"category": "location", "score": 10.0}, {"category": "staff", "score": 10.0},
                   {"category": "value", "score": 7.5}],
        "received_at": (frozen_clock() - timedelta(hours=1)).isoformat()})
    return review, booking


async def test_b_opens_the_reviews_booking_as_in_the_inbox(engine: Engine, make_app) -> None:
    review, booking = review_with_booking(engine)
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Emma Clarke")
        assert guests(screen)[0] == "Emma Clarke"  # the newest
        stay = text_of(screen.pane.query_one("#rv-stay", Static))
        assert booking["unique_id"] in str(screen.pane.query_one("#rv-stay", Static).border_title)
        assert f"Amount {booking['amount']} {booking['currency']}" in stay
        page = await press_for(pilot, "b", BookingDetailScreen)
        assert page.booking_id == booking["id"] == review["booking_id"]


async def test_without_a_booking_b_is_not_offered(engine: Engine, make_app) -> None:
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Anna Müller")
        assert review_of(engine, "Anna Müller")["booking_id"] is None
        assert "open_booking" not in {b.binding.action for b in screen.active_bindings.values()}
        await pilot.press("b")
        assert pilot.app.screen is screen


# --- the host's review of an Airbnb guest ---------------------------------------------------------

async def test_the_guest_review_form_is_for_airbnb_only(engine: Engine, make_app) -> None:
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Marco Rossi")  # Booking.com
        assert "guest_review" not in {b.binding.action for b in screen.active_bindings.values()}
        await pilot.press("g")
        await settle(pilot)
        assert pilot.app.screen is screen
        await open_reviews(pilot, "Léa Dubois")  # Airbnb, not reviewed yet
        assert "g writes it" in shown(screen)
        assert "guest_review" in {b.binding.action for b in screen.active_bindings.values()}
        await press_for(pilot, "g", GuestReviewForm)


async def test_the_guest_review_is_sent_and_shows_its_state(engine: Engine, make_app) -> None:
    lea = review_of(engine, "Léa Dubois")
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        screen = await open_reviews(pilot, "Léa Dubois")
        form = await press_for(pilot, "g", GuestReviewForm)
        await pilot.press("ctrl+s")  # nothing chosen yet: refused, beside the fields
        await settle(pilot)
        assert pilot.app.screen is form and error_text(form, "scores.0.rating")
        assert engine.reviews.get(operator(engine), lea["id"])["guest_review"] is None
        for index in range(3):
            form.fields[f"scores.{index}.rating"].value = 5 - index
        form.fields["public_review"].value = "Léa left the chalet spotless."
        form.fields["is_reviewee_recommended"].value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert pilot.app.screen is screen
        sent = engine.reviews.get(operator(engine), lea["id"])["guest_review"]
        assert sent["state"] == "pending" and sent["is_reviewee_recommended"] is True
        assert [(s["category"], s["rating"]) for s in sent["scores"]] == [
            ("respect_house_rules", 5), ("communication", 4), ("cleanliness", 3)]
        await until(pilot, lambda: "Your review of the guest: ◷ waiting for the channel" in shown(screen))
        assert "guest_review" not in {b.binding.action for b in screen.active_bindings.values()}


# --- the scores -----------------------------------------------------------------------------------

def tenth(score: float) -> str:
    """A score as staff read it: to a tenth, "9.5", "10"."""
    return f"{score:.1f}".removesuffix(".0")


def test_a_bar_fills_to_the_eighth_of_a_cell() -> None:
    assert bar(10, 4).plain == "████"
    assert bar(5, 4).plain == "██··"
    assert bar(6.5625, 4).plain == "██▋·"  # 2.625 cells
    assert bar(None, 3).plain == "···"


async def test_s_shows_the_propertys_scores_as_a_chart(engine: Engine, make_app) -> None:
    anna = review_of(engine, "Anna Müller")
    score = engine.reviews.score(operator(engine), anna["property_id"], detailed=True)
    async with make_app(mode="reviews").run_test(size=SIZE) as pilot:
        await open_reviews(pilot, "Anna Müller")
        dialog = await press_for(pilot, "s", ScoresDialog)
        chart = text_of(dialog.query_one("#rv-chart", Static))
        assert chart.startswith(f"{tenth(score['overall_score'])} / 10 · {score['count']} reviews")
        clean = score["scores"]["clean"]
        assert f"Cleanliness {bar(clean['score'], 20).plain} {tenth(clean['score'])} ({clean['count']})" in chart
        assert "On Booking.com" in chart
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, ReviewsScreen)


# --- snapshots ------------------------------------------------------------------------------------

async def on_the_list(pilot: Pilot) -> None:
    await open_reviews(pilot)


async def reading_emma(pilot: Pilot) -> None:
    """Emma's review opened beside its booking (at 80×24 in the list's place, the booking shown over it with i), the
    cursor in the reply box."""
    review_with_booking(pilot.app.engine)
    screen = await open_reviews(pilot, "Emma Clarke")
    await pilot.press("r")
    await settle(pilot)
    if screen.has_class("-narrow"):
        await pilot.press("escape", "i")  # from the reply box to the review, where i shows the stay
        await settle(pilot)


async def reviewing_lea(pilot: Pilot) -> None:
    await open_reviews(pilot, "Léa Dubois")
    await pilot.press("g")
    await settle(pilot)


async def chart_of_edelweiss(pilot: Pilot) -> None:
    await open_reviews(pilot, "Anna Müller")
    await pilot.press("s")
    await settle(pilot)


@BOTH
def test_snapshot_reviews(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(mode="reviews"), terminal_size=size, run_before=on_the_list)


@BOTH
def test_snapshot_a_review_being_answered(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(mode="reviews"), terminal_size=size, run_before=reading_emma)


@BOTH
def test_snapshot_the_guest_review_form(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(mode="reviews"), terminal_size=size, run_before=reviewing_lea)


@BOTH
def test_snapshot_the_scores_chart(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(mode="reviews"), terminal_size=size, run_before=chart_of_edelweiss)
