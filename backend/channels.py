"""Channels: the OTAs and meta channels a property is sold on, and the properties connected to each.

A channel's `inbound_key` (what its adapter authenticates with) is shown once, in the create
answer, and stored hashed. A property can be connected only once every contact field is filled in.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from backend.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.events import EventBus
from backend.fields import RequiredText
from backend.identity import Actor, hash_secret
from backend.listing import Column, ListQuery, page
from backend.properties.models import CONTACT_FIELDS
from backend.validation import validate
from storage import Store, new_id, utc_now

CHANNEL_CODES = ("BookingCom", "AirBNB", "OpenShopping")
CHAT_PROVIDERS = ("BookingCom", "AirBNB")
SHOPPING_CODES = ("OpenShopping",)

COLUMNS: dict[str, Column] = {
    "id": Column("c.id", "id"),
    "title": Column("c.title"),
    "channel_code": Column("c.channel_code", "enum"),
    "is_active": Column("c.is_active", "bool"),
    "property_id": Column("property_id", "id",
                          "c.id IN (SELECT channel_id FROM channel_properties WHERE {cond})"),
    "inserted_at": Column("c.inserted_at"),
}


class ChannelInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: RequiredText
    channel_code: Literal[CHANNEL_CODES]  # type: ignore[valid-type]
    property_ids: Annotated[list[StrictStr], Field(max_length=1000)] = []
    rate_plan_ids: Annotated[list[StrictStr], Field(max_length=10_000,
                                                    description="the mapped rate plans: what the channel sells")] = []
    is_active: StrictBool = True
    group_id: StrictStr | None = None
    provider_api_key: Annotated[StrictStr, Field(min_length=8, max_length=255)] | None = Field(
        None, description="write-only; shopping channels only; null clears it")


class ChannelEnvelope(BaseModel):
    channel: ChannelInput


class Channels:
    def __init__(self, store: Store, events: EventBus) -> None:
        self.store = store
        self.events = events

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        marks, groups = actor.group_params()
        rows, meta = page(self.store, query, COLUMNS, select="c.*", source="channels c",
                          scope=f"c.group_id IN ({marks})", scope_params=groups, default_order="c.title, c.id")
        return [self._attributes(r) for r in rows], meta

    def get(self, actor: Actor, channel_id: str) -> dict[str, Any]:
        return self._attributes(self._row(actor, channel_id))

    def for_property(self, actor: Actor, property_id: str) -> list[dict[str, Any]]:
        """Channels the actor can see, each marked with whether the property is connected to it."""
        marks, groups = actor.group_params()
        rows = self.store.query(f"SELECT * FROM channels WHERE group_id IN ({marks}) ORDER BY title, id", groups)
        return [{**a, "connected": property_id in a["property_ids"]} for a in map(self._attributes, rows)]

    def _row(self, actor: Actor, channel_id: str):
        row = self.store.one("SELECT * FROM channels WHERE id = ?", (channel_id,))
        if row is None:
            raise NotFound(f"channel {channel_id} does not exist")
        if row["group_id"] not in actor.group_ids:
            raise Unauthorized("you have no access to this channel")
        return row

    def _attributes(self, row) -> dict[str, Any]:
        property_ids = [r[0] for r in self.store.query(
            "SELECT property_id FROM channel_properties WHERE channel_id = ? ORDER BY rowid", (row["id"],))]
        rate_plan_ids = [r[0] for r in self.store.query(
            "SELECT rate_plan_id FROM channel_rate_plans WHERE channel_id = ? ORDER BY rowid", (row["id"],))]
        return {
            "id": row["id"],
            "title": row["title"],
            "channel_code": row["channel_code"],
            "group_id": row["group_id"],
            "property_ids": property_ids,
            "rate_plan_ids": rate_plan_ids,
            "is_active": bool(row["is_active"]),
            "has_provider_api_key": row["provider_api_key_hash"] is not None,
            "inserted_at": row["inserted_at"],
            "updated_at": row["updated_at"],
        }

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(ChannelInput, data)
        self._check(actor, model, data)
        channel_id, inbound_key, now = new_id(), secrets.token_urlsafe(32), utc_now()
        with self.store.transaction() as conn:
            conn.execute(
                "INSERT INTO channels (id, group_id, title, channel_code, inbound_key_hash, provider_api_key_hash, "
                "is_active, inserted_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (channel_id, model.group_id or actor.default_group_id, model.title, model.channel_code,
                 hash_secret(inbound_key), _key_hash(model.provider_api_key), int(model.is_active), now, now))
            self._connect(conn, channel_id, model)
        self.events.publish("channel.changed", channel_id, action="created")
        return {**self.get(actor, channel_id), "inbound_key": inbound_key}

    def update(self, actor: Actor, channel_id: str, data: Any) -> dict[str, Any]:
        current = self.get(actor, channel_id)
        if not isinstance(data, dict):
            raise BadRequest(["the channel must be a JSON object"])
        stored = {k: current[k] for k in ("title", "channel_code", "property_ids", "rate_plan_ids", "is_active",
                                          "group_id")}
        merged = {**stored, **{k: v for k, v in data.items() if k not in {"id", "inserted_at", "updated_at",
                                                                           "has_provider_api_key"}}}
        model = validate(ChannelInput, merged)
        if model.channel_code != current["channel_code"]:
            raise ValidationFailed.one("channel_code", "can't be changed; create a new channel instead")
        self._check(actor, model, data)
        with self.store.transaction() as conn:
            conn.execute("UPDATE channels SET title = ?, group_id = ?, is_active = ?, updated_at = ? WHERE id = ?",
                         (model.title, model.group_id or current["group_id"], int(model.is_active), utc_now(),
                          channel_id))
            if "provider_api_key" in data:
                conn.execute("UPDATE channels SET provider_api_key_hash = ? WHERE id = ?",
                             (_key_hash(model.provider_api_key), channel_id))
            conn.execute("DELETE FROM channel_properties WHERE channel_id = ?", (channel_id,))
            conn.execute("DELETE FROM channel_rate_plans WHERE channel_id = ?", (channel_id,))
            self._connect(conn, channel_id, model)
        self.events.publish("channel.changed", channel_id, action="updated")
        return self.get(actor, channel_id)

    def delete(self, actor: Actor, channel_id: str) -> None:
        self._row(actor, channel_id)
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM channels WHERE id = ?", (channel_id,))
        self.events.publish("channel.changed", channel_id, action="deleted")

    def connect(self, actor: Actor, channel_id: str, property_id: str) -> dict[str, Any]:
        ids = self.get(actor, channel_id)["property_ids"]
        return self.update(actor, channel_id, {"property_ids": [*ids, property_id] if property_id not in ids else ids})

    def disconnect(self, actor: Actor, channel_id: str, property_id: str) -> dict[str, Any]:
        """Disconnecting a property also unmaps its rate plans."""
        current = self.get(actor, channel_id)
        plans = {r[0] for r in self.store.query("SELECT id FROM rate_plans WHERE property_id = ?", (property_id,))}
        return self.update(actor, channel_id, {"property_ids": [i for i in current["property_ids"] if i != property_id],
                                               "rate_plan_ids": [i for i in current["rate_plan_ids"] if i not in plans]})

    def map_rate_plan(self, actor: Actor, channel_id: str, rate_plan_id: str, mapped: bool) -> dict[str, Any]:
        ids = [i for i in self.get(actor, channel_id)["rate_plan_ids"] if i != rate_plan_id]
        return self.update(actor, channel_id, {"rate_plan_ids": [*ids, rate_plan_id] if mapped else ids})

    def adapter_view(self, channel) -> dict[str, Any]:
        """What a channel's adapter may know of its channel: its properties and mapped rooms and rates."""
        plans = self.store.query("SELECT p.id, p.room_type_id, p.property_id, p.currency FROM rate_plans p "
                                 "JOIN channel_rate_plans c ON c.rate_plan_id = p.id WHERE c.channel_id = ? "
                                 "ORDER BY p.title, p.id", (channel["id"],))
        properties = self.store.query("SELECT property_id FROM channel_properties WHERE channel_id = ? ORDER BY rowid",
                                      (channel["id"],))
        return {"id": channel["id"], "title": channel["title"], "channel_code": channel["channel_code"],
                "property_ids": [r[0] for r in properties], "rate_plans": [dict(r) for r in plans]}

    def _check(self, actor: Actor, model: ChannelInput, data: dict[str, Any]) -> None:
        errors = Errors()
        if model.group_id is not None and model.group_id not in actor.group_ids:
            errors.add("group_id", "is not a group of yours")
        if data.get("provider_api_key") is not None and model.channel_code not in SHOPPING_CODES:
            errors.add("provider_api_key", "only shopping channels take a provider API key")
        marks, groups = actor.group_params()
        for index, property_id in enumerate(model.property_ids):
            row = self.store.one(f"SELECT * FROM properties WHERE id = ? AND group_id IN ({marks})",
                                 [property_id, *groups])
            if row is None:
                errors.add(f"property_ids.{index}", "is not a property of yours")
                continue
            for name in CONTACT_FIELDS:
                if row[name] is None:
                    errors.add(f"property_ids.{index}.{name}",
                               f"is required to connect {row['title']!r} to a channel")
        connected = set(model.property_ids)
        for index, plan_id in enumerate(model.rate_plan_ids):
            owner = self.store.scalar("SELECT property_id FROM rate_plans WHERE id = ?", (plan_id,))
            if owner not in connected:
                errors.add(f"rate_plan_ids.{index}", "is not a rate plan of a property connected to this channel")
        errors.raise_if_any()

    def _connect(self, conn, channel_id: str, model: ChannelInput) -> None:
        conn.executemany("INSERT INTO channel_properties (channel_id, property_id) VALUES (?, ?)",
                         [(channel_id, p) for p in dict.fromkeys(model.property_ids)])
        conn.executemany("INSERT INTO channel_rate_plans (channel_id, rate_plan_id) VALUES (?, ?)",
                         [(channel_id, p) for p in dict.fromkeys(model.rate_plan_ids)])


def _key_hash(key: str | None) -> str | None:
    return None if key is None else hash_secret(key)

