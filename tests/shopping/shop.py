"""A small hotel sold on a shopping channel, built over real HTTP, for the inventory and booking tests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from tests.conftest import CONTACT, User


def day(offset: int) -> str:
    """A date counted from today at a property without a time zone (UTC)."""
    return (datetime.now(UTC).date() + timedelta(days=offset)).isoformat()


def check(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return response.json()


@dataclass
class Shop:
    user: User
    property_id: str
    room_id: str
    plan_id: str
    channel_id: str
    channel_name: str
    inbound_key: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def meta(self) -> str:
        return f"/api/v1/meta/{self.channel_name}/{self.property_id}"

    def restrict(self, date_from: str, date_to: str | None = None, plan_id: str | None = None, **values) -> dict:
        value = {"property_id": self.property_id, "rate_plan_id": plan_id or self.plan_id, **values}
        value.update({"date": date_from} if date_to is None else {"date_from": date_from, "date_to": date_to})
        return check(self.user.client.post("/api/v1/restrictions", json={"values": [value]}))

    def available(self, date_from: str, date_to: str, count: int, room_id: str | None = None) -> dict:
        return check(self.user.client.post("/api/v1/availability", json={"values": [{
            "property_id": self.property_id, "room_type_id": room_id or self.room_id, "date_from": date_from,
            "date_to": date_to, "availability": count}]}))

    def availability(self, date_from: str, date_to: str, room_id: str | None = None) -> dict[str, int]:
        body = check(self.user.client.get("/api/v1/availability", params={
            "filter[property_id]": self.property_id, "filter[date][gte]": date_from, "filter[date][lte]": date_to}))
        return body["data"][room_id or self.room_id]

    def rooms(self, client: httpx.Client, checkin: str, checkout: str, **params) -> httpx.Response:
        return client.get(f"{self.meta}/rooms", params={"checkin_date": checkin, "checkout_date": checkout, **params})

    def prices(self, client: httpx.Client, checkin: str, checkout: str, **params) -> list[str]:
        """The stay's prices of the shop's rate plan, one per sellable option (empty: not sellable)."""
        data = check(self.rooms(client, checkin, checkout, **params))["data"]
        return [p["price"] for room in data for p in room["attributes"]["rate_plans"] if p["id"] == self.plan_id]

    def sell(self, plan_id: str) -> None:
        """Map another rate plan of the property to the shop's channel."""
        channel = check(self.user.client.get(f"/api/v1/channels/{self.channel_id}"))["data"]["attributes"]
        check(self.user.client.put(f"/api/v1/channels/{self.channel_id}", json={"channel": {
            "rate_plans": [*channel["rate_plans"], {"rate_plan_id": plan_id}]}}))

    def settings(self, **settings) -> None:
        check(self.user.client.put(f"/api/v1/properties/{self.property_id}", json={"property": {"settings": settings}}))


def booking(shop: Shop, arrival: str, departure: str, *, status: str = "new", adults: int = 2, **fields) -> dict:
    return {"booking": {"status": status, "arrival_date": arrival, "departure_date": departure, "currency": "EUR",
                        "customer": {"surname": "Doe", "name": "Jane", "mail": "jane@example.com", "country": "GB"},
                        "rooms": [{"room_type_code": shop.room_id, "rate_plan_code": shop.plan_id,
                                   "occupancy": {"adults": adults, "children": 0, "infants": 0}}], **fields}}


CARD = {"card_number": "4111111111111111", "cvv": "123", "expiration_date": "12/2031", "cardholder_name": "Jane Doe",
        "card_type": "visa"}


def make_shop(user: User, *, rooms: int = 2, rate: str = "100.00", days: int = 30, settings: dict | None = None,
              channel_code: str = "OpenShopping", capacity: int = 2, **channel) -> Shop:
    client = user.client
    prop = check(client.post("/api/v1/properties", json={"property": {
        "title": f"Shop {uuid.uuid4().hex[:6]}", "currency": "EUR", **CONTACT, "settings": settings or {}}}), 201)
    property_id = prop["data"]["id"]
    room = check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": property_id, "title": "Double", "count_of_rooms": rooms, "occ_adults": capacity,
        "occ_children": 1, "occ_infants": 1}}), 201)["data"]["id"]
    plan = check(client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": property_id, "room_type_id": room, "title": "Flexible",
        "options": [{"occupancy": capacity, "is_primary": True, "rate": rate}]}}), 201)["data"]["id"]
    name = f"Meta{uuid.uuid4().hex[:8]}"
    made = check(client.post("/api/v1/channels", json={"channel": {
        "title": name, "channel_code": channel_code, "property_ids": [property_id], "rate_plan_ids": [plan],
        **channel}}), 201)["data"]["attributes"]
    shop = Shop(user, property_id, room, plan, made["id"], name, made["inbound_key"])
    if days:
        shop.available(day(0), day(days - 1), rooms)
        shop.restrict(day(0), day(days - 1), rate=rate)
    return shop

