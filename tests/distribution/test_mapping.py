"""What a push channel is told when what it sells changes under it, over real HTTP on loopback in the service's JSON:
a rate plan newly mapped gets its whole window (its room type's too when the channel did not sell that room type
yet), for that channel alone; a plan unmapped, deleted, or with its room type deleted is closed (stop sell, and no
availability for a room type no mapped plan sells any more) under the codes the channel knew; and each is recorded
in the transaction of the change."""

from __future__ import annotations

import json

from tests.distribution.hotel import assembled, make_hotel, settled
from tests.receiver import Receiver
from tests.shopping.shop import check, day
from tests.webhooks.hooks import make_hook, settled as hooks_settled


def push(receiver) -> dict:
    return {"ari_distribution": "push", "ari_url": f"{receiver.url}/ari"}


def values(received) -> list[dict]:
    return [v for r in received for v in r.json()["values"]]


def closed(hotel, plan_code: str, date_from: str, date_to: str, plan_id: str, room_code: str = "R1") -> dict:
    return {"property_id": hotel.property_id, "rate_plan_id": plan_id, "rate_plan_code": plan_code,
            "room_type_code": room_code, "date_from": date_from, "date_to": date_to, "stop_sell": True}


def no_rooms(hotel, date_from: str, date_to: str, room_code: str = "R1", room_id: str | None = None) -> dict:
    return {"property_id": hotel.property_id, "room_type_id": room_id or hotel.room_id, "room_type_code": room_code,
            "date_from": date_from, "date_to": date_to, "availability": 0}


def test_a_plan_newly_mapped_gets_its_whole_window_on_that_channel_alone(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver), state_length=100)
    other = make_hotel(owner.client, settings=push(receiver))  # another channel: it hears nothing of this
    newer = hotel.plan("Non-refundable")
    hotel.restrict({"rate_plan_id": newer, "date_from": day(0), "date_to": day(99), "rate": "90.00"},
                   {"rate_plan_id": newer, "date_from": day(10), "date_to": day(12), "stop_sell": True})
    settled(site.engine, hotel.channel_id)
    assert receiver.received == []  # not mapped yet: nothing of it goes
    hooked = Receiver()
    try:
        hook = make_hook(owner.client, hotel.property_id, hooked.url, "*")
        start = site.engine.store.scalar("SELECT max(seq) FROM events")

        hotel.update(rate_plans=[{"rate_plan_id": hotel.plan_ids[0]}, {"rate_plan_id": newer}])
        recorded = [(r["channel_id"], json.loads(r["payload"])) for r in site.engine.store.query(
            "SELECT channel_id, payload FROM events WHERE seq > ? AND event = 'ari'", (start,))]
        assert recorded == [(hotel.channel_id, {"property_id": hotel.property_id, "rate_plan_id": newer,
                                                "date_from": day(0), "date_to": day(99)})]  # in the PUT's transaction
        settled(site.engine, hotel.channel_id)
        settled(site.engine, other.channel_id)
        hooks_settled(site.engine, hook["id"])

        got = assembled(receiver.received)
        assert got == hotel.ari(day(0), day(99), newer)  # every night of the window, as the engine reads it
        assert [v["stop_sell"] for v in values(receiver.received) if v["date_from"] == day(10)] == [True]
        assert all(r.json()["values"][0]["property_id"] == hotel.property_id for r in receiver.received)
        assert hooked.received == []  # the channel's alone: no webhook gets it
    finally:
        hooked.close()


def test_a_plan_of_a_room_type_new_to_the_channel_brings_the_room_types_availability(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver), state_length=100)
    suite = check(owner.client.post("/api/v1/room_types", json={"room_type": {
        "property_id": hotel.property_id, "title": "Suite", "count_of_rooms": 2, "occ_adults": 2, "occ_children": 0,
        "occ_infants": 0}}), 201)["data"]["id"]
    plan = check(owner.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": hotel.property_id, "room_type_id": suite, "title": "Suite flexible",
        "options": [{"occupancy": 2, "is_primary": True, "rate": "250.00"}]}}), 201)["data"]["id"]
    check(owner.client.post("/api/v1/availability", json={"values": [{
        "property_id": hotel.property_id, "room_type_id": suite, "date_from": day(0), "date_to": day(49),
        "availability": 2}]}))
    settled(site.engine, hotel.channel_id)

    hotel.update(rate_plans=[{"rate_plan_id": hotel.plan_ids[0]}, {"rate_plan_id": plan}])
    settled(site.engine, hotel.channel_id)

    got = assembled(receiver.received)
    assert set(got) == {suite, plan}  # not the room type it sold already
    assert got == hotel.ari(day(0), day(99), suite, plan)


def test_a_plan_unmapped_is_closed_under_its_codes_and_its_room_type_when_no_plan_sells_it(site, owner, receiver):
    hotel = make_hotel(owner.client, plans=2, settings=push(receiver), codes=True, state_length=100)
    first, second = hotel.plan_ids
    hotel.restrict({"date_from": day(0), "date_to": day(99), "rate": "120.00"})
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    hotel.update(rate_plans=[{"rate_plan_id": first, "settings": {"room_type_code": "R1", "rate_plan_code": "P1"}}])
    settled(site.engine, hotel.channel_id)
    assert values(receiver.received[before:]) == [closed(hotel, "P2", day(0), day(99), second)]  # R1 still sold

    before = len(receiver.received)
    hotel.update(rate_plans=[])
    settled(site.engine, hotel.channel_id)
    assert values(receiver.received[before:]) == [no_rooms(hotel, day(0), day(99)),
                                                  closed(hotel, "P1", day(0), day(99), first)]


def test_a_plan_mapped_under_other_codes_closes_the_old_ones_and_is_sent_under_the_new(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver), codes=True, state_length=100)
    plan = hotel.plan_ids[0]
    hotel.restrict({"date_from": day(0), "date_to": day(99), "rate": "120.00"})
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    hotel.update(rate_plans=[{"rate_plan_id": plan, "settings": {"room_type_code": "R1", "rate_plan_code": "BAR"}}])
    settled(site.engine, hotel.channel_id)

    sent = values(receiver.received[before:])
    assert sent[-1] == closed(hotel, "P1", day(0), day(99), plan)
    assert {(v["rate_plan_code"], v["date_from"], v["date_to"], v["rate"]) for v in sent[:-1]} == {
        ("BAR", day(0), day(99), "120.00")}


def test_the_last_word_of_a_batch_wins_unmapped_then_mapped_again_is_open(site, owner, receiver):
    """Changes that waited go in one delivery, in their order: a plan unmapped then mapped again reads as it is,
    one mapped then unmapped is closed."""
    hotel = make_hotel(owner.client, plans=2, settings=push(receiver), state_length=100)
    first, second = hotel.plan_ids
    hotel.restrict({"rate_plan_id": first, "date_from": day(0), "date_to": day(99), "rate": "120.00"})
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    with hotel.paused():
        hotel.update(rate_plans=[{"rate_plan_id": second}])  # first closed, then ...
        hotel.update(rate_plans=[{"rate_plan_id": second}, {"rate_plan_id": first}])  # ... sold again
        hotel.update(rate_plans=[{"rate_plan_id": first}])  # and second closed for good
    settled(site.engine, hotel.channel_id)

    sent = values(receiver.received[before:])
    assert [v for v in sent if v.get("rate_plan_id") == first] == [
        {"property_id": hotel.property_id, "rate_plan_id": first, "rate_plan_code": first, "room_type_code":
         hotel.room_id, "date_from": day(0), "date_to": day(99), "rate": "120.00", "min_stay_arrival": 1,
         "min_stay_through": 1, "max_stay": 0, "closed_to_arrival": False, "closed_to_departure": False,
         "stop_sell": False}]
    assert [v for v in sent if v.get("rate_plan_id") == second] == [
        closed(hotel, second, day(0), day(99), second, room_code=hotel.room_id)]


def test_a_plan_deleted_and_a_room_type_deleted_are_closed(site, owner, receiver):
    hotel = make_hotel(owner.client, plans=2, settings=push(receiver), codes=True, state_length=100)
    first, second = hotel.plan_ids
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    check(owner.client.delete(f"/api/v1/rate_plans/{second}"))
    settled(site.engine, hotel.channel_id)
    assert values(receiver.received[before:]) == [closed(hotel, "P2", day(0), day(99), second)]
    assert [m["rate_plan_id"] for m in hotel.update()["attributes"]["rate_plans"]] == [first]

    before = len(receiver.received)
    check(owner.client.delete(f"/api/v1/room_types/{hotel.room_id}"))  # and its last plan with it
    settled(site.engine, hotel.channel_id)
    assert values(receiver.received[before:]) == [no_rooms(hotel, day(0), day(99)),
                                                  closed(hotel, "P1", day(0), day(99), first)]
    assert check(owner.client.get(f"/api/v1/channels/{hotel.channel_id}/deliveries"))["data"][0]["attributes"][
        "payload"]["closed"] is True


def test_a_refused_mapping_change_records_nothing(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver))
    foreign = make_hotel(owner.client).plan_ids[0]  # a plan of a property the channel is not connected to
    start = site.engine.store.scalar("SELECT max(seq) FROM events")
    check(owner.client.put(f"/api/v1/channels/{hotel.channel_id}", json={"channel": {
        "rate_plans": [{"rate_plan_id": foreign}]}}), 422)
    assert site.engine.store.scalar("SELECT max(seq) FROM events") == start


def test_a_channel_turned_to_push_is_not_sent_what_it_has_until_a_full_sync(site, owner, receiver):
    """As documented: a channel that starts taking ARI gets what changes from then on, and a full sync the rest."""
    hotel = make_hotel(owner.client)
    start = site.engine.store.scalar("SELECT max(seq) FROM events")
    hotel.update(settings=push(receiver))
    assert site.engine.store.scalar("SELECT max(seq) FROM events") == start
