"""A close out made while bookings are pushed for its nights, truly at once, on every store: a push either lands
before the rule committed or is refused after it, never sold after it (both take the property's write scope).
Threads over HTTP against one server, and processes of their own over one database."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.at_once import at_once
from tests.conftest import serve_site
from tests.shopping.shop import Shop, booking, day, make_shop
from tests.stores import Database

ROOMS, PUSHES, ATTEMPTS = 40, 12, 3


def closed() -> str:
    """The refusal of the closed night, of the day the test runs (not the day the module was collected)."""
    return f"can't be booked: no availability on {day(1)}"


@pytest.fixture
def database(new_db) -> Database:
    return new_db()


@pytest.fixture
def site(database):
    with serve_site(database) as served:
        yield served


def _rule(shop: Shop) -> dict[str, Any]:
    return {"title": "Closed", "type": "close_out", "affected_channels": [shop.channel_id],
            "affected_room_types": [shop.room_id], "start_date": day(1), "end_date": day(2),
            "property_id": shop.property_id}


def _none_sold_after_the_rule(site, shop: Shop) -> int:
    """How many were sold: every booking of the property was written before the rule was."""
    store = site.engine.store
    made = store.scalar("SELECT inserted_at FROM channel_availability_rules WHERE property_id = ?", (shop.property_id,))
    booked = [row[0] for row in store.query("SELECT inserted_at FROM bookings WHERE property_id = ?",
                                            (shop.property_id,))]
    assert all(at < made for at in booked), (made, booked)
    assert shop.availability(day(1), day(1)) == {day(1): ROOMS - len(booked)}
    return len(booked)


def test_pushes_racing_a_close_out_land_before_it_or_are_refused(site):
    shop = make_shop(site.user(), rooms=ROOMS, days=5)
    start = threading.Barrier(PUSHES + 1)

    first_sold = threading.Event()

    def work(n: int) -> list[tuple[int, Any]]:
        """The rule, once pushes are selling, or pushes one after another: the rule commits among them."""
        with httpx.Client(base_url=site.main.url, timeout=30) as client:
            start.wait(10)
            if n == PUSHES:
                first_sold.wait(10)
                answer = shop.user.client.post("/api/v1/channel_availability_rules",
                                               json={"channel_availability_rule": _rule(shop)})
                return [(answer.status_code, answer.json())]
            answers = []
            for attempt in range(ATTEMPTS):
                answers.append(client.post(f"{shop.meta}/push_booking", json=booking(
                    shop, day(1), day(3), reservation_id=f"RACE-{n}-{attempt}")))
                if answers[-1].status_code == 201:
                    first_sold.set()
            return [(answer.status_code, answer.json()) for answer in answers]

    with ThreadPoolExecutor(PUSHES + 1) as pool:
        answers = list(pool.map(work, range(PUSHES + 1)))
    [rule], pushes = answers[-1], [answer for each in answers[:-1] for answer in each]
    assert rule[0] == 201
    statuses = Counter(status for status, _ in pushes)
    assert set(statuses) <= {201, 422}
    for status, body in pushes:
        if status == 422:
            assert body["errors"]["details"] == {"rooms.0": [closed()]}
    assert _none_sold_after_the_rule(site, shop) == statuses[201]


def race_in_a_process(database: Database, barrier, shop: dict[str, str], email: str) -> None:
    engine = database.engine()
    if barrier.wait() == 0:  # one process makes the rule once the others are selling
        for _ in range(1000):
            if engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop["property_id"],)):
                break
            time.sleep(0.01)
        engine.availability_rules.create(engine.identity.actor_for(email), {
            "title": "Closed", "type": "close_out", "affected_channels": [shop["channel_id"]],
            "affected_room_types": [shop["room_id"]], "start_date": day(1), "end_date": day(2),
            "property_id": shop["property_id"]})
        return
    for attempt in range(ATTEMPTS * 2):
        body = booking(_Shop(**shop), day(1), day(3), reservation_id=f"P-{id(barrier)}-{attempt}")["booking"]
        try:
            engine.bookings.push(shop["channel_id"], shop["property_id"], body, secure=False)
        except Exception as exc:  # a 422 once the rule is there
            assert closed() in str(exc), exc


class _Shop:
    def __init__(self, **ids: str) -> None:
        self.room_id, self.plan_id = ids["room_id"], ids["plan_id"]


def test_processes_pushing_while_another_makes_a_close_out_never_sell_after_it(database, site):
    shop = make_shop(site.user(), rooms=ROOMS, days=5)
    ids = {"channel_id": shop.channel_id, "property_id": shop.property_id, "room_id": shop.room_id,
           "plan_id": shop.plan_id}
    assert at_once(race_in_a_process, database, ids, shop.user.actor.email) == [0, 0, 0, 0]
    _none_sold_after_the_rule(site, shop)
