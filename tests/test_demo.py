"""The demo portfolio is what the issue promises: varied, grouped, connected, partly chatting."""

from __future__ import annotations

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
