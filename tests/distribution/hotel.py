"""A hotel sold on one channel that takes its ARI, built over real HTTP, and what a receiver of its pushes
assembled from them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import httpx

from backend.engine import Engine
from tests.conftest import CONTACT
from tests.outbox.caught_up import caught_up
from tests.receiver import Received
from tests.shopping.shop import check
from tests.webhooks.hooks import eventually

RESTRICTIONS = ("rate", "min_stay_arrival", "min_stay_through", "max_stay", "closed_to_arrival",
                "closed_to_departure", "stop_sell")


@dataclass
class Hotel:
    client: httpx.Client
    property_id: str
    room_id: str
    plan_ids: list[str]
    channel: dict[str, Any]  # the create answer's attributes: inbound_key, ari_secret

    @property
    def channel_id(self) -> str:
        return self.channel["id"]

    def plan(self, title: str, **fields: Any) -> str:
        return check(self.client.post("/api/v1/rate_plans", json={"rate_plan": {
            "property_id": self.property_id, "room_type_id": self.room_id, "title": title,
            "options": [{"occupancy": 2, "is_primary": True, "rate": "100.00"}], **fields}}), 201)["data"]["id"]

    def restrict(self, *values: dict[str, Any]) -> None:
        check(self.client.post("/api/v1/restrictions", json={"values": [
            {"property_id": self.property_id, "rate_plan_id": self.plan_ids[0], **value} for value in values]}))

    def available(self, date_from: str, date_to: str, count: int) -> None:
        check(self.client.post("/api/v1/availability", json={"values": [{
            "property_id": self.property_id, "room_type_id": self.room_id, "date_from": date_from,
            "date_to": date_to, "availability": count}]}))

    def update(self, **fields: Any) -> dict[str, Any]:
        return check(self.client.put(f"/api/v1/channels/{self.channel_id}", json={"channel": fields}))["data"]

    def sync(self) -> dict[str, Any] | None:
        return check(self.client.get(f"/api/v1/channels/{self.channel_id}"))["data"]["attributes"]["sync"]

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The block's changes wait while the channel is inactive (only active channels are served), then leave
        together, read as they are then."""
        self.update(is_active=False)
        yield
        self.update(is_active=True)

    def ari(self, date_from: str, date_to: str, *targets: str) -> dict[str, dict[str, dict[str, Any]]]:
        """The engine's ARI as its API reads it: room type or rate plan ID → date → values (as a push names them);
        of the room type and plans named (all without)."""
        window = {"filter[property_id]": self.property_id, "filter[date][gte]": date_from,
                  "filter[date][lte]": date_to}
        rooms = check(self.client.get("/api/v1/availability", params=window))["data"]
        plans = check(self.client.get("/api/v1/restrictions", params={
            **window, "filter[restrictions]": ",".join(RESTRICTIONS)}))["data"]
        found = {room: {day: {"availability": n} for day, n in nights.items()} for room, nights in rooms.items()}
        found.update(plans)
        return {target: nights for target, nights in found.items() if target in targets or not targets}


def make_hotel(client: httpx.Client, *, plans: int = 1, channel: str = "BookingCom", settings: dict | None = None,
               codes: bool = False, state_length: int = 500) -> Hotel:
    """A property with one room type and `plans` rate plans, every plan mapped to a new channel with these
    settings (`codes`: the mappings name the channel's own codes, `R1`, `P1`, `P2`, ...)."""
    prop = check(client.post("/api/v1/properties", json={"property": {
        "title": f"Hotel {uuid.uuid4().hex[:6]}", "currency": "EUR", **CONTACT,
        "settings": {"state_length": state_length}}}), 201)["data"]["id"]
    room = check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": prop, "title": "Double", "count_of_rooms": 5, "occ_adults": 2, "occ_children": 0,
        "occ_infants": 0}}), 201)["data"]["id"]
    hotel = Hotel(client, prop, room, [], {})
    hotel.plan_ids = [hotel.plan(f"Plan {n}") for n in range(plans)]
    mappings = [{"rate_plan_id": plan_id, "settings": {"room_type_code": "R1", "rate_plan_code": f"P{n + 1}"}
                 if codes else {}} for n, plan_id in enumerate(hotel.plan_ids)]
    hotel.channel = check(client.post("/api/v1/channels", json={"channel": {
        "title": f"OTA {uuid.uuid4().hex[:6]}", "channel": channel, "properties": [prop], "rate_plans": mappings,
        "settings": settings or {}}}), 201)["data"]["attributes"]
    return hotel


def adapter_of(server_url: str, hotel: Hotel) -> httpx.Client:
    """The channel's adapter: the inbound routes of its channel, with its key."""
    return httpx.Client(base_url=f"{server_url}/api/v1/inbound/{hotel.channel_id}", timeout=10,
                        headers={"api-key": hotel.channel["inbound_key"]})


def settled(engine: Engine, channel_id: str) -> None:
    """Wait until the deliverer has sent the channel, or passed over, every event there is."""
    eventually(lambda: caught_up(engine, channel_id))


def assembled(received: list[Received] | list[dict]) -> dict[str, dict[str, dict[str, Any]]]:
    """What a receiver makes of JSON pushes (or a feed's values), applied in the order they came: room type or rate
    plan ID → date → values."""
    state: dict[str, dict[str, dict[str, Any]]] = {}
    values = [v for r in received for v in (r.json()["values"] if isinstance(r, Received) else [r])]
    for value in values:
        target = value.get("rate_plan_id") or value["room_type_id"]
        names = RESTRICTIONS if "rate_plan_id" in value else ("availability",)
        first, last = date.fromisoformat(value["date_from"]), date.fromisoformat(value["date_to"])
        for offset in range((last - first).days + 1):
            state.setdefault(target, {})[(first + timedelta(days=offset)).isoformat()] = {n: value[n] for n in names}
    return state

