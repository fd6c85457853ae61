"""The pull feed over real HTTP: a pull channel's adapter reads the ARI changes since its cursor — mapped room types
and rate plans only, by their codes, values read now, consecutive days collapsed, a page at a time — and acks."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from backend.core.errors import ValidationFailed
from backend.distribution import pull
from backend.outbox.deliverer import RETENTION, add_destination, prune
from backend.outbox.record import record
from backend.outbox.store import head as outbox_head, newest_position, stamp_positions
from tests.distribution.hotel import Hotel, adapter_of, assembled, make_hotel
from tests.shopping.shop import check, day

PULL = {"ari_distribution": "pull"}


@pytest.fixture
def hotel(user) -> Hotel:
    return make_hotel(user.client, plans=2, settings=PULL, codes=True)


@pytest.fixture
def adapter(live, hotel) -> Iterator[httpx.Client]:
    with adapter_of(live[1].url, hotel) as client:
        yield client


def head(live) -> int:
    return newest_position(live[0].store)


def test_the_feed_holds_the_mapped_changes_by_code_collapsed(live, hotel, adapter):
    unmapped = hotel.plan("Direct only")
    hotel.restrict({"date_from": day(1), "date_to": day(6), "rate": "120.00"},
                   {"date_from": day(3), "date_to": day(4), "min_stay_arrival": 3},
                   {"rate_plan_id": unmapped, "date_from": day(1), "date_to": day(6), "rate": "80.00"})
    hotel.available(day(1), day(2), 4)

    page = check(adapter.get("/ari"))
    assert page["meta"] == {"cursor": head(live), "has_more": False}
    plan = {"property_id": hotel.property_id, "rate_plan_id": hotel.plan_ids[0], "rate_plan_code": "P1",
            "room_type_code": "R1", "rate": "120.00", "min_stay_through": 1, "max_stay": 0,
            "closed_to_arrival": False, "closed_to_departure": False, "stop_sell": False}
    assert page["data"] == [
        {"property_id": hotel.property_id, "room_type_id": hotel.room_id, "room_type_code": "R1",
         "date_from": day(1), "date_to": day(2), "availability": 4},
        {**plan, "date_from": day(1), "date_to": day(2), "min_stay_arrival": 1},
        {**plan, "date_from": day(3), "date_to": day(4), "min_stay_arrival": 3},
        {**plan, "date_from": day(5), "date_to": day(6), "min_stay_arrival": 1}]
    assert assembled(page["data"]) == {**hotel.ari(day(1), day(2), hotel.room_id),
                                       **hotel.ari(day(1), day(6), hotel.plan_ids[0])}


def test_an_ack_moves_the_cursor_forward_only(live, hotel, adapter):
    hotel.restrict({"date": day(1), "rate": "120.00"})
    cursor = check(adapter.get("/ari"))["meta"]["cursor"]
    acked = check(adapter.post("/ari/ack", json={"cursor": cursor}))
    assert acked == {"meta": {"message": "Success", "cursor": cursor}}
    assert check(adapter.get("/ari")) == {"data": [], "meta": {"cursor": cursor, "has_more": False}}

    hotel.restrict({"date": day(2), "rate": "130.00"})
    [value] = check(adapter.get("/ari"))["data"]
    assert (value["date_from"], value["rate"]) == (day(2), "130.00")
    assert check(adapter.get("/ari", params={"cursor": cursor - 1}))["data"][0]["date_from"] == day(1)  # read again
    assert check(adapter.post("/ari/ack", json={"cursor": cursor - 1}))["meta"]["cursor"] == cursor  # never back
    assert hotel.sync()["cursor"] == cursor and hotel.sync()["last_delivered_at"] is not None


@pytest.mark.parametrize("body", [{"cursor": 10**9}, {"cursor": -1}, {"cursor": "5"}, {"cursor": True}])
def test_a_cursor_beyond_the_outbox_is_refused(hotel, adapter, body):
    before = hotel.sync()["cursor"]
    assert "cursor" in check(adapter.post("/ari/ack", json=body), 422)["errors"]["details"]
    assert hotel.sync()["cursor"] == before


def test_bad_requests_to_the_feed(hotel, adapter, anonymous):
    assert check(adapter.post("/ari/ack", json=[1]), 400)["errors"]["code"] == "bad_request"
    assert "cursor" in check(adapter.get("/ari", params={"cursor": "-1"}), 422)["errors"]["details"]
    assert "cursor" in check(adapter.get("/ari", params={"cursor": 10**9}), 422)["errors"]["details"]
    wrong = anonymous.get(f"/api/v1/inbound/{hotel.channel_id}/ari", headers={"api-key": "not-the-key"})
    assert check(wrong, 401)["errors"]["code"] == "unauthorized"


def test_only_a_pull_channel_has_a_feed(user, anonymous):
    for settings in ({}, {"ari_distribution": "push", "ari_url": "http://127.0.0.1:9/ari"}):
        other = make_hotel(user.client, settings=settings)
        headers = {"api-key": other.channel["inbound_key"]}
        for answer in (anonymous.get(f"/api/v1/inbound/{other.channel_id}/ari", headers=headers),
                       anonymous.post(f"/api/v1/inbound/{other.channel_id}/ari/ack", headers=headers,
                                      json={"cursor": 0})):
            assert check(answer, 422)["errors"]["code"] == "not_supported"


def test_pages_are_bounded(live, hotel, adapter, monkeypatch):
    monkeypatch.setattr("backend.distribution.pull.PAGE_NIGHTS", 3)
    for offset in (1, 3, 5):  # three events of two nights each
        hotel.restrict({"date_from": day(offset), "date_to": day(offset + 1), "rate": f"1{offset}0.00"})

    first = check(adapter.get("/ari"))
    assert [v["date_from"] for v in first["data"]] == [day(1), day(3)] and first["meta"]["has_more"] is True
    second = check(adapter.get("/ari", params={"cursor": first["meta"]["cursor"]}))
    assert [v["date_from"] for v in second["data"]] == [day(5)]
    assert second["meta"] == {"cursor": head(live), "has_more": False}


def test_a_full_sync_puts_the_whole_window_in_the_feed(live, user):
    hotel = make_hotel(user.client, settings=PULL, state_length=100)
    hotel.restrict({"date_from": day(0), "date_to": day(99), "rate": "95.00"})
    with adapter_of(live[1].url, hotel) as adapter:
        check(adapter.post("/ari/ack", json={"cursor": check(adapter.get("/ari"))["meta"]["cursor"]}))
        assert check(user.client.post(f"/api/v1/channels/{hotel.channel_id}/full_sync"))["meta"]["queued"] == 2
        assert assembled(check(adapter.get("/ari"))["data"]) == hotel.ari(day(0), day(99))


def test_a_cursor_stays_good_once_the_events_before_it_are_pruned(engine):
    """The newest event may be pruned (every destination passed it a week ago): the cursor that reached it is still
    a cursor, and a destination added then starts after it."""
    with engine.store.transaction() as conn:
        for number in range(3):
            record(conn, "ari", "property", {"n": number})
    stamp_positions(engine.store)
    newest = outbox_head(engine.store.conn)
    assert pull.ack(engine.store, "a-pull-channel", newest, datetime.now(UTC)) == newest
    prune(engine.store, datetime.now(UTC) + RETENTION + timedelta(minutes=1))
    assert engine.store.scalar("SELECT count(*) FROM events") == 0

    assert pull.ack(engine.store, "a-pull-channel", newest, datetime.now(UTC)) == newest
    assert pull.checked(engine.store, newest) == newest
    with pytest.raises(ValidationFailed):
        pull.checked(engine.store, newest + 1)
    with engine.store.transaction() as conn:
        add_destination(conn, "a-new-webhook", "webhook")
    assert engine.store.scalar("SELECT cursor FROM destinations WHERE id = 'a-new-webhook'") == newest


def test_the_feed_holds_an_unmapped_plans_closing_and_a_newly_mapped_plans_window(live, user):
    hotel = make_hotel(user.client, plans=2, settings=PULL, codes=True, state_length=100)
    first, second = hotel.plan_ids
    codes = [{"rate_plan_id": plan, "settings": {"room_type_code": "R1", "rate_plan_code": f"P{n}"}}
             for n, plan in enumerate(hotel.plan_ids, 1)]
    with adapter_of(live[1].url, hotel) as adapter:
        hotel.update(rate_plans=codes[:1])
        page = check(adapter.get("/ari"))
        assert page["data"] == [{"property_id": hotel.property_id, "rate_plan_id": second, "rate_plan_code": "P2",
                                 "room_type_code": "R1", "date_from": day(0), "date_to": day(99), "stop_sell": True}]
        check(adapter.post("/ari/ack", json={"cursor": page["meta"]["cursor"]}))

        hotel.restrict({"rate_plan_id": second, "date_from": day(0), "date_to": day(99), "rate": "75.00"})
        assert check(adapter.get("/ari"))["data"] == []  # not sold there: none of its changes
        hotel.update(rate_plans=codes)
        assert assembled(check(adapter.get("/ari"))["data"]) == hotel.ari(day(0), day(99), second)
