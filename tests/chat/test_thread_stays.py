"""Beside a conversation: the booking's stay, or an inquiry's request priced as the shopping API prices it today;
and the count of unread threads behind the inbox tab's badge. On the demo data, through the engine."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from backend.core.config import Config
from backend.core.errors import Unauthorized
from backend.core.listing import Filter, ListQuery
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.console.helpers import frozen_clock


@pytest.fixture(scope="module")
def demo(session_db) -> Engine:
    engine = session_db("stays").engine(Config(clock=frozen_clock))
    load_demo(engine)
    return engine


def thread_of(engine: Engine, guest: str) -> dict:
    rows, _ = engine.chat.threads(engine.identity.operator(), ListQuery(limit=100, filters=[Filter("title", "eq", guest)]))
    return rows[0]


def airbnb(engine: Engine) -> dict:
    return engine.store.one("SELECT * FROM channels WHERE channel_code = 'AirBNB'")


def ask(engine: Engine, title: str, checkin: str, checkout: str, **details) -> dict:
    """A new Airbnb inquiry for a demo property; its thread."""
    prop = engine.store.scalar("SELECT id FROM properties WHERE title = ?", (title,))
    return engine.chat.inquiry(airbnb(engine), {"guest_name": "Ada Test", "booking_details": {
        "property_id": prop, "checkin_date": checkin, "checkout_date": checkout, "currency": "EUR",
        "expected_payout_amount_accurate": "100.00", **details}})


def test_a_booking_thread_shows_its_booking(demo: Engine) -> None:
    operator = demo.identity.operator()
    thread = thread_of(demo, "Emma Clarke")
    booking = demo.bookings.get(operator, thread["booking_id"])
    stay = demo.thread_stays.of(operator, thread["id"])
    assert stay["kind"] == "booking"
    assert {key: stay[key] for key in ("booking_id", "unique_id", "status", "arrival_date", "departure_date",
                                       "amount", "currency", "notes", "occupancy")} == \
        {"booking_id": booking["id"], "unique_id": booking["unique_id"], "status": "new",
         "arrival_date": booking["arrival_date"], "departure_date": booking["departure_date"],
         "amount": booking["amount"], "currency": booking["currency"], "notes": None,
         "occupancy": {"adults": 2, "children": 0, "infants": 0}}
    assert stay["channel"] == "Booking.com" and stay["guest"] == "Emma Clarke" and stay["nights"] == 2
    assert stay["rooms"][0]["room_type"] == "Double Room Matterhorn View"
    assert stay["rooms"][0]["rate_plan"] == "Best Available Rate"


def test_an_inquiry_is_priced_as_the_shopping_api_prices_it(demo: Engine) -> None:
    operator = demo.identity.operator()
    thread = thread_of(demo, "Maya Lin")  # 2 adults and a child at Harbour Lights, quoted 1240.00 AUD
    stay = demo.thread_stays.of(operator, thread["id"])
    offer = demo.shopping.best_offer(thread["channel_id"], thread["property_id"], {
        "checkin_date": stay["checkin_date"], "checkout_date": stay["checkout_date"], "adults": "2", "children": "1"})
    assert stay["kind"] == "inquiry" and stay["payout"] == "1240.00" and stay["currency"] == "AUD"
    assert stay["today"]["price"] == offer["offer"] and stay["today"]["currency"] == offer["currency"] == "AUD"
    assert stay["today"]["room_type"] == "Two-Bedroom Apartment" and stay["today"]["reasons"] == []
    difference = int(offer["offer"].replace(".", "")) - 124000
    assert stay["difference"] == f"+{difference // 100}.{difference % 100:02d}"


def test_an_inquiry_that_cant_be_sold_says_why(demo: Engine) -> None:
    operator = demo.identity.operator()
    today = frozen_clock().date()
    past = ask(demo, "Casa do Mar", (today - timedelta(days=3)).isoformat(), (today - timedelta(days=1)).isoformat(),
               number_of_adults=2)
    reasons = demo.thread_stays.of(operator, past["id"])["today"]["reasons"]
    assert reasons and all("closed for sale (past or after the cut-off)" in reason for reason in reasons)

    crowd = ask(demo, "Casa do Mar", "2027-03-01", "2027-03-03", number_of_adults=40)
    stay = demo.thread_stays.of(operator, crowd["id"])
    assert stay["today"]["price"] is None and stay["difference"] is None
    assert any("the room holds at most" in reason for reason in stay["today"]["reasons"])

    # No rooms left on one night: every plan of the property stops there, and the reason names the night.
    prop = demo.store.scalar("SELECT id FROM properties WHERE title = 'Casa do Mar'")
    full = date(2027, 3, 11)
    for room in demo.inventory.room_types.for_property(operator, prop):
        demo.inventory.ari.set_availability(operator, [{"property_id": prop, "room_type_id": room["id"],
                                                        "date": full.isoformat(), "availability": 0}])
    sold_out = ask(demo, "Casa do Mar", "2027-03-10", "2027-03-13", number_of_adults=2)
    reasons = demo.thread_stays.of(operator, sold_out["id"])["today"]["reasons"]
    assert reasons == [f"no availability on {full.isoformat()} (Best Available Rate, Non-refundable with breakfast)"]


def test_someone_elses_thread_is_refused(demo: Engine) -> None:
    stranger, _ = demo.identity.add_user("stranger@example.com")
    with pytest.raises(Unauthorized):
        demo.thread_stays.of(stranger, thread_of(demo, "Emma Clarke")["id"])


def test_unread_threads_count_what_the_unread_filter_lists(demo: Engine) -> None:
    operator = demo.identity.operator()
    _, meta = demo.chat.threads(operator, ListQuery(limit=1, filters=[Filter("unread", "eq", "true")]))
    before = demo.chat.unread_threads(operator)
    assert before == meta["total"] > 0
    thread = thread_of(demo, "Emma Clarke")
    demo.chat.mark_read(operator, thread["id"])
    assert demo.chat.unread_threads(operator) == before - 1
    channel = demo.store.one("SELECT * FROM channels WHERE id = ?", (thread["channel_id"],))
    demo.chat.receive(channel, {"booking_id": thread["booking_id"], "message": "Hello?"})
    assert demo.chat.unread_threads(operator) == before
    stranger, _ = demo.identity.add_user("nobody@example.com")
    assert demo.chat.unread_threads(stranger) == 0
