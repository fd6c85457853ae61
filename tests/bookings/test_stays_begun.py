"""An OTA's booking of a stay that has already begun (sent late, or a stay extended by the guest at the desk):
taken as sent, it takes the rooms of the nights from the property's today on, and a night already past is not
"overbooked" for want of rooms no one can sell any more."""

from __future__ import annotations

import httpx

from tests.shopping.shop import booking, check, day, make_shop


def rooms_left(engine, room_type_id: str, offset: int) -> int | None:
    return engine.store.scalar("SELECT availability FROM availability WHERE room_type_id = ? AND date = ?",
                               (room_type_id, day(offset)))


def test_a_stay_begun_takes_the_nights_left_and_is_not_overbooked(user, live, live_engine):
    shop = make_shop(user, channel_code="BookingCom", rooms=1)
    with httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": shop.inbound_key}) as adapter:
        url = f"/api/v1/inbound/{shop.channel_id}/bookings"
        body = booking(shop, day(-2), day(2), property_id=shop.property_id, reservation_id="LATE-1")
        body["booking"]["rooms"][0]["days"] = {day(n): "100.00" for n in range(-2, 2)}
        made = check(adapter.post(url, json=body), 201)["data"]["attributes"]
        assert made["is_overbooked"] is False and made["amount"] == "400.00"
        assert [rooms_left(live_engine, shop.room_id, n) for n in (0, 1, 2)] == [0, 0, 1]

        # The one room is gone tonight: a second stay begun yesterday does overbook, from tonight.
        second = booking(shop, day(-1), day(1), property_id=shop.property_id, reservation_id="LATE-2")
        assert check(adapter.post(url, json=second), 201)["data"]["attributes"]["is_overbooked"] is True
