"""The nights a push channel is told are open move, and it hears of it over real HTTP on loopback, in the service's
JSON: the night that enters the window when a day passes (told once, by the deliverer's sweep, whichever process
looks), the nights a longer or shorter state_length adds or takes away, those the cut-off closes and midnight opens
again, and a change of time zone. The server runs on a clock the tests move."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from backend.core.config import Config
from backend.distribution import window_moves
from backend.engine import Engine
from tests.conftest import Site, delivering_site
from tests.distribution.conftest import MAX_ATTEMPTS
from tests.distribution.hotel import Hotel, assembled, make_hotel, settled
from tests.receiver import Receiver
from tests.shopping.shop import check
from tests.webhooks.hooks import make_hook, settled as hooks_settled


class Clock:
    """The server's now: set by the tests, only ever forward (each test starts on a morning of its own)."""

    def __init__(self) -> None:
        self.at = datetime.now(UTC)
        self.start = self.at

    def __call__(self) -> datetime:
        return self.at

    def next_morning(self) -> None:
        self.at = (self.at + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
        self.start = self.at

    def at_time(self, hour: int, minute: int, days: int = 0) -> None:
        moved = (self.start + timedelta(days=days)).replace(hour=hour, minute=minute)
        assert moved > self.at
        self.at = moved

    def night(self, offset: int) -> str:
        """A night counted from the test's first day (at a property in UTC)."""
        return (self.start.date() + timedelta(days=offset)).isoformat()


@pytest.fixture(scope="module")
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="module")
def site(session_db, clock) -> Iterator[Site]:
    with delivering_site(session_db("window"), MAX_ATTEMPTS, clock=clock) as site:
        yield site


@pytest.fixture(autouse=True)
def morning(clock) -> None:
    clock.next_morning()


def push(receiver) -> dict:
    return {"ari_distribution": "push", "ari_url": f"{receiver.url}/ari"}


def head(site: Site) -> int:
    return site.engine.store.scalar("SELECT coalesce(max(seq), 0) FROM events")


def moves(site: Site, hotel: Hotel, after: int) -> list[dict]:
    """The window's events of the hotel's property since `after`, without their property."""
    rows = site.engine.store.query("SELECT channel_id, payload FROM events WHERE seq > ? AND property_id = ? "
                                   "AND event = 'ari' ORDER BY seq", (after, hotel.property_id))
    assert all(row["channel_id"] is None for row in rows)  # every channel that sells the plan hears of it
    return [{k: v for k, v in json.loads(row["payload"]).items() if k != "property_id"} for row in rows]


def told(hotel: Hotel, date_from: str, date_to: str, *, closed: bool = False) -> list[dict]:
    """The two events of one moved range: the room type's, then the plan's."""
    extra = {"closed": True} if closed else {}
    return [{"room_type_id": hotel.room_id, "date_from": date_from, "date_to": date_to, "cause": "window", **extra},
            {"rate_plan_id": hotel.plan_ids[0], "date_from": date_from, "date_to": date_to, "cause": "window",
             **extra}]


def values(received) -> list[dict]:
    return [v for r in received for v in r.json()["values"]]


def shut(hotel: Hotel, date_from: str, date_to: str) -> list[dict]:
    """What the channel gets for nights it must stop selling (the mapping names no codes: the IDs are the codes)."""
    return [{"property_id": hotel.property_id, "room_type_id": hotel.room_id, "room_type_code": hotel.room_id,
             "date_from": date_from, "date_to": date_to, "availability": 0},
            {"property_id": hotel.property_id, "rate_plan_id": hotel.plan_ids[0], "rate_plan_code": hotel.plan_ids[0],
             "room_type_code": hotel.room_id, "date_from": date_from, "date_to": date_to, "stop_sell": True}]


def set_property(owner, hotel: Hotel, status: int = 200, **fields) -> None:
    check(owner.client.put(f"/api/v1/properties/{hotel.property_id}", json={"property": fields}), status)


def stocked(owner, receiver, clock: Clock, **settings) -> Hotel:
    """A hotel pushed to the receiver, with rates and rooms over its 100-night window (nights beyond it can't be
    written: they read as never written, no rate and no rooms, once they enter it)."""
    hotel = make_hotel(owner.client, settings=push(receiver), state_length=100)
    if settings:
        set_property(owner, hotel, settings=settings)
    hotel.restrict({"date_from": clock.night(0), "date_to": clock.night(99), "rate": "130.00"})
    hotel.available(clock.night(0), clock.night(99), 4)
    return hotel


def test_the_night_that_enters_the_window_each_day_reaches_the_channel_once(site, clock, owner, receiver):
    hotel = stocked(owner, receiver, clock)
    settled(site.engine, hotel.channel_id)
    assert clock.night(100) not in assembled(receiver.received)[hotel.plan_ids[0]]  # beyond the window: not sent
    hooked = Receiver()
    hook = make_hook(owner.client, hotel.property_id, hooked.url, "*")
    before, start = len(receiver.received), head(site)

    clock.at_time(0, 5, days=1)  # a day later
    window_moves.sweep(site.engine.store, clock())  # the deliverer's sweep (it runs it every 10 s too)
    assert moves(site, hotel, start) == told(hotel, clock.night(100), clock.night(100))
    assert window_moves.sweep(site.engine.store, clock()) == 0  # told once
    # another process on the same database
    other = Engine.open(site.engine.store.location, Config(clock=clock, keys_path=site.engine.config.keys_path))
    try:
        assert window_moves.sweep(other.store, clock()) == 0
    finally:
        other.store.close()
    settled(site.engine, hotel.channel_id)

    got = assembled(receiver.received[before:])
    assert got == hotel.ari(clock.night(100), clock.night(100))
    assert {target: list(nights) for target, nights in got.items()} == {
        hotel.room_id: [clock.night(100)], hotel.plan_ids[0]: [clock.night(100)]}
    hooks_settled(site.engine, hook["id"])
    hooked.close()
    assert hooked.received == []  # channels' business: a webhook's ARI is the nights a change wrote


def test_a_longer_state_length_sends_the_nights_it_adds_and_a_shorter_one_closes_those_it_takes(site, clock, owner,
                                                                                               receiver):
    hotel = stocked(owner, receiver, clock)
    settled(site.engine, hotel.channel_id)
    before, start = len(receiver.received), head(site)

    set_property(owner, hotel, settings={"state_length": 120})
    assert moves(site, hotel, start) == told(hotel, clock.night(100), clock.night(119))  # in the PUT's transaction
    settled(site.engine, hotel.channel_id)
    assert assembled(receiver.received[before:]) == hotel.ari(clock.night(100), clock.night(119))

    before, start = len(receiver.received), head(site)
    set_property(owner, hotel, settings={"state_length": 105})
    assert moves(site, hotel, start) == told(hotel, clock.night(105), clock.night(119), closed=True)
    settled(site.engine, hotel.channel_id)
    assert values(receiver.received[before:]) == shut(hotel, clock.night(105), clock.night(119))

    start = head(site)
    set_property(owner, hotel, 422, settings={"state_length": 50})  # refused: nothing moved, nothing told
    set_property(owner, hotel, title="Renamed")  # its window as it was: nothing to tell
    assert head(site) == start


def test_the_cut_off_closes_today_and_midnight_opens_it_again(site, clock, owner, receiver):
    hotel = stocked(owner, receiver, clock, cut_off_time="10:00:00", cut_off_days=1)  # set at 09:00: still open
    settled(site.engine, hotel.channel_id)
    before, start = len(receiver.received), head(site)

    clock.at_time(10, 30)  # the cut-off passed: today and tomorrow close
    window_moves.sweep(site.engine.store, clock())
    assert moves(site, hotel, start) == told(hotel, clock.night(0), clock.night(1), closed=True)
    settled(site.engine, hotel.channel_id)
    assert values(receiver.received[before:]) == shut(hotel, clock.night(0), clock.night(1))

    before = len(receiver.received)  # a night the cut-off closed stays closed for the channel, whatever is written
    hotel.restrict({"date_from": clock.night(0), "date_to": clock.night(2), "rate": "99.00"})
    settled(site.engine, hotel.channel_id)
    sent = values(receiver.received[before:])
    assert sent[0]["date_from"] == clock.night(2) and sent[0]["rate"] == "99.00"
    assert sent[1:] == shut(hotel, clock.night(0), clock.night(1))[1:]

    before, start = len(receiver.received), head(site)
    clock.at_time(0, 30, days=1)  # midnight: tomorrow is today, open until the cut-off; a night enters at the end
    window_moves.sweep(site.engine.store, clock())
    assert moves(site, hotel, start) == [
        *told(hotel, clock.night(1), clock.night(1))[:1], *told(hotel, clock.night(100), clock.night(100))[:1],
        *told(hotel, clock.night(1), clock.night(1))[1:], *told(hotel, clock.night(100), clock.night(100))[1:]]
    settled(site.engine, hotel.channel_id)
    assert assembled(receiver.received[before:]) == {
        target: {night: value for night, value in nights.items() if night in (clock.night(1), clock.night(100))}
        for target, nights in hotel.ari(clock.night(1), clock.night(100)).items()}


def test_a_new_time_zone_moves_the_window_and_back(site, clock, owner, receiver):
    clock.at_time(22, 0)  # 07:00 tomorrow in Tokyo
    hotel = stocked(owner, receiver, clock)
    settled(site.engine, hotel.channel_id)
    before, start = len(receiver.received), head(site)

    set_property(owner, hotel, timezone="Asia/Tokyo")  # its today is tomorrow: a night enters at the end
    assert moves(site, hotel, start) == told(hotel, clock.night(100), clock.night(100))
    settled(site.engine, hotel.channel_id)
    assert assembled(receiver.received[before:]) == hotel.ari(clock.night(100), clock.night(100))

    before, start = len(receiver.received), head(site)
    set_property(owner, hotel, timezone="UTC")  # today again: today opens, the last night closes
    assert moves(site, hotel, start) == [*told(hotel, clock.night(0), clock.night(0))[:1],
                                         *told(hotel, clock.night(100), clock.night(100), closed=True)[:1],
                                         *told(hotel, clock.night(0), clock.night(0))[1:],
                                         *told(hotel, clock.night(100), clock.night(100), closed=True)[1:]]
    settled(site.engine, hotel.channel_id)
    sent = values(receiver.received[before:])
    assert sent[-2:] == shut(hotel, clock.night(100), clock.night(100))
    assert assembled(sent[:-2]) == hotel.ari(clock.night(0), clock.night(0))
