"""Channels: the OTAs and meta channels a property is sold on, the properties connected to each, and the rate
plans each sells (its mappings).

A channel speaks the service's names (https://docs.channex.io/channel-api-examples/check24, "Create the
connection" and "Updating a connection"): `title`, `channel` (the code), `group_id`, `properties`, `rate_plans`
(`[{"id", "rate_plan_id", "settings"}]`: a mapping's `settings` hold the channel's own codes for the plan),
`settings` (the channel's) and `is_active`. Our older names `channel_code`, `property_ids` and `rate_plan_ids`
are input aliases (problems are reported under the name sent); both spellings of one field at once is a 422.
`rate_plans`, when sent, replaces the
mappings: one with `settings: null` is removed, one without `settings` keeps those it had, and a rate plan that
stays mapped keeps its mapping's `id`.

A channel takes only properties of its own group (a member of that group must be able to read the channel
and save it back), each with every contact field filled in. Its `inbound_key` (what its adapter authenticates
with) is shown once, in the create answer, and stored hashed. Its `settings` say how it takes ARI (pull, push or
not at all; backend/distribution/settings.py), checked and followed in the transaction that writes them. In that
transaction too, a channel that takes ARI is told of its mapping's changes (backend/distribution/remap.py): a plan
newly mapped gets its whole window, one unmapped is closed.

A shopping channel answers to its title and to its code in shopping paths (`/api/v1/meta/{name}/...`, public
routes): a name reaches the channels of one group only, so that no tenant can sell its properties under another's
name or take the cards of another's card form. A title that another group's shopping channel answers to is
refused; the code, which every shopping channel answers to, and names shared in databases from before that rule,
reach the group that made the first channel of that name (`named`, backend/channels/store.py).

A property's direct channel (`Offline`, backend/bookings/direct.py) holds the bookings the property takes
itself: nobody manages it, so lists leave it out and it can't be changed or deleted; it reads by its ID, which
its bookings name.
"""

from __future__ import annotations

import builtins
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from pydantic_core import from_json

from backend.bookings.direct import DIRECT
from backend.channels.store import (
    channel_mappings,
    channel_mappings_with_plans,
    channel_page,
    channel_property_ids,
    channel_row,
    channels_for_property,
    delete_channel,
    delete_connections,
    group_title,
    insert_channel,
    insert_connections,
    mapped_rate_plans,
    name_taken,
    properties_in_groups,
    property_rate_plan_ids,
    rate_plan_properties,
    set_provider_api_key_hash,
    update_channel,
)
from backend.core.dates import utc_clock
from backend.core.errors import BadRequest, Errors, NotSupported, ValidationFailed
from backend.core.events import EventBus
from backend.core.fields import RequiredText
from backend.core.listing import ListQuery
from backend.core.validation import as_sent, validate
from backend.distribution import remap
from backend.distribution.settings import DistributionSettings, track, url_problem
from backend.identity.models import Actor
from backend.identity.service import hash_secret, require_group
from backend.inventory import sellable
from backend.inventory.sellable import SHOPPING_CODES
from backend.properties.models import CONTACT_FIELDS
from storage import Connection, Row, Store, new_id, utc_now

if TYPE_CHECKING:
    from backend.core.keys import Keys

ChannelCode = Literal["BookingCom", "AirBNB", "OpenShopping"]
CHANNEL_CODES: tuple[ChannelCode, ...] = get_args(ChannelCode)
CHAT_PROVIDERS = ("BookingCom", "AirBNB")
# Our older names, accepted as input only.
ALIASES = {"channel_code": "channel", "property_ids": "properties", "rate_plan_ids": "rate_plans"}
# Sent back by clients that PUT what they read (or what create answered); ignored.
READ_ONLY = frozenset({"id", "inserted_at", "updated_at", "has_provider_api_key", "inbound_key", "ari_secret", "sync"})
EDITABLE = ("title", "channel", "group_id", "properties", "rate_plans", "settings", "is_active")



class Mapping(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: StrictStr | None = Field(None, description="read-only: the mapping's ID, kept while its rate plan stays mapped")
    rate_plan_id: StrictStr
    settings: dict[str, Any] | None = Field(
        default_factory=dict, description="the channel's own codes for the plan (room_type_code, rate_plan_code, "
                                          "occupancy, ...); null removes the mapping; left out, the current ones stay")


class ChannelInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: RequiredText
    channel: ChannelCode
    group_id: StrictStr | None = Field(None, description="the channel's group; by default the user's default group")
    # No cap of their own: what bounds them is the request body's limit (backend/http/limits.py, CHANNEL_BYTES).
    properties: list[StrictStr] = Field([], description="the connected properties, as many as a body of at most "
                                                          "10 MB names (no other limit)")
    rate_plans: list[Mapping] = Field([], description="the mapped rate plans: what the channel sells (no limit but "
                                                      "the body's 10 MB)")
    settings: dict[str, Any] = Field(default_factory=dict, description="the channel's own settings (hotel_id, ...)")
    is_active: StrictBool = True
    provider_api_key: Annotated[StrictStr, Field(min_length=8, max_length=255)] | None = Field(
        None, description="write-only; shopping channels only; null clears it")


class ChannelBody(ChannelInput):
    """The request body as documented: the service's names, and ours as deprecated input aliases."""

    channel: ChannelCode | None = Field(  # type: ignore[assignment]  # the body may leave it out: an update, an alias
        None, description="required on create (or channel_code); fixed once created")
    channel_code: ChannelCode | None = Field(None, deprecated=True, description="older name of channel")
    property_ids: list[StrictStr] | None = Field(None, deprecated=True, description="older name of properties")
    rate_plan_ids: list[StrictStr] | None = Field(None, deprecated=True,
                                                  description="older name of rate_plans, as rate plan IDs")


class ChannelEnvelope(BaseModel):
    channel: ChannelBody


class ShoppingSettings(BaseModel):
    """What a shopping channel's `settings` tell a booking engine through property_info (the channel's other keys
    stay as sent). `facilities_format`: `list`, the spec's titles, or `grouped` by category as Channex's booking
    engine reads them, `[{"category_code", "facilities"}]` (ChannexIO/instant_booking_page,
    src/components/facility_group/facility_group.js; a list of strings breaks it). `request_credit_card`: whether
    the engine asks the guest for a card (its src/components/payment_form/payment_form.js, which asks when unset)."""

    model_config = ConfigDict(extra="allow")

    facilities_format: Literal["list", "grouped"] = "list"
    request_credit_card: StrictBool = True


def mapped_plan_ids(channel: dict[str, Any]) -> list[str]:
    return [mapping["rate_plan_id"] for mapping in channel["rate_plans"]]


class Channels:
    def __init__(self, store: Store, events: EventBus, keys: Callable[[], Keys], private_addresses: bool = False,
                 clock: Callable[[], datetime] = utc_clock) -> None:
        self.store = store
        self.events = events
        self.keys = keys  # the vault's key, which seals a push channel's signing secret
        self.private_addresses = private_addresses  # may an ari_url point to a private address
        self.clock = clock

    # --- reading -----------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        groups = actor.group_list()
        rows, meta = channel_page(self.store, query, groups, DIRECT)
        return [self._attributes(r) for r in rows], meta

    def get(self, actor: Actor, channel_id: str) -> dict[str, Any]:
        return self._attributes(self._row(actor, channel_id))

    def for_property(self, actor: Actor, property_id: str) -> builtins.list[dict[str, Any]]:
        """The channels the property may be connected to (those of its group) and any it is connected to, each
        marked with whether it is."""
        groups = actor.group_list()
        rows = channels_for_property(self.store, groups, DIRECT, property_id)
        return [{**a, "connected": property_id in a["properties"]} for a in map(self._attributes, rows)]

    def mappings(self, actor: Actor, channel_id: str) -> builtins.list[dict[str, Any]]:
        """The channel's rooms and rates: each mapped rate plan with its room type, property and settings."""
        self._row(actor, channel_id)
        return [{**dict(r), "settings": from_json(r["settings"])}
                for r in channel_mappings_with_plans(self.store, channel_id)]

    def _row(self, actor: Actor, channel_id: str) -> Row:
        return actor.owned(channel_row(self.store, channel_id), "channel", channel_id)

    def _attributes(self, row: Row) -> dict[str, Any]:
        properties = channel_property_ids(self.store, row["id"])
        mappings = [{"id": r[0], "rate_plan_id": r[1], "settings": from_json(r[2])}
                    for r in channel_mappings(self.store, row["id"])]
        return {
            "id": row["id"],
            "title": row["title"],
            "channel": row["channel_code"],
            "group_id": row["group_id"],
            "properties": properties,
            "rate_plans": mappings,
            "settings": from_json(row["settings"]),
            "is_active": bool(row["is_active"]),
            "has_provider_api_key": row["provider_api_key_hash"] is not None,
            "inserted_at": row["inserted_at"],
            "updated_at": row["updated_at"],
        }

    # --- writing -----------------------------------------------------------------------------

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        with _named_as_sent(_object(data)):
            model = _validated(data)
            group_id = model.group_id or actor.default_group_id
            self._check(actor, model, group_id, data)
        channel_id, inbound_key, now = new_id(), secrets.token_urlsafe(32), utc_now()
        with self.store.transaction() as conn:
            require_group(conn, group_id)
            _name_free(conn, model, group_id)
            insert_channel(conn, channel_id, group_id, model.title, model.channel, hash_secret(inbound_key),
                           _key_hash(model.provider_api_key), model.is_active, model.settings, now)
            self._connect(conn, channel_id, model, {})
            sellable.refresh(self.store, model.properties)
            sellable.recount(self.store, [channel_id])
            ari_secret = track(conn, channel_id, model.settings, self.keys)
        self.events.publish("channel.changed", channel_id, action="created")
        return {**self.get(actor, channel_id), "inbound_key": inbound_key, **_shown_once(ari_secret)}

    def update(self, actor: Actor, channel_id: str, data: Any) -> dict[str, Any]:
        """The channel as sent over what it is. Checked first outside the write lock (an ARI address is resolved
        then), and again inside it on the channel as it is by then, which the write starts from: a change made
        meanwhile (another connect, a property's contact emptied) is neither lost nor let past the rules."""
        changes = {k: v for k, v in _object(data).items() if k not in READ_ONLY}
        self._merged(actor, channel_id, changes, resolve=True)
        with self.store.transaction() as conn:
            current, model, group_id = self._merged(actor, channel_id, changes, resolve=False)
            if group_id != current["group_id"]:
                require_group(conn, group_id)
            if (model.title, group_id) != (current["title"], current["group_id"]):
                _name_free(conn, model, group_id)
            selling = {channel_id: remap.seen(conn, channel_id, self.clock())}
            update_channel(conn, channel_id, model.title, group_id, model.is_active, model.settings, utc_now())
            if "provider_api_key" in changes:
                set_provider_api_key_hash(conn, channel_id, _key_hash(model.provider_api_key))
            delete_connections(conn, channel_id)
            self._connect(conn, channel_id, model, {m["rate_plan_id"]: m for m in current["rate_plans"]})
            moved = set(mapped_plan_ids(current)) ^ {m.rate_plan_id for m in model.rate_plans if not _removes(m)}
            connected = set(current["properties"]) ^ set(model.properties)
            sellable.refresh(self.store, [*connected, *sellable.properties_of(self.store, moved)])  # what it sells
            sellable.recount(self.store, [channel_id])
            ari_secret = track(conn, channel_id, model.settings, self.keys)
            remap.told(conn, selling, self.clock())  # to a channel that took ARI before and still does
        self.events.publish("channel.changed", channel_id, action="updated")
        return {**self.get(actor, channel_id), **_shown_once(ari_secret)}

    def delete(self, actor: Actor, channel_id: str) -> None:
        _managed(self._row(actor, channel_id)["channel_code"])
        with self.store.transaction() as conn:
            delete_channel(conn, channel_id)
            track(conn, channel_id, None, self.keys)
        self.events.publish("channel.changed", channel_id, action="deleted")

    def _merged(self, actor: Actor, channel_id: str, changes: dict[str, Any],
                *, resolve: bool) -> tuple[dict[str, Any], ChannelInput, str]:
        """The channel as it is, and as the changes make it, checked (`resolve`: its ARI address too)."""
        current = self.get(actor, channel_id)
        _managed(current["channel"])
        with _named_as_sent(changes):
            model = _validated(changes, {k: current[k] for k in EDITABLE})
            if model.channel != current["channel"]:
                raise ValidationFailed.one("channel", "can't be changed; create a new channel instead")
            group_id = model.group_id or current["group_id"]
            self._check(actor, model, group_id, changes, resolve=resolve)
        return current, model, group_id

    # A connect, disconnect or mapping reads the channel and writes it back whole in one transaction: two at once
    # each keep the other's change.

    def connect(self, actor: Actor, channel_id: str, property_id: str) -> dict[str, Any]:
        with self.store.transaction():
            ids = self.get(actor, channel_id)["properties"]
            return self.update(actor, channel_id, {"properties": [*ids, property_id] if property_id not in ids else ids})

    def disconnect(self, actor: Actor, channel_id: str, property_id: str) -> dict[str, Any]:
        """Disconnecting a property also unmaps its rate plans."""
        with self.store.transaction():
            current = self.get(actor, channel_id)
            plans = property_rate_plan_ids(self.store, property_id)
            return self.update(actor, channel_id, {
                "properties": [i for i in current["properties"] if i != property_id],
                "rate_plans": [{"rate_plan_id": i} for i in mapped_plan_ids(current) if i not in plans]})

    def map_rate_plan(self, actor: Actor, channel_id: str, rate_plan_id: str, mapped: bool) -> dict[str, Any]:
        with self.store.transaction():
            ids = [i for i in mapped_plan_ids(self.get(actor, channel_id)) if i != rate_plan_id]
            if mapped:
                ids.append(rate_plan_id)
            return self.update(actor, channel_id, {"rate_plans": [{"rate_plan_id": i} for i in ids]})

    def adapter_view(self, channel: Row) -> dict[str, Any]:
        """What a channel's adapter may know of its channel: its properties and mapped rooms and rates."""
        plans = mapped_rate_plans(self.store, channel["id"])
        properties = channel_property_ids(self.store, channel["id"])
        return {"id": channel["id"], "title": channel["title"], "channel_code": channel["channel_code"],
                "property_ids": properties, "rate_plans": [dict(r) for r in plans]}

    def _check(self, actor: Actor, model: ChannelInput, group_id: str, data: dict[str, Any], *,
               resolve: bool = True) -> None:
        errors = Errors()
        if model.group_id is not None and model.group_id not in actor.group_ids:
            errors.add("group_id", "is not a group of yours")
        if data.get("provider_api_key") is not None and model.channel not in SHOPPING_CODES:
            errors.add("provider_api_key", "only shopping channels take a provider API key")
        channel_group = group_title(self.store, group_id)
        groups = actor.group_list()
        found = properties_in_groups(self.store, list(dict.fromkeys(model.properties)), groups)
        for index, property_id in enumerate(model.properties):
            row = found.get(property_id)
            if row is None:
                errors.add(f"properties.{index}", "is not a property of yours")
                continue
            if row["group_id"] != group_id:
                errors.add(f"properties.{index}.group_id",
                           f"of {row['title']!r} is {row['group_title']!r}, not this channel's group {channel_group!r}: "
                           "a channel takes properties of its own group only")
            for name in CONTACT_FIELDS:
                if row[name] is None:
                    errors.add(f"properties.{index}.{name}", f"is required to connect {row['title']!r} to a channel")
        connected = set(model.properties)
        owners = rate_plan_properties(self.store, list({m.rate_plan_id: None for m in model.rate_plans}))
        for index, mapping in enumerate(model.rate_plans):
            owner = owners.get(mapping.rate_plan_id)
            if owner not in connected and not _removes(mapping):
                errors.add(f"rate_plans.{index}.rate_plan_id",
                           "is not a rate plan of a property connected to this channel")
        problem = url_problem(model.settings, self.private_addresses) if resolve and "settings" in data else None
        if problem:
            errors.add("settings.ari_url", problem)
        errors.raise_if_any()

    def _connect(self, conn: Connection, channel_id: str, model: ChannelInput, kept: dict[str, dict[str, Any]]) -> None:
        """The channel's properties and mappings; a rate plan mapped before keeps its mapping's ID, and its
        settings unless new ones are sent."""
        mappings = []
        for mapping in model.rate_plans:
            if _removes(mapping):
                continue
            before = kept.get(mapping.rate_plan_id, {"id": new_id(), "settings": {}})
            settings = mapping.settings if "settings" in mapping.model_fields_set else before["settings"]
            mappings.append((before["id"], mapping.rate_plan_id, settings))
        insert_connections(conn, channel_id, dict.fromkeys(model.properties), mappings)


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(["the channel must be a JSON object"])
    return data


def _validated(data: dict[str, Any], stored: dict[str, Any] | None = None) -> ChannelInput:
    """The request in the service's names, over what is stored (update); every problem at once, those of the
    older names and of a rate plan mapped twice included."""
    errors = Errors()
    changes = dict(data)
    for old, new in ALIASES.items():
        if old in changes:
            if new in changes:
                errors.add(old, f"is the older name of {new}: send one of them")
            value = changes.pop(old)
            if old == "rate_plan_ids" and isinstance(value, list):
                value = [{"rate_plan_id": plan_id} for plan_id in value]
            changes.setdefault(new, value)
    seen: set[str] = set()
    sent = changes.get("rate_plans")
    for index, mapping in enumerate(sent if isinstance(sent, list) else []):
        plan_id = mapping.get("rate_plan_id") if isinstance(mapping, dict) else None
        if not isinstance(plan_id, str):
            continue  # the model says what is wrong with it
        if plan_id in seen:
            errors.add(f"rate_plans.{index}", f"maps rate plan {plan_id} a second time")
        seen.add(plan_id)
    try:
        model = validate(ChannelInput, {**(stored or {}), **changes})
    except ValidationFailed as failed:
        errors.merge(failed.details)
    else:
        for settings in (DistributionSettings, *((ShoppingSettings,) if model.channel in SHOPPING_CODES else ())):
            try:
                validate(settings, model.settings)
            except ValidationFailed as failed:
                errors.merge(failed.details, "settings.")
    errors.raise_if_any()
    return model


@contextmanager
def _named_as_sent(data: dict[str, Any]) -> Iterator[None]:
    """Problems under the names the client sent: `property_ids.0` to one that sent `property_ids`."""
    renames: dict[str, str] = {}
    if "rate_plan_ids" in data and "rate_plans" not in data and isinstance(data["rate_plan_ids"], list):
        for i in range(len(data["rate_plan_ids"])):
            renames |= {f"rate_plans.{i}.rate_plan_id": f"rate_plan_ids.{i}", f"rate_plans.{i}": f"rate_plan_ids.{i}"}
    renames |= {new: old for old, new in ALIASES.items() if old in data and new not in data}
    try:
        yield
    except ValidationFailed as failed:
        raise ValidationFailed(as_sent(failed.details, renames)) from None


def _name_free(conn: Connection, model: ChannelInput, group_id: str) -> None:
    """A shopping channel may not take a name that another group's shopping channel answers to (checked in the
    transaction that writes the name, so that two groups can't take one name at once)."""
    if model.channel not in SHOPPING_CODES:
        return
    if name_taken(conn, model.title, group_id, SHOPPING_CODES):
        raise ValidationFailed.one("title", "is the name of another group's shopping channel in shopping paths; "
                                            "choose another")


def _removes(mapping: Mapping) -> bool:
    return "settings" in mapping.model_fields_set and mapping.settings is None


def _shown_once(ari_secret: str | None) -> dict[str, str]:
    """A push channel's new signing secret, in the answer that made it (backend/distribution/settings.py)."""
    return {"ari_secret": ari_secret} if ari_secret else {}


def _key_hash(key: str | None) -> str | None:
    return None if key is None else hash_secret(key)


def _managed(code: str) -> None:
    if code == DIRECT:
        raise NotSupported("this is a property's direct channel, which holds its own bookings: Frontdesk keeps it")
