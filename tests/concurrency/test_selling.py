"""What must hold however many writers run at once, on every store: never a room sold twice, one booking for one
reservation however often it is pushed, a card form's session spent once. Each runs the writers truly at once:
threads over HTTP against one server, and processes of their own over one database (as workers or hosts are)."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from backend.inventory.calendar import Calendar
from tests.at_once import at_once
from tests.conftest import serve_site
from tests.shopping.shop import booking, check, day, make_shop
from tests.stores import Database
from tests.vault.test_card_form import GUEST_CARD

ROOMS, PUSHES = 5, 24


@pytest.fixture
def database(new_db) -> Database:
    return new_db()


@pytest.fixture
def site(database):
    with serve_site(database) as served:
        yield served


def _at_once(count: int, work) -> list[Any]:
    """`work(n)` on `count` threads released together."""
    start = threading.Barrier(count)

    def run(n: int) -> Any:
        start.wait(10)
        return work(n)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_pushes_at_once_for_the_last_rooms_sell_exactly_the_rooms_there_are(site):
    shop = make_shop(site.user(), rooms=ROOMS, days=5)
    with httpx.Client(base_url=site.main.url, timeout=30) as client:
        statuses = _at_once(PUSHES, lambda n: client.post(f"{shop.meta}/push_booking", json=booking(
            shop, day(1), day(3), reservation_id=f"LAST-{n}")).status_code)
    assert Counter(statuses) == {201: ROOMS, 422: PUSHES - ROOMS}
    assert shop.availability(day(1), day(2)) == {day(1): 0, day(2): 0}
    bookings = check(shop.user.client.get("/api/v1/bookings", params={"pagination[limit]": 100}))["data"]
    assert len(bookings) == ROOMS


def test_one_reservation_pushed_twenty_times_at_once_is_one_booking(site):
    shop = make_shop(site.user(), rooms=ROOMS, days=5)
    body = booking(shop, day(1), day(2), reservation_id="SAME")
    with httpx.Client(base_url=site.main.url, timeout=30) as client:
        answers = _at_once(20, lambda _: client.post(f"{shop.meta}/push_booking", json=body))
    assert Counter(a.status_code for a in answers) == {201: 20}  # a repeat is answered as the first was
    assert len({a.json()["data"]["id"] for a in answers}) == 1
    assert site.engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop.property_id,)) == 1
    assert shop.availability(day(1), day(1)) == {day(1): ROOMS - 1}


def test_one_reservation_number_pushed_for_two_properties_at_once_is_one_booking(site):
    """Pushes of two properties go at once on PostgreSQL, but a reservation number is the channel's: whichever
    property's push is first makes the booking, the other's is refused as a different booking under that number."""
    first = make_shop(site.user(), rooms=ROOMS, days=5)
    second = make_shop(first.user, rooms=ROOMS, days=5)
    check(first.user.client.put(f"/api/v1/channels/{first.channel_id}", json={"channel": {
        "property_ids": [first.property_id, second.property_id], "rate_plan_ids": [first.plan_id, second.plan_id]}}))
    shops = (first, second)
    with httpx.Client(base_url=site.main.url, timeout=30) as client:
        answers = _at_once(20, lambda n: client.post(
            f"/api/v1/meta/{first.channel_name}/{shops[n % 2].property_id}/push_booking",
            json=booking(shops[n % 2], day(1), day(2), reservation_id="SHARED")))
    made = site.engine.store.query("SELECT property_id FROM bookings WHERE channel_id = ?", (first.channel_id,))
    assert len(made) == 1
    winner = [shop.property_id for shop in shops].index(made[0]["property_id"])
    assert Counter(a.status_code for n, a in enumerate(answers) if n % 2 == winner) == {201: 10}
    assert Counter(a.status_code for n, a in enumerate(answers) if n % 2 != winner) == {422: 10}
    assert all("is already taken" in str(a.json()) for n, a in enumerate(answers) if n % 2 != winner)


def test_ari_written_at_once_for_many_properties_is_whole_writes_and_all_their_events(site):
    """Rates of eight properties written at once, ten times each over three nights: each property's nights hold one
    write of its own, whole (never nights of two writes), and every write's event is in the outbox."""
    owner = site.user()
    shops = [make_shop(owner, rooms=ROOMS, days=0) for _ in range(8)]

    def write(n: int) -> int:
        shop = shops[n % 8]
        return owner.client.post("/api/v1/restrictions", json={"values": [{
            "property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(1), "date_to": day(3),
            "rate": f"{100 + n}.00"}]}).status_code

    assert Counter(_at_once(80, write)) == {200: 80}
    for shop in shops:
        rates = check(owner.client.get("/api/v1/restrictions", params={
            "filter[property_id]": shop.property_id, "filter[date][gte]": day(1), "filter[date][lte]": day(3),
            "filter[restrictions]": "rate"}))["data"]
        written = {f"{100 + n}.00" for n in range(shops.index(shop), 80, 8)}
        kept = {night["rate"] for night in rates[shop.plan_id].values()}
        assert len(kept) == 1 and kept <= written
    ids = [shop.property_id for shop in shops]
    assert site.engine.store.scalar(f"SELECT count(*) FROM events WHERE event = 'ari' AND property_id IN "
                                    f"({', '.join('?' * 8)})", ids) == 80


def test_bookings_pushed_at_once_for_many_properties_are_all_in_the_lists_totals(site):
    """Pushes of eight properties go at once on PostgreSQL; the counts the bookings list tells its total from
    (kept by triggers beside the bookings) must lose none of them."""
    owner = site.user()
    shops = [make_shop(owner, rooms=ROOMS, days=5) for _ in range(8)]
    with httpx.Client(base_url=site.main.url, timeout=30) as client:
        statuses = _at_once(24, lambda n: client.post(f"{shops[n % 8].meta}/push_booking", json=booking(
            shops[n % 8], day(1), day(2), reservation_id=f"MANY-{n}")).status_code)
    assert Counter(statuses) == {201: 24}

    def total(**params: Any) -> int:
        return check(owner.client.get("/api/v1/bookings", params={"pagination[limit]": 1, **params}))["meta"]["total"]

    assert total() == 24
    assert [total(**{"filter[property_id]": shop.property_id}) for shop in shops] == [3] * 8


def test_a_card_form_session_posted_twenty_times_at_once_keeps_one_card(site):
    shop = make_shop(site.user(), rooms=ROOMS, days=5)
    url = check(httpx.get(f"{site.main.url}/api/v1/meta/{shop.channel_name}/card_capture_form_url"))["data"][
        "attributes"]["card_capture_form_url"]
    token = url.split("session_token=")[1]
    with httpx.Client(base_url=site.pci.url, timeout=30) as client:
        statuses = _at_once(20, lambda _: client.post("/api/v1/capture_form/cards", params={"session_token": token},
                                                      json={"card": GUEST_CARD}).status_code)
    assert Counter(statuses) == {201: 1, 401: 19}
    assert site.engine.store.scalar("SELECT count(*) FROM vault_cards WHERE profile_name = 'card_form'") == 1


def push_in_a_process(database: Database, barrier, shop: dict[str, str]) -> None:
    engine = database.engine()
    barrier.wait()
    for attempt in range(3):
        body = {**booking(_Shop(**shop), day(1), day(2), reservation_id=f"P-{id(barrier)}-{attempt}")["booking"]}
        try:
            engine.bookings.push(shop["channel_id"], shop["property_id"], body, secure=False)
        except Exception:  # a 422: no room left
            pass


class _Shop:
    def __init__(self, **ids: str) -> None:
        self.room_id, self.plan_id = ids["room_id"], ids["plan_id"]


def test_processes_pushing_at_once_over_one_database_sell_exactly_the_rooms_there_are(database, site):
    shop = make_shop(site.user(), rooms=ROOMS, days=5)
    ids = {"channel_id": shop.channel_id, "property_id": shop.property_id, "room_id": shop.room_id,
           "plan_id": shop.plan_id}
    assert at_once(push_in_a_process, database, ids) == [0, 0, 0, 0]
    sold = site.engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop.property_id,))
    assert sold == ROOMS  # 12 tries by 4 processes for 5 rooms
    assert shop.availability(day(1), day(1)) == {day(1): 0}


def test_a_night_gone_between_the_look_and_the_take_refuses_the_booking_and_keeps_nothing(site, monkeypatch):
    """Where writers run in parallel (PostgreSQL without one write lock), a push may see the last room free and find
    it taken when it takes it: the conditional take decides, and the booking is refused whole. Here the look is
    made to see a room that another push took already."""
    shop = make_shop(site.user(), rooms=1, days=5)
    with httpx.Client(base_url=site.main.url, timeout=30) as client:
        check(client.post(f"{shop.meta}/push_booking", json=booking(shop, day(1), day(2), reservation_id="FIRST")),
              201)
        stale = Calendar.availability

        def as_before_the_first(self, rooms, first, last):
            seen = stale(self, rooms, first, last)
            return {room: {night: 1 for night in nights} for room, nights in seen.items()}

        monkeypatch.setattr(Calendar, "availability", as_before_the_first)
        refused = client.post(f"{shop.meta}/push_booking", json=booking(shop, day(1), day(2), reservation_id="LATE"))
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"]["details"] == {"rooms.0": [f"can't be booked: no room is left on {day(1)}"]}
    assert site.engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop.property_id,)) == 1
    monkeypatch.undo()
    assert shop.availability(day(1), day(1)) == {day(1): 0}


def test_crs_moves_at_once_into_the_last_rooms_sell_exactly_the_rooms_there_are(site):
    """PUT /bookings/:id (the service's CRS update) of bookings on nights of their own, all moved at once onto one
    night: its rooms go to as many as there are, the others stay where they were."""
    shop = make_shop(site.user(), rooms=2, days=10)
    client = shop.user.client
    moves = 6
    ids = [check(client.post("/api/v1/bookings", json=booking(shop, day(1 + n), day(2 + n), property_id=shop.property_id,
                                                               reservation_id=f"CRS-{n}")), 201)["data"]["id"]
           for n in range(moves)]
    moved = booking(shop, day(8), day(9), status="modified")
    statuses = _at_once(moves, lambda n: client.put(f"/api/v1/bookings/{ids[n]}", json=moved).status_code)
    assert Counter(statuses) == {200: 2, 422: moves - 2}
    assert shop.availability(day(8), day(8)) == {day(8): 0}
    assert sum(shop.availability(day(1), day(6)).values()) == 2 * moves - (moves - 2)  # the refused kept theirs
