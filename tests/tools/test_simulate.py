"""`frontdesk simulate`: guest traffic into a database, and into a running server as a channel adapter; and the
channels' side of staff's replies, taken from each channel's outbox and acknowledged, so that they show delivered."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import httpx

from backend.core.listing import ListQuery
from backend.outbox.store import stamp_positions
from backend.tools.demo import load_demo
from backend.tools.simulate import EngineSink, HttpSink, Traffic, run
from tests.chat.test_chat_api import Desk
from tests.shopping.shop import check, day
from tests.test_cli import frontdesk


def delivery(line: str) -> bool:
    """A line of the channels' side: replies taken from the outbox, ARI read from the pull feed."""
    return line.endswith(("from staff delivered", " ARI value", " ARI values"))


def test_traffic_into_a_database_fills_the_inbox(engine):
    load_demo(engine)
    operator = engine.identity.operator()
    before = engine.chat.threads(operator, ListQuery())[1]["total"]
    messages = engine.store.scalar("SELECT count(*) FROM messages")
    said: list[str] = []
    sink = EngineSink(engine)
    run(Traffic(sink.channels(), sink, engine.config.clock().date(), random.Random(7)), 40, 0, said.append)
    said = [line for line in said if not delivery(line)]
    assert len(said) == 40
    threads, meta = engine.chat.threads(operator, ListQuery(limit=100))
    assert meta["total"] > before
    reviews = sum("reviews their stay" in line for line in said)  # a review is no message
    assert engine.store.scalar("SELECT count(*) FROM messages") >= messages + 40 - reviews
    assert any(t["unread_count"] for t in threads)
    assert any("inquiry" in line for line in said) and any("file" in line for line in said)
    assert engine.store.scalar("SELECT count(*) FROM attachments WHERE message_id IS NOT NULL") > 0


def stays_that_ended(sink: EngineSink, today: date, per_channel: int) -> set[str]:
    """Each channel's OTA sends bookings of stays that ended before today (as an OTA's history would hold)."""
    made = set()
    for channel in sink.channels():
        plan = channel["rate_plans"][0]
        for number in range(per_channel):
            arrival = today - timedelta(days=30 + 3 * number)
            made.add(sink.booking(channel, {
                "status": "new", "reservation_id": f"PAST{number:04d}", "property_id": plan["property_id"],
                "arrival_date": arrival.isoformat(), "departure_date": (arrival + timedelta(days=2)).isoformat(),
                "currency": plan["currency"], "payment_collect": "ota", "customer": {"name": "Past", "surname": "Guest"},
                "rooms": [{"room_type_code": plan["room_type_id"], "rate_plan_code": plan["id"],
                           "occupancy": {"adults": 2}}]}))
    return made


def test_traffic_brings_reviews_in_several_languages_with_scores(engine):
    """Guests review their stays on both channels: scores out of 10 (Airbnb's stars doubled), some Airbnb reviews
    hidden until the host reviews the guest, linked to the bookings they are about: stays that have ended, each once,
    never the run's own bookings (all in the future)."""
    load_demo(engine)
    operator = engine.identity.operator()
    before = engine.reviews.list(operator, ListQuery())[1]["total"]
    sink = EngineSink(engine)
    today = engine.config.clock().date()
    ended = stays_that_ended(sink, today, 12)
    said: list[str] = []
    run(Traffic(sink.channels(), sink, today, random.Random(1)), 120, 0, said.append)
    reviews, meta = engine.reviews.list(operator, ListQuery(limit=100))
    made = [r for r in reviews if r["ota_review_id"].startswith("SIMR")]
    assert meta["total"] - before == len(made) == sum("reviews their stay" in line for line in said) >= 6
    assert {r["booking_id"] for r in made} <= ended and len({r["booking_id"] for r in made}) == len(made)
    for review in made:
        booking = engine.store.one("SELECT departure_date FROM bookings WHERE id = ?", (review["booking_id"],))
        assert str(booking["departure_date"]) < today.isoformat()
    assert {r["ota"] for r in made} == {"AirBNB", "BookingCom"}
    assert all(r["booking_id"] and 0 < r["overall_score"] <= 10 and len(r["scores"]) == 6 + (r["ota"] == "BookingCom")
               for r in made)
    assert len({r["content"] for r in made}) >= 4 and any(r["is_hidden"] for r in made)
    assert len({r["overall_score"] for r in made}) > 3


def test_a_run_without_ended_stays_writes_no_review(engine):
    """The run's own bookings are all in the future: with no stay ended, nobody reviews."""
    load_demo(engine)
    sink = EngineSink(engine)
    before = engine.store.scalar("SELECT count(*) FROM reviews")
    said: list[str] = []
    run(Traffic(sink.channels(), sink, engine.config.clock().date(), random.Random(11)), 60, 0, said.append)
    assert not any("reviews their stay" in line for line in said)
    assert engine.store.scalar("SELECT count(*) FROM reviews") == before


def test_the_same_seed_plays_the_same_traffic(engine):
    load_demo(engine)
    sink = EngineSink(engine)
    first: list[str] = []
    second: list[str] = []
    today = engine.config.clock().date()
    run(Traffic(sink.channels(), sink, today, random.Random(3)), 10, 0, first.append)
    run(Traffic(sink.channels(), sink, today, random.Random(3)), 10, 0, second.append)
    # The first run's channels also took the demo's waiting replies.
    assert [line for line in first if not delivery(line)] == [line for line in second if not delivery(line)]


def test_traffic_into_a_running_server_goes_through_the_inbound_api(user, live):
    booking_com, airbnb = Desk(user, live), Desk(user, live, code="AirBNB")
    keys = {booking_com.shop.channel_id: booking_com.shop.inbound_key, airbnb.shop.channel_id: airbnb.shop.inbound_key}
    with httpx.Client(base_url=live[1].url, timeout=10) as client:
        sink = HttpSink(client, keys)
        run(Traffic(sink.channels(), sink, datetime.now(UTC).date(), random.Random(5)), 25, 0, lambda _: None)
    threads = user.client.get("/api/v1/message_threads", params={"pagination[limit]": "100"}).json()
    # A channel's inbound API lists no bookings, so the traffic knows no ended stay there: no reviews of future stays.
    reviews = user.client.get("/api/v1/reviews", params={"pagination[limit]": "100"}).json()
    assert reviews["meta"]["total"] == 0
    assert threads["meta"]["total"] >= 5
    assert {t["attributes"]["provider"] for t in threads["data"]} == {"BookingCom", "AirBNB"}
    booking_com.adapter.close()
    airbnb.adapter.close()


def test_the_command(new_db):
    db = new_db("sim")
    frontdesk("demo", db=db)
    result = frontdesk("simulate", "--count", "3", "--every", "0", "--seed", "1", db=db)
    lines = result.stdout.strip().splitlines()
    # The demo's replies wait for their channels: the first event's turn delivers them.
    assert len([line for line in lines if not delivery(line)]) == 3 and delivery(lines[0])
    refused = frontdesk("simulate", "--server", "http://127.0.0.1:9", "--count", "1", db=db, ok=False)
    assert "--channel" in refused.stderr


def pending(engine) -> int:
    return engine.store.scalar("SELECT count(*) FROM messages WHERE delivery = 'pending'")


def test_the_demos_replies_are_delivered_by_the_channels(engine):
    """Before its first event each channel takes its waiting replies; then there are none until staff write again."""
    load_demo(engine)
    assert pending(engine) > 0
    sink = EngineSink(engine)
    said: list[str] = []
    traffic = Traffic(sink.channels(), sink, engine.config.clock().date(), random.Random(2))
    run(traffic, 1, 0, said.append)
    assert pending(engine) == 0 and any(delivery(line) for line in said)
    assert engine.store.scalar("SELECT count(*) FROM messages WHERE delivery = 'delivered' AND delivered_at IS NULL") \
        == 0
    assert [line for line in traffic.deliver() if "ARI" not in line] == []  # the event's booking moved ARI


def test_a_running_servers_replies_are_delivered_through_the_outbox_feed(user, live):
    """Against `serve` on loopback: a reply sent through the API waits for the channel; one turn of the simulator,
    as that channel's adapter, takes it from the outbox feed and acks it, and the API then shows it delivered."""
    desk = Desk(user, live)
    desk.guest_says("Is breakfast included?")
    thread = desk.thread_id()
    sent = check(user.client.post(f"/api/v1/message_threads/{thread}/messages",
                                  json={"message": {"message": "Yes, from 7:00."}}))["data"]
    assert sent["attributes"]["delivery"] == "pending"
    with httpx.Client(base_url=live[1].url, timeout=10) as client:
        sink = HttpSink(client, {desk.shop.channel_id: desk.shop.inbound_key})
        traffic = Traffic(sink.channels(), sink, datetime.now(UTC).date(), random.Random(4))
        said: list[str] = []
        run(traffic, 1, 0, said.append)
        assert said[0] == "BookingCom: a reply from staff delivered"
        assert traffic.deliver() == []
    messages = check(user.client.get(f"/api/v1/message_threads/{thread}/messages"))["data"]
    assert {m["id"]: m["attributes"].get("delivery") for m in messages}[sent["id"]] == "delivered"
    assert check(desk.adapter.get(f"{desk.inbound}/outbox"))["data"] == []
    desk.adapter.close()


def test_a_channel_that_pulls_ari_reads_and_acks_its_feed(engine):
    """The demo's Booking.com pulls its ARI: a change waits for it, the simulator reads the feed as its adapter
    would and acks it, so that nothing waits afterwards, and an ack of nothing new is not sent."""
    load_demo(engine)
    operator = engine.identity.operator()
    booking_com = next(c for c in engine.channels.list(operator, ListQuery(limit=10))[0] if c["channel"] == "BookingCom")

    def waiting() -> int:
        stamp_positions(engine.store)  # as the deliverer does: what committed is counted
        return engine.distribution.sync_of(booking_com)["waiting"]

    hotel = engine.store.scalar("SELECT id FROM properties WHERE title = 'Hotel Edelweiss'")
    room = engine.store.scalar("SELECT id FROM room_types WHERE property_id = ? ORDER BY title LIMIT 1", (hotel,))
    night = str(engine.config.clock().date() + timedelta(days=20))
    engine.inventory.ari.set_availability(operator, [{"property_id": hotel, "room_type_id": room, "date": night,
                                                      "availability": 1}])
    assert waiting() > 0
    sink = EngineSink(engine)
    traffic = Traffic(sink.channels(), sink, engine.config.clock().date(), random.Random(2))
    said = traffic.deliver()
    assert "BookingCom: read 1 ARI value" in said
    assert waiting() == 0
    changes = engine.store.scalar("SELECT count(*) FROM changes")
    assert not any("ARI" in line for line in traffic.deliver())
    assert engine.store.scalar("SELECT count(*) FROM changes") == changes


def test_a_running_servers_pull_channel_reads_its_ari_through_the_inbound_feed(user, live):
    """Against `serve`: a Booking.com channel that pulls its ARI has a rate change waiting; the simulator, as its
    adapter, reads the feed and acks it over HTTP, and the channel's sync then has nothing waiting."""
    desk = Desk(user, live)
    check(user.client.put(f"/api/v1/channels/{desk.shop.channel_id}", json={"channel": {
        "settings": {"ari_distribution": "pull"}}}))
    check(user.client.post("/api/v1/restrictions", json={"values": [{
        "property_id": desk.shop.property_id, "rate_plan_id": desk.shop.plan_id, "date": day(10), "rate": "180.00"}]}))
    assert check(desk.adapter.get(f"{desk.inbound}/ari"))["data"]  # waiting, not acked by that read
    with httpx.Client(base_url=live[1].url, timeout=10) as client:
        sink = HttpSink(client, {desk.shop.channel_id: desk.shop.inbound_key})
        traffic = Traffic(sink.channels(), sink, datetime.now(UTC).date(), random.Random(4))
        said = traffic.deliver()
        assert any(line.startswith("BookingCom: read ") and "ARI value" in line for line in said)
        assert traffic.deliver() == []  # nothing new: no line, no ack
    assert check(desk.adapter.get(f"{desk.inbound}/ari"))["data"] == []
    desk.adapter.close()
