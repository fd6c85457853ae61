"""Photos written at once keep their places unique and dense, on every store: each change of a property's photos is
one transaction under its property's write scope (backend/inventory/photos.py), so on PostgreSQL two writers of one
property's photos go one after the other while other properties' go beside them."""

from __future__ import annotations

import time
from collections import Counter

import pytest

import backend.inventory.photos
from tests.concurrency.test_selling import _at_once
from tests.conftest import serve_site
from tests.properties.test_photos_api import new_property, new_room, places

WRITERS = 8


@pytest.fixture
def site(new_db):
    with serve_site(new_db()) as served:
        yield served


@pytest.fixture
def slowed(monkeypatch):
    """The count a new photo's place is decided on, made to take 50 ms: writers at once then all read it before any
    writes, as they could on a loaded server."""
    count = backend.inventory.photos.photo_count

    def slow(*args):
        found = count(*args)
        time.sleep(0.05)
        return found

    monkeypatch.setattr(backend.inventory.photos, "photo_count", slow)


def test_photos_made_at_once_at_the_cover_take_every_place_once(site, slowed):
    user = site.user()
    hotel = new_property(user.client)
    room = new_room(user.client, hotel)
    other = new_property(user.client)

    def make(n: int) -> int:
        where = [{"property_id": hotel}, {"property_id": hotel, "room_type_id": room}, {"property_id": other}][n % 3]
        return user.client.post("/api/v1/photos", json={"photo": {
            **where, "url": f"https://img.example.com/{n}.jpg", "position": 0}}).status_code

    assert Counter(_at_once(WRITERS * 3, make)) == {201: WRITERS * 3}
    for property_id, room_type_id in ((hotel, None), (hotel, room), (other, None)):
        assert [position for _, position in places(user.client, property_id, room_type_id)] == list(range(WRITERS))


def test_moves_and_removals_at_once_leave_a_dense_list(site, slowed):
    user = site.user()
    hotel = new_property(user.client, content={"photos": [{"url": f"https://img.example.com/{n}.jpg"}
                                                          for n in range(WRITERS * 2)]})
    ids = [p["id"] for p in user.client.get(f"/api/v1/properties/{hotel}").json()["data"]["attributes"]["content"][
        "photos"]]

    def change(n: int) -> int:
        if n % 2:
            return user.client.delete(f"/api/v1/photos/{ids[n]}").status_code
        return user.client.put(f"/api/v1/photos/{ids[n]}", json={"photo": {"position": 0}}).status_code

    assert Counter(_at_once(WRITERS * 2, change)) == {200: WRITERS * 2}
    left = places(user.client, hotel)
    assert [position for _, position in left] == list(range(WRITERS))
    assert {url for url, _ in left} == {f"https://img.example.com/{n}.jpg" for n in range(0, WRITERS * 2, 2)}
