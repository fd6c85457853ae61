"""The demo portfolio is what the issue promises: varied, grouped, connected, partly chatting."""

from __future__ import annotations

from datetime import timedelta

from backend.demo import load_demo
from backend.listing import ListQuery


def test_demo_portfolio(engine):
    token = load_demo(engine)

    operator = engine.identity.operator()
    properties, meta = engine.properties.list(operator, ListQuery(limit=100))
    channels, _ = engine.channels.list(operator, ListQuery(limit=100))
    assert meta["total"] >= 5
    assert len({p["property_type"] for p in properties}) >= 5
    assert len({p["country"] for p in properties}) >= 5
    assert len({p["group_id"] for p in properties}) == 2
    assert {c["channel_code"] for c in channels} == {"BookingCom", "AirBNB", "OpenShopping"}
    assert all(c["property_ids"] for c in channels)
    chatting = [p for p in properties if engine.applications.is_installed(p["id"], "chat")]
    assert 0 < len(chatting) < len(properties)
    integrator = engine.identity.authenticate(token.token)
    assert len(engine.properties.options(integrator)) == meta["total"]


def test_demo_sells_rooms(engine):
    load_demo(engine)
    operator = engine.identity.operator()
    bookings, meta = engine.bookings.list(operator, ListQuery(limit=100))
    assert meta["total"] >= 5
    assert {b["status"] for b in bookings} >= {"new", "cancelled"}
    assert {b["ota_name"] for b in bookings} == {"OpenShopping", "Booking.com"}
    assert all(b["guarantee"] is None or b["guarantee"]["cvv"] == "***" for b in bookings)
    shopping = next(c for c in engine.channels.list(operator, ListQuery())[0] if c["channel_code"] == "OpenShopping")
    assert shopping["rate_plan_ids"]
    today = engine.config.clock().date()
    stay = [("checkin_date", str(today + timedelta(days=60))), ("checkout_date", str(today + timedelta(days=63))),
            ("filter[is_available]", "true")]
    offers, meta = engine.shopping.property_list([shopping["id"]], stay)
    assert meta["total"] == len(shopping["property_ids"]) and all(o["best_offer"] for o in offers)
