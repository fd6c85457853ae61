"""The demo portfolio is what the issue promises: varied, grouped, connected, partly chatting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from backend.core.config import Config
from backend.core.dates import local_now
from backend.core.listing import Filter, ListQuery
from backend.tools.demo import load_demo


def test_demo_portfolio(engine):
    token = load_demo(engine)

    operator = engine.identity.operator()
    properties, meta = engine.properties.list(operator, ListQuery(limit=100))
    channels, _ = engine.channels.list(operator, ListQuery(limit=100))
    assert meta["total"] >= 5
    assert len({p["property_type"] for p in properties}) >= 5
    assert len({p["country"] for p in properties}) >= 5
    assert len({p["group_id"] for p in properties}) == 2
    assert {c["channel"] for c in channels} == {"BookingCom", "AirBNB", "OpenShopping"}
    assert all(c["properties"] for c in channels)
    groups = {p["id"]: p["group_id"] for p in properties}
    assert all(groups[p] == c["group_id"] for c in channels for p in c["properties"])  # each channel's own group
    chatting = [p for p in properties if engine.applications.is_installed(p["id"], "chat")]
    assert 0 < len(chatting) < len(properties)
    integrator = engine.identity.authenticate(token.token)
    assert len(engine.properties.options(integrator)) == meta["total"]


def test_demo_sells_rooms(engine):
    load_demo(engine)
    operator = engine.identity.operator()
    bookings, meta = engine.bookings.list(operator, ListQuery(limit=100, filters=[Filter("arrival_date", "lte", "9999-12-31")]))
    assert meta["total"] >= 5
    assert {b["status"] for b in bookings} >= {"new", "cancelled"}
    assert {b["ota_name"] for b in bookings} == {"OpenShopping", "Booking.com", "Airbnb"}
    assert all(b["guarantee"] is None or b["guarantee"]["cvv"] == "***" for b in bookings)
    shopping = next(c for c in engine.channels.list(operator, ListQuery())[0] if c["channel"] == "OpenShopping")
    assert shopping["rate_plans"]
    today = engine.config.clock().date()
    stay = [("checkin_date", str(today + timedelta(days=200))), ("checkout_date", str(today + timedelta(days=203))),
            ("filter[is_available]", "true")]
    offers, meta = engine.shopping.property_list([shopping["id"]], stay)
    assert meta["total"] == len(shopping["properties"]) and all(o["best_offer"] for o in offers)


def test_demo_inbox(engine):
    load_demo(engine)
    threads, meta = engine.chat.threads(engine.identity.operator(), ListQuery(limit=100))
    assert meta["total"] >= 24
    assert {t["provider"] for t in threads} == {"BookingCom", "AirBNB"}
    assert any(t["unread_count"] for t in threads) and any(t["is_closed"] for t in threads)
    assert any(t["booking_id"] is None for t in threads)  # inquiries
    texts = " ".join(t["last_message"]["message"] for t in threads)
    assert all(word in texts for word in ("Bonjour", "Danke", "gracias", "駅", "Claro"))


@pytest.mark.parametrize("hour", [0, 12, 13, 23])
def test_demo_loads_at_any_hour_of_the_utc_day(new_db, hour):
    """Each property's ARI starts on its own today: from 13:00 UTC it is already tomorrow in Hobart."""
    moment = datetime(2026, 11, 22, hour, 30, tzinfo=UTC)
    engine = new_db("demo").engine(Config(clock=lambda: moment))
    load_demo(engine)
    assert engine.store.scalar("SELECT count(*) FROM bookings") > 0


def test_demo_reviews(engine):
    """Reviews on several properties from both channels, some answered (delivered, or still waiting for the
    channel), some not, one hidden until the host reviews the guest, one too old to answer; scores kept."""
    load_demo(engine)
    operator = engine.identity.operator()
    reviews, meta = engine.reviews.list(operator, ListQuery(limit=100))
    assert meta["total"] == len(reviews) >= 10
    assert len({r["property_id"] for r in reviews}) >= 4 and {r["ota"] for r in reviews} == {"AirBNB", "BookingCom"}
    assert {r["reply_state"] for r in reviews} == {"delivered", "pending", None}
    assert any(r["is_hidden"] for r in reviews) and any(r["is_expired"] for r in reviews)
    assert any(r["guest_review"] and r["guest_review"]["state"] == "delivered" for r in reviews)
    assert engine.reviews.unanswered(operator) == sum(
        not (r["is_replied"] or r["is_hidden"] or r["is_expired"] or r["channel_id"] is None) for r in reviews) > 0
    assert all(r["overall_score"] is not None and 0 < r["overall_score"] <= 10 for r in reviews)
    for property_id in {r["property_id"] for r in reviews}:
        score = engine.reviews.score(operator, property_id, detailed=True)
        assert score["count"] == sum(r["property_id"] == property_id for r in reviews)
        assert sum(s["count"] for s in score["ota_scores"]) == score["count"]


def test_demo_has_the_front_desks_day(engine):
    """Someone to check in, see off and mark a no-show from the first run, whatever the day: dated from the clock."""
    load_demo(engine)
    operator = engine.identity.operator()

    def staying(stay: str) -> int:
        return engine.bookings.list(operator, ListQuery(limit=100, filters=[Filter("stay", "eq", stay)]))[1]["total"]

    assert staying("arriving_today") >= 2 and staying("departing_today") >= 1 and staying("in_house") >= 3
    tomorrow = str(local_now("Europe/Zurich", engine.config.clock()).date() + timedelta(days=1))  # Hotel Edelweiss's
    for field in ("arrival_date", "departure_date"):
        _, meta = engine.bookings.list(operator, ListQuery(limit=100, filters=[Filter(field, "eq", tomorrow)]))
        assert meta["total"] >= 1, field
    replies, _ = engine.message_templates.list(operator, ListQuery(limit=100))
    assert {r["title"] for r in replies} >= {"Check-in times", "Booking confirmed", "Thanks for staying"}
    channels, _ = engine.channels.list(operator, ListQuery(limit=100))
    assert {c["channel"]: c["settings"].get("ari_distribution", "none") for c in channels}["BookingCom"] == "pull"
