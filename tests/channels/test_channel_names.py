"""A shopping channel's name (its title, or its code `OpenShopping`) reaches one tenant's channels: no group can
list its property under another group's name, nor take a card from the form a booking engine opened under it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import CONTACT, Site, serve_site
from tests.shopping.shop import booking, check, day, make_shop
from tests.vault.test_card_form import GUEST_CARD, form_session, keep


@pytest.fixture
def site(new_db) -> Iterator[Site]:
    with serve_site(new_db()) as served:  # a database of its own: which group made the first channel matters here
        yield served


def channel(title: str, shop, **fields) -> dict:
    return {"channel": {"title": title, "channel": "OpenShopping", "properties": [shop.property_id], **fields}}


def test_a_name_another_group_answers_to_is_refused(site):
    first, second = make_shop(site.user(), days=0), make_shop(site.user(), days=0)
    taken = second.user.client.post("/api/v1/channels", json=channel(first.channel_name, second))
    renamed = second.user.client.put(f"/api/v1/channels/{second.channel_id}",
                                     json={"channel": {"title": first.channel_name}})
    the_code = second.user.client.post("/api/v1/channels", json=channel("OpenShopping", second))

    for refused in (taken, renamed, the_code):
        assert refused.status_code == 422 and list(refused.json()["errors"]["details"]) == ["title"], refused.text
    assert site.engine.store.scalar("SELECT count(*) FROM channels WHERE title IN (?, 'OpenShopping')",
                                    (first.channel_name,)) == 1
    # Within one group a name may be shared (a group's channels of one name are sold together), and a name is
    # free again once the channel that had it is gone.
    assert first.user.client.post("/api/v1/channels", json=channel(first.channel_name, first)).status_code == 201
    check(first.user.client.put(f"/api/v1/channels/{first.channel_id}", json={"channel": {"title": "Renamed"}}))
    check(first.user.client.get(f"/api/v1/channels/{first.channel_id}"))
    assert second.user.client.post("/api/v1/channels", json=channel("Renamed", second)).status_code == 422
    check(first.user.client.delete(f"/api/v1/channels/{first.channel_id}"))
    assert second.user.client.post("/api/v1/channels", json=channel("Renamed", second)).status_code == 201


def test_a_name_shared_across_groups_reaches_the_first_groups_channels_only(site):
    """A database from before names were unique may hold one name in two groups, and every shopping channel answers
    to its code: the name reaches the channels of the group that made the first of them, and no other's."""
    hotel = make_shop(site.user(), rooms=1)
    squatter = make_shop(site.user(), rooms=1)
    with site.engine.store.transaction() as conn:
        conn.execute("UPDATE channels SET title = ? WHERE id = ?", (hotel.channel_name, squatter.channel_id))
    page = httpx.Client(base_url=site.main.url, timeout=10)  # the hotel's booking engine: no credential

    for name in (hotel.channel_name, "OpenShopping"):
        listed = check(page.get(f"/api/v1/meta/{name}/property_list"))["data"]
        assert [p["id"] for p in listed] == [hotel.property_id]
        assert page.get(f"/api/v1/meta/{name}/{squatter.property_id}/property_info").status_code == 404
    # The squatter's property is not reached through the name, so no card from the hotel's form can be taken by it.
    _, session = form_session(page, hotel)
    card = keep(site, session, GUEST_CARD).json()["data"]["attributes"]["card_token"]
    grab = booking(squatter, day(2), day(3), reservation_id="GRAB-1", guarantee={"token": card})
    assert page.post(f"/api/v1/meta/{hotel.channel_name}/{squatter.property_id}/push_booking",
                     json=grab).status_code == 404
    assert site.engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (squatter.property_id,)) == 0
    guest = booking(hotel, day(2), day(3), reservation_id="GUEST-1", guarantee={"token": card})
    check(page.post(f"/api/v1/meta/{hotel.channel_name}/{hotel.property_id}/push_booking", json=guest), 201)
    page.close()


def test_a_groups_own_name_reaches_all_its_channels_of_that_name(site):
    owner = site.user()
    shop = make_shop(owner, rooms=1)
    other = check(owner.client.post("/api/v1/properties", json={"property": {
        "title": "Annexe", "currency": "EUR", **CONTACT}}), 201)["data"]["id"]
    check(owner.client.post("/api/v1/channels", json={"channel": {
        "title": shop.channel_name, "channel": "OpenShopping", "properties": [other]}}), 201)

    listed = check(httpx.get(f"{site.main.url}/api/v1/meta/{shop.channel_name}/property_list"))["data"]

    assert {p["id"] for p in listed} == {shop.property_id, other}
