"""Every change that matters outside is an event written in the change's own transaction: one per written range
and plan (a derived plan's too), a booking's revision and the availability it moved, a guest's message, an inquiry,
a thread closed or reopened, a booking not acknowledged in 30 minutes (by the deliverer's sweep); none for a write
that was refused or rolled back."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from backend.bookings.non_acked import NON_ACKED_AFTER, tell_non_acked
from backend.core.errors import ValidationFailed
from backend.distribution.window_moves import sweep as window_sweep
from backend.inventory.window import window_of
from backend.outbox.deliverer import Deliverer
from backend.outbox.lease import deliverer_lease
from backend.tools.demo import load_demo
from tests.open_for_sale import open_for_sale


def events(engine, after: int = 0) -> list[dict]:
    return [{"event": r["event"], "property_id": r["property_id"], **json.loads(r["payload"])}
            for r in engine.store.query("SELECT * FROM events WHERE seq > ? ORDER BY seq", (after,))]


def head(engine) -> int:
    return engine.store.scalar("SELECT coalesce(max(seq), 0) FROM events")


@pytest.fixture
def demo(engine):
    load_demo(engine)
    operator = engine.identity.operator()
    parent = engine.store.one("SELECT p.id, p.property_id, p.room_type_id FROM rate_plans p WHERE EXISTS "
                              "(SELECT 1 FROM rate_plans c WHERE c.parent_rate_plan_id = p.id)")
    children = [r[0] for r in engine.store.query("SELECT id FROM rate_plans WHERE parent_rate_plan_id = ?",
                                                 (parent["id"],))]
    return engine, operator, parent, children


def dates(first: int, last: int) -> tuple[str, str]:
    today = datetime.now(UTC).date() + timedelta(days=1)  # tomorrow: today at every property of the demo
    return (today + timedelta(days=first)).isoformat(), (today + timedelta(days=last)).isoformat()


def test_a_year_of_rates_is_one_event_for_the_plan_and_one_for_each_child(demo):
    engine, operator, parent, children = demo
    start = head(engine)
    date_from, date_to = dates(0, 300)
    engine.inventory.ari.set_restrictions(operator, [{"property_id": parent["property_id"], "rate_plan_id": parent["id"],
                                                      "date_from": date_from, "date_to": date_to, "rate": "120.00"}])
    assert events(engine, start) == [
        {"event": "ari", "property_id": parent["property_id"], "rate_plan_id": plan_id,
         "date_from": date_from, "date_to": date_to} for plan_id in (parent["id"], *children)]


def test_availability_written_in_pieces_is_one_event_over_their_range(demo):
    engine, operator, parent, _ = demo
    start = head(engine)
    first, _ = dates(3, 3)
    _, last = dates(9, 9)
    engine.inventory.ari.set_availability(operator, [
        {"property_id": parent["property_id"], "room_type_id": parent["room_type_id"], "date": day, "availability": 2}
        for day in (last, first, dates(5, 5)[0])])
    assert events(engine, start) == [{"event": "ari", "property_id": parent["property_id"],
                                      "room_type_id": parent["room_type_id"], "date_from": first, "date_to": last}]


def test_a_refused_write_records_nothing(demo):
    engine, operator, parent, _ = demo
    start = head(engine)
    date_from, date_to = dates(0, 10)
    with pytest.raises(ValidationFailed):
        engine.inventory.ari.set_restrictions(operator, [
            {"property_id": parent["property_id"], "rate_plan_id": parent["id"], "date_from": date_from,
             "date_to": date_to, "rate": "120.00"},
            {"property_id": parent["property_id"], "rate_plan_id": parent["id"], "date": date_from, "rate": "-1"}])
    assert head(engine) == start


def test_an_event_rolls_back_with_its_change(demo):
    engine, operator, parent, _ = demo
    start = head(engine)
    date_from, date_to = dates(0, 10)
    with pytest.raises(RuntimeError), engine.store.transaction():
        engine.inventory.ari.set_availability(operator, [{"property_id": parent["property_id"], "room_type_id":
                                                          parent["room_type_id"], "date_from": date_from,
                                                          "date_to": date_to, "availability": 0}])
        raise RuntimeError("the outer transaction fails after the write")
    assert head(engine) == start


def test_a_booking_is_its_event_and_the_availability_it_took(demo):
    engine, operator, *_ = demo
    room = engine.store.one("SELECT r.id, r.property_id, p.id AS plan_id FROM room_types r JOIN rate_plans p ON "
                            "p.room_type_id = r.id AND p.parent_rate_plan_id IS NULL LIMIT 1")
    arrival, departure = dates(20, 22)
    open_for_sale(engine, operator, {"id": room["plan_id"], "property_id": room["property_id"],
                                     "room_type_id": room["id"]}, arrival, departure, rooms=2)
    start = head(engine)
    booking, _ = engine.bookings.take(operator, {
        "property_id": room["property_id"], "status": "new", "arrival_date": arrival, "departure_date": departure,
        "currency": engine.store.scalar("SELECT currency FROM rate_plans WHERE id = ?", (room["plan_id"],)),
        "customer": {"name": "Ada", "surname": "Guest"},
        "rooms": [{"room_type_code": room["id"], "rate_plan_code": room["plan_id"],
                   "occupancy": {"adults": 1, "children": 0, "infants": 0}}]}, secure=False)
    assert events(engine, start) == [
        {"event": "booking_new", "property_id": room["property_id"], "booking_id": booking["id"],
         "revision_id": booking["revision_id"]},
        {"event": "ari", "property_id": room["property_id"], "room_type_id": room["id"],
         "date_from": arrival, "date_to": dates(21, 21)[0]}]


def test_a_revision_not_acknowledged_in_30_minutes_is_told_once(demo):
    engine, *_ = demo
    unacked = engine.store.scalar("SELECT count(*) FROM booking_revisions WHERE acked_at IS NULL")
    assert unacked
    start = head(engine)
    assert tell_non_acked(engine.store, datetime.now(UTC)) == 0  # the demo's came just now
    later = datetime.now(UTC) + timedelta(minutes=31)
    assert tell_non_acked(engine.store, later) == unacked
    assert tell_non_acked(engine.store, later) == 0
    told = events(engine, start)
    assert {e["event"] for e in told} == {"non_acked_booking"} and len(told) == unacked


def test_a_booking_modified_then_cancelled_is_each_its_event_with_the_availability_it_moved(demo):
    engine, operator, *_ = demo
    room = engine.store.one("SELECT r.id, r.property_id, p.id AS plan_id, p.currency FROM room_types r JOIN rate_plans p "
                            "ON p.room_type_id = r.id AND p.parent_rate_plan_id IS NULL LIMIT 1")
    arrival, departure = dates(40, 41)
    open_for_sale(engine, operator, {"id": room["plan_id"], "property_id": room["property_id"],
                                     "room_type_id": room["id"]}, arrival, dates(42, 42)[0], rooms=2)
    body = {"property_id": room["property_id"], "status": "new", "arrival_date": arrival, "departure_date": departure,
            "currency": room["currency"], "customer": {"name": "Ada", "surname": "Guest"},
            "rooms": [{"room_type_code": room["id"], "rate_plan_code": room["plan_id"],
                       "occupancy": {"adults": 1, "children": 0, "infants": 0}}]}
    booking, _ = engine.bookings.take(operator, body, secure=False)
    start = head(engine)
    longer = {**body, "status": "modified", "reservation_id": booking["reservation_id"],
              "departure_date": dates(42, 42)[0]}
    modified, _ = engine.bookings.take(operator, longer, secure=False)
    cancelled, _ = engine.bookings.take(operator, {**longer, "status": "cancelled"}, secure=False)
    ari = {"event": "ari", "property_id": room["property_id"], "room_type_id": room["id"]}
    assert events(engine, start) == [
        {"event": "booking_modification", "property_id": room["property_id"], "booking_id": booking["id"],
         "revision_id": modified["revision_id"]},
        {**ari, "date_from": dates(41, 41)[0], "date_to": dates(41, 41)[0]},  # the night it took on
        {"event": "booking_cancellation", "property_id": room["property_id"], "booking_id": booking["id"],
         "revision_id": cancelled["revision_id"]},
        {**ari, "date_from": arrival, "date_to": dates(41, 41)[0]}]  # both nights given back


def chat_scene(engine) -> tuple:
    """A closed thread of a booking, its channel, and an Airbnb channel with a property connected."""
    closed = engine.store.one("SELECT id, property_id, booking_id, channel_id FROM message_threads "
                              "WHERE is_closed = 1 AND booking_id IS NOT NULL LIMIT 1")
    channel = engine.store.one("SELECT * FROM channels WHERE id = ?", (closed["channel_id"],))
    airbnb = engine.store.one("SELECT * FROM channels WHERE channel_code = 'AirBNB'")
    listed = engine.store.scalar("SELECT property_id FROM channel_properties WHERE channel_id = ?", (airbnb["id"],))
    return closed, channel, airbnb, listed


def test_a_guest_message_is_its_event_and_reopens_a_closed_thread(demo):
    engine, *_ = demo
    closed, channel, *_ = chat_scene(engine)
    start = head(engine)
    said = engine.chat.receive(channel, {"thread_id": closed["id"], "message": "Are you still there?"})
    assert events(engine, start) == [
        {"event": "thread_reopened", "property_id": closed["property_id"], "message_thread_id": closed["id"],
         "booking_id": closed["booking_id"]},
        {"event": "message", "property_id": closed["property_id"], "booking_id": closed["booking_id"],
         "have_attachment": False, "attachments": [], "id": said["id"], "message": "Are you still there?",
         "message_thread_id": closed["id"], "ota_message_id": None, "sender": "guest"}]
    engine.chat.receive(channel, {"thread_id": closed["id"], "message": "Hello?"})
    assert [e["event"] for e in events(engine, start)][2:] == ["message"]  # open already: no second reopening


def test_staff_closing_and_reopening_a_thread_are_events_and_a_repeat_is_none(demo):
    engine, operator, *_ = demo
    closed, *_ = chat_scene(engine)
    start = head(engine)
    for change in (engine.chat.reopen, engine.chat.reopen, engine.chat.close, engine.chat.close):
        change(operator, closed["id"])
    told = {"property_id": closed["property_id"], "message_thread_id": closed["id"], "booking_id": closed["booking_id"]}
    assert events(engine, start) == [{"event": "thread_reopened", **told}, {"event": "thread_closed", **told}]


def test_an_inquiry_is_its_event_then_the_guests_message(demo):
    engine, *_ = demo
    _, _, airbnb, listed = chat_scene(engine)
    start = head(engine)
    checkin, checkout = dates(30, 33)
    thread = engine.chat.inquiry(airbnb, {"guest_name": "Maya Lin", "message": "Is it free over New Year?",
                                          "booking_details": {"property_id": listed, "listing_id": "8812",
                                                              "guest_name": "Maya Lin", "checkin_date": checkin,
                                                              "checkout_date": checkout, "nights": 3,
                                                              "currency": "EUR", "number_of_adults": 2}})
    inquiry, message = events(engine, start)
    assert {k: inquiry[k] for k in ("event", "property_id", "message_thread_id", "channel_id", "guest_name",
                                    "message", "status")} == {
        "event": "inquiry", "property_id": listed, "message_thread_id": thread["id"], "channel_id": airbnb["id"],
        "guest_name": "Maya Lin", "message": "Is it free over New Year?", "status": "active"}
    assert inquiry["booking_details"]["listing_id"] == "8812" and inquiry["live_feed_event_id"]
    assert (message["event"], message["message_thread_id"], message["booking_id"]) == ("message", thread["id"], None)


def test_chat_events_roll_back_with_their_change(demo):
    engine, operator, *_ = demo
    closed, channel, airbnb, listed = chat_scene(engine)
    start = head(engine)
    checkin, checkout = dates(30, 33)
    with pytest.raises(RuntimeError), engine.store.transaction():
        engine.chat.receive(channel, {"thread_id": closed["id"], "message": "Are you still there?"})
        engine.chat.close(operator, closed["id"])
        engine.chat.inquiry(airbnb, {"guest_name": "Maya Lin", "booking_details": {
            "property_id": listed, "checkin_date": checkin, "checkout_date": checkout, "currency": "EUR"}})
        raise RuntimeError("the outer transaction fails after the changes")
    assert head(engine) == start


def test_the_deliverer_runs_the_engines_sweep_of_revisions_not_acknowledged(demo):
    """One event for each revision not acknowledged. The round runs every sweep: when the half hour ahead crosses a
    property's midnight, its window moves too (ARI events), which this test leaves to the window's own tests."""
    engine, *_ = demo
    unacked = sorted(r[0] for r in engine.store.query("SELECT id FROM booking_revisions WHERE acked_at IS NULL"))
    start = head(engine)
    later = datetime.now(UTC) + NON_ACKED_AFTER + timedelta(minutes=1)
    deliverer = Deliverer(engine.store, [], deliverer_lease(engine.store, "serve"), lambda: later,
                          sweeps=engine.sweeps())
    try:
        deliverer.holding = deliverer.lease.acquire()
        deliverer.round()  # what its thread does while it holds the lease
    finally:
        deliverer.stop()
    told = [e for e in events(engine, start) if e["event"] == "non_acked_booking"]
    assert unacked and sorted(e["revision_id"] for e in told) == unacked


def test_a_rate_plan_change_that_makes_its_nights_read_otherwise_is_an_event_over_its_window(demo):
    engine, operator, parent, children = demo
    plans = engine.inventory.rate_plans
    start = head(engine)
    plans.update(operator, parent["id"], {"title": "Flexible, renamed"})  # its nights read as before
    assert head(engine) == start

    plans.update(operator, parent["id"], {"stop_sell": [False] * 5 + [True] * 2})  # weekends closed by default
    window = window_of(engine.store.one("SELECT * FROM properties WHERE id = ?", (parent["property_id"],)),
                       datetime.now(UTC))
    whole = {"date_from": window.today.isoformat(), "date_to": (window.end - timedelta(days=1)).isoformat()}
    assert events(engine, start) == [{"event": "ari", "property_id": parent["property_id"], "rate_plan_id": plan_id,
                                      **whole} for plan_id in (parent["id"], *children)]

    start = head(engine)
    child = plans.get(operator, children[0])
    options = [{**option, "derived_option": {"rate": [["decrease_by_percent", "25"]]}} if option["is_primary"]
               else option for option in child["options"]]
    plans.update(operator, children[0], {"options": options})  # the child's own modifier: its rates read otherwise
    assert events(engine, start) == [{"event": "ari", "property_id": parent["property_id"],
                                      "rate_plan_id": children[0], **whole}]


def pulling(engine, operator) -> dict:
    """The demo's Booking.com channel, made to take ARI by pull; its first mapped plan."""
    channel = engine.store.one("SELECT id FROM channels WHERE title = 'Booking.com'")
    engine.channels.update(operator, channel["id"], {"settings": {"ari_distribution": "pull"}})
    return engine.store.one("SELECT p.id, p.property_id, p.room_type_id FROM channel_rate_plans m JOIN rate_plans p "
                            "ON p.id = m.rate_plan_id WHERE m.channel_id = ? ORDER BY m.rowid LIMIT 1",
                            (channel["id"],))


def test_the_deliverers_sweep_tells_the_night_that_entered_each_window_once(demo):
    engine, operator, *_ = demo
    plan = pulling(engine, operator)
    first = (datetime.now(UTC) + timedelta(days=1)).replace(hour=10, minute=0)  # before any cut-off of the demo's
    window_sweep(engine.store, first)  # the windows as they are then (how they moved since: not this test's)
    start = head(engine)
    later = first + timedelta(days=1)  # a day later at the same time: each window moved by one night
    deliverer = Deliverer(engine.store, [], deliverer_lease(engine.store, "serve"), lambda: later, sweeps=engine.sweeps())
    try:
        deliverer.holding = deliverer.lease.acquire()
        deliverer.round()  # what its thread does while it holds the lease
    finally:
        deliverer.stop()
    told = [e for e in events(engine, start) if e["event"] == "ari"]
    prop = engine.store.one("SELECT * FROM properties WHERE id = ?", (plan["property_id"],))
    last = (window_of(prop, later).end - timedelta(days=1)).isoformat()
    assert {"event": "ari", "property_id": plan["property_id"], "rate_plan_id": plan["id"], "date_from": last,
            "date_to": last, "cause": "window"} in told
    assert {"event": "ari", "property_id": plan["property_id"], "room_type_id": plan["room_type_id"],
            "date_from": last, "date_to": last, "cause": "window"} in told
    assert all(e["date_from"] == e["date_to"] for e in told)  # one night per plan and room type, no more
    assert len(told) == len({(e.get("rate_plan_id"), e.get("room_type_id")) for e in told})
    again = head(engine)
    assert window_sweep(engine.store, later) == 0 and head(engine) == again


def test_window_moves_and_mapping_changes_roll_back_with_their_change(demo):
    engine, operator, *_ = demo
    plan = pulling(engine, operator)
    channel = engine.store.scalar("SELECT id FROM channels WHERE title = 'Booking.com'")
    kept = engine.store.one("SELECT * FROM ari_windows WHERE property_id = ?", (plan["property_id"],))
    start = head(engine)
    with pytest.raises(RuntimeError), engine.store.transaction():
        engine.properties.update(operator, plan["property_id"], {"settings": {"state_length": 600}})
        engine.channels.map_rate_plan(operator, channel, plan["id"], False)
        engine.inventory.room_types.delete(operator, plan["room_type_id"])
        assert head(engine) > start  # each recorded its events ...
        raise RuntimeError("the outer transaction fails after the changes")
    assert head(engine) == start  # ... and none is left
    assert dict(engine.store.one("SELECT * FROM ari_windows WHERE property_id = ?", (plan["property_id"],))) == \
        dict(kept)
