"""ARI pushed to a channel in the service's JSON shapes over real HTTP on loopback: the changed ranges of mapped
plans and room types only, by their codes, values read when sent, consecutive days collapsed, signed with the
channel's secret; many changes coalesced into few calls; a derived plan following its parent; a full sync of the
whole window; and what the receiver assembled equals the engine's ARI."""

from __future__ import annotations

from standardwebhooks.webhooks import Webhook

from tests.distribution.hotel import adapter_of, assembled, make_hotel, settled
from tests.shopping.shop import check, day


def push(receiver, **settings) -> dict:
    return {"ari_distribution": "push", "ari_url": f"{receiver.url}/ari", **settings}


def test_a_change_arrives_as_collapsed_ranges_by_code_and_signed(site, owner, receiver):
    hotel = make_hotel(owner.client, plans=2, settings=push(receiver), codes=True)
    unmapped = hotel.plan("Not sold here")
    hotel.restrict({"date_from": day(1), "date_to": day(10), "rate": "120.00"},
                   {"date_from": day(4), "date_to": day(5), "stop_sell": True},
                   {"rate_plan_id": unmapped, "date_from": day(1), "date_to": day(10), "rate": "90.00"})
    hotel.available(day(1), day(3), 2)
    settled(site.engine, hotel.channel_id)

    values = [v for r in receiver.received for v in r.json()["values"]]
    assert {v.get("rate_plan_id") for v in values} == {None, hotel.plan_ids[0]}  # no other plan, mapped or not
    assert [(v["date_from"], v["date_to"], v["rate"], v["stop_sell"]) for v in values if "rate_plan_id" in v] == [
        (day(1), day(3), "120.00", False), (day(4), day(5), "120.00", True), (day(6), day(10), "120.00", False)]
    first = next(v for v in values if "rate_plan_id" in v)
    assert first == {"property_id": hotel.property_id, "rate_plan_id": hotel.plan_ids[0], "rate_plan_code": "P1",
                     "room_type_code": "R1", "date_from": day(1), "date_to": day(3), "rate": "120.00",
                     "min_stay_arrival": 1, "min_stay_through": 1, "max_stay": 0, "closed_to_arrival": False,
                     "closed_to_departure": False, "stop_sell": False}
    assert [v for v in values if "room_type_id" in v] == [{
        "property_id": hotel.property_id, "room_type_id": hotel.room_id, "room_type_code": "R1",
        "date_from": day(1), "date_to": day(3), "availability": 2}]
    for arrival in receiver.received:  # any consumer checks it with the standardwebhooks package
        Webhook(hotel.channel["ari_secret"]).verify(arrival.body, arrival.headers)
        assert arrival.headers["content-type"] == "application/json"
    assert assembled(receiver.received) == {**hotel.ari(day(1), day(3), hotel.room_id),
                                            **hotel.ari(day(1), day(10), hotel.plan_ids[0])}


def test_values_are_read_when_sent_so_an_older_change_never_arrives_after_a_newer_one(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver))
    with hotel.paused():
        hotel.restrict({"date_from": day(1), "date_to": day(5), "rate": "120.00"})
        hotel.restrict({"date_from": day(2), "date_to": day(3), "rate": "150.00"})
    settled(site.engine, hotel.channel_id)

    values = [v for r in receiver.received for v in r.json()["values"]]
    assert [(v["date_from"], v["date_to"], v["rate"]) for v in values] == [
        (day(1), day(1), "120.00"), (day(2), day(3), "150.00"), (day(4), day(5), "120.00")]


def test_a_year_of_rates_for_50_plans_is_a_handful_of_calls(site, owner, receiver):
    hotel = make_hotel(owner.client, plans=50, settings=push(receiver))
    before = len(receiver.received)
    check(owner.client.post("/api/v1/restrictions", json={"values": [
        {"property_id": hotel.property_id, "rate_plan_id": plan_id, "date_from": day(1), "date_to": day(365),
         "rate": rate, **({"days": ["sa", "su"]} if weekend else {})}
        for plan_id in hotel.plan_ids for weekend, rate in ((False, "100.00"), (True, "140.00"))]}))
    settled(site.engine, hotel.channel_id)

    calls = receiver.received[before:]
    assert 1 <= len(calls) <= 5  # 18,250 nights, 50 × ~105 ranges: not 18,250 calls
    assert assembled(calls) == hotel.ari(day(1), day(365), *hotel.plan_ids)


def test_the_rooms_a_booking_takes_reach_the_channel(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver))
    hotel.available(day(1), day(5), 3)
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    stay = {"status": "new", "reservation_id": "BK-1", "property_id": hotel.property_id, "arrival_date": day(2),
            "departure_date": day(4), "currency": "EUR", "customer": {"surname": "Doe", "name": "Jane"},
            "rooms": [{"room_type_code": hotel.room_id, "rate_plan_code": hotel.plan_ids[0],
                       "occupancy": {"adults": 2, "children": 0, "infants": 0}, "days": {day(2): "100.00",
                                                                                           day(3): "100.00"}}]}
    with adapter_of(site.main.url, hotel) as adapter:
        check(adapter.post("/bookings", json={"booking": stay}), 201)
    settled(site.engine, hotel.channel_id)

    assert [v for r in receiver.received[before:] for v in r.json()["values"]] == [{
        "property_id": hotel.property_id, "room_type_id": hotel.room_id, "room_type_code": hotel.room_id,
        "date_from": day(2), "date_to": day(3), "availability": 2}]


def test_a_derived_plan_follows_its_parent(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver))
    child = hotel.plan("Early bird", rate_mode="derived", parent_rate_plan_id=hotel.plan_ids[0], options=[
        {"occupancy": 2, "is_primary": True, "derived_option": {"rate": [["decrease_by_percent", "10"]]}}])
    hotel.update(rate_plans=[{"rate_plan_id": hotel.plan_ids[0]}, {"rate_plan_id": child}])
    settled(site.engine, hotel.channel_id)  # the child, newly mapped, is sent its window
    before = len(receiver.received)
    hotel.restrict({"date_from": day(1), "date_to": day(3), "rate": "200.00"})
    settled(site.engine, hotel.channel_id)

    got = assembled(receiver.received[before:])
    assert {d: v["rate"] for d, v in got[child].items()} == {day(1): "180.00", day(2): "180.00", day(3): "180.00"}
    assert got == hotel.ari(day(1), day(3), hotel.plan_ids[0], child)


def test_a_full_sync_sends_the_whole_window_to_that_channel_alone(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver), state_length=100)
    hotel.restrict({"date_from": day(0), "date_to": day(99), "rate": "110.00"},
                   {"date_from": day(20), "date_to": day(29), "closed_to_arrival": True})
    hotel.available(day(0), day(49), 3)
    other = make_hotel(owner.client, settings=push(receiver))  # another channel, on another hotel
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    synced = check(owner.client.post(f"/api/v1/channels/{hotel.channel_id}/full_sync"))
    assert synced == {"meta": {"message": "Success", "queued": 2}}
    settled(site.engine, hotel.channel_id)
    settled(site.engine, other.channel_id)

    got = assembled(receiver.received[before:])
    assert got == hotel.ari(day(0), day(99))  # every night of the window, room and plan, as the engine reads them
    assert other.plan_ids[0] not in got and other.room_id not in got


def test_the_channel_shows_its_sync_state_and_deliveries(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver))
    hotel.restrict({"date": day(1), "rate": "99.00"})
    settled(site.engine, hotel.channel_id)

    sync = hotel.sync()
    assert sync["ari_distribution"] == "push" and sync["failing_since"] is None and sync["last_error"] is None
    assert sync["last_delivered_at"] is not None and sync["waiting"] == 0
    log = check(owner.client.get(f"/api/v1/channels/{hotel.channel_id}/deliveries"))["data"]
    assert log[0]["attributes"]["status"] == "delivered" and log[0]["attributes"]["response_status"] == 200
    assert log[0]["attributes"]["payload"]["rate_plan_id"] == hotel.plan_ids[0]


def test_a_plan_changed_without_a_night_written_reaches_the_channel(site, owner, receiver):
    hotel = make_hotel(owner.client, settings=push(receiver), state_length=100)
    child = hotel.plan("Early bird", rate_mode="derived", parent_rate_plan_id=hotel.plan_ids[0], options=[
        {"occupancy": 2, "is_primary": True, "derived_option": {"rate": [["decrease_by_percent", "10"]]}}])
    hotel.update(rate_plans=[{"rate_plan_id": hotel.plan_ids[0]}, {"rate_plan_id": child}])
    hotel.restrict({"date_from": day(0), "date_to": day(99), "rate": "100.00"})
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    # Weekends closed by the parent's weekday defaults (which its child inherits), and the child's discount changed.
    check(owner.client.put(f"/api/v1/rate_plans/{hotel.plan_ids[0]}", json={"rate_plan": {
        "stop_sell": [False] * 5 + [True] * 2}}))
    check(owner.client.put(f"/api/v1/rate_plans/{child}", json={"rate_plan": {"inherit_stop_sell": True, "options": [
        {"occupancy": 2, "is_primary": True, "derived_option": {"rate": [["decrease_by_percent", "20"]]}}]}}))
    settled(site.engine, hotel.channel_id)

    got = assembled(receiver.received[before:])
    assert got == hotel.ari(day(0), day(99), hotel.plan_ids[0], child)  # every night, as the engine reads them now
    assert {v["rate"] for v in got[child].values()} == {"80.00"}
    assert any(v["stop_sell"] for v in got[child].values()) and not all(v["stop_sell"] for v in got[child].values())
