"""Create, read, update, list and delete properties, with access checked on every call.

Update takes the same fields as create but only changes what it is sent: the stored property is
overlaid with the request (settings and content key by key) and the result is validated whole, so
cross-field rules (min_price ≤ max_price, contact fields of connected properties) hold either way.

A change of what its channels are told is open (state_length, the cut-off, the time zone) is told to them in its
transaction: the nights that entered or left the window (backend/distribution/window_moves.py). Deleting a property
closes what its channels sold of it (backend/distribution/remap.py).
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

from pydantic_core import from_json  # the list's hot path parses two documents a row: about 3x json.loads

from backend.core.dates import utc_clock
from backend.core.errors import BadRequest, Errors, Forbidden, NotFound, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.money import format_amount, in_currency
from backend.core.validation import as_input, validate
from backend.distribution import remap, window_moves
from backend.identity.access import owned_property
from backend.identity.models import Actor
from backend.identity.service import group_of, require_group
from backend.identity.store import property_owner
from backend.inventory import sellable
from backend.inventory.photos import Photos, of_properties
from backend.inventory.rooms import HotelPolicies
from backend.inventory.window import window_of
from backend.properties.facilities import Facilities
from backend.properties.media import Media
from backend.properties.models import CONTACT_FIELDS, READ_ONLY_FIELDS, PropertyInput
from backend.properties.store import (
    add_to_group,
    channels_elsewhere,
    delete_property,
    delete_property_facilities,
    facilities_of,
    groups_of,
    in_group,
    insert_property,
    insert_property_facilities,
    logo_media_id,
    move_to_group,
    properties_page,
    property_options,
    property_plan_ids,
    property_row,
    remove_from_group,
    shown_property,
    update_property,
)
from storage import Connection, Row, Store, new_id, utc_now

PLAIN_FIELDS = ("title", "currency", "email", "phone", "zip_code", "country", "state", "city", "address",
                "longitude", "latitude", "timezone", "property_type", "website")


class Properties:
    def __init__(self, store: Store, events: EventBus, media: Media, facilities: Facilities,
                 policies: HotelPolicies, photos: Photos, clock: Callable[[], datetime] = utc_clock,
                 unreached: Callable[[Connection, str], None] = lambda conn, property_id: None) -> None:
        self.store = store
        self.events = events
        self.media = media
        self.facilities = facilities
        self.policies = policies  # a property names its hotel policy by hotel_policy_id
        self.photos = photos  # `content.photos`: the property's own rows of the photo store
        self.clock = clock
        self.unreached = unreached  # in a regrouping's transaction: the property's threads of users it left

    # --- reading -----------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = properties_page(self.store, query, actor)
        return self._serialise(rows), meta

    def options(self, actor: Actor) -> builtins.list[dict[str, Any]]:
        """Every property of the account, without details or pagination."""
        rows = property_options(self.store, actor)
        groups = self._groups_of(rows)
        return [{"id": r["id"], "title": r["title"], "currency": r["currency"], "is_active": bool(r["is_active"]),
                 "group_ids": [g["id"] for g in groups[r["id"]]]} for r in rows]

    def get(self, actor: Actor, property_id: str) -> dict[str, Any]:
        return self._serialise([self._row(actor, property_id)])[0]

    def require(self, actor: Actor, property_id: str) -> None:
        """Raise unless the property exists and the actor may see it (404 unknown, 401 someone else's)."""
        self._row(actor, property_id)

    def _row(self, actor: Actor, property_id: str) -> Row:
        return owned_property(self.store, actor, shown_property(self.store, property_id), "property", property_id,
                              property_id=property_id)

    def _serialise(self, rows: builtins.list[Row]) -> builtins.list[dict[str, Any]]:
        facilities = self._facilities_of([r["id"] for r in rows])
        photos = of_properties(self.store, [r["id"] for r in rows])
        groups = self._groups_of(rows)
        return [self._attributes(r, facilities.get(r["id"], []), groups[r["id"]], photos[r["id"]]) for r in rows]

    def _groups_of(self, rows: builtins.list[Row]) -> dict[str, builtins.list[dict[str, str]]]:
        """Each property's groups (`{id, title}`), its own group first: `relationships.groups`."""
        found: dict[str, list[dict[str, str]]] = {r["id"]: [] for r in rows}
        for i in range(0, len(rows), 10_000):
            for g in groups_of(self.store, [r["id"] for r in rows[i:i + 10_000]]):
                found[g["property_id"]].append({"id": g["id"], "title": g["title"]})
        return found

    def _facilities_of(self, ids: builtins.list[str]) -> dict[str, builtins.list[str]]:
        if not ids:
            return {}
        found: dict[str, list[str]] = {}
        for r in facilities_of(self.store, ids):
            found.setdefault(r[0], []).append(r[1])
        return found

    def _attributes(self, row: Row, facilities: builtins.list[str], groups: builtins.list[dict[str, str]],
                    photos: builtins.list[dict[str, Any]]) -> dict[str, Any]:
        settings = from_json(row["settings"])
        for key in ("min_price", "max_price"):
            settings[key] = format_amount(settings[key], row["currency"])
        return {
            "id": row["id"],
            **{name: row[name] for name in PLAIN_FIELDS},
            "facilities": facilities,
            "group_id": row["group_id"],
            "hotel_policy_id": row["hotel_policy_id"],
            "groups": groups,  # relationships.groups on the wire
            "settings": settings,
            "content": {**from_json(row["content"]), "photos": photos},
            "logo_url": self.media.url(row["logo_media_id"]),
            "is_active": bool(row["is_active"]),
            "acc_cannels_count": row["acc_cannels_count"],
            "inserted_at": row["inserted_at"],
            "updated_at": row["updated_at"],
        }

    # --- writing -----------------------------------------------------------------------------

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = self._validate(actor, _writable(data))
        logo = self.media.fetch_image(model.logo_url, "logo_url") if model.logo_url else None
        property_id, now = new_id(), utc_now()
        with self.store.transaction() as conn:
            logo_id = self.media.insert(conn, logo) if logo else None
            row = self._row_values(model, model.group_id or actor.default_group_id, logo_id)
            require_group(conn, row["group_id"])
            insert_property(conn, property_id, row, now)
            add_to_group(conn, row["group_id"], property_id)
            self._write_facilities(conn, property_id, model.facilities)
            self.photos.apply(conn, property_id, None, model.content.photos)
            if model.hotel_policy_id is not None:
                self.policies.link(conn, actor, {"id": property_id, "group_id": row["group_id"]}, model.hotel_policy_id)
            window_moves.keep(conn, property_id, window_of(row, self.clock()))  # where its channels start from
        self.events.publish("property.changed", property_id, action="created")
        return self.get(actor, property_id)

    def update(self, actor: Actor, property_id: str, data: Any) -> dict[str, Any]:
        """The property as sent over what it is. Checked first outside the write lock (a new logo is fetched then),
        and again inside it on the property as it is by then, which the write starts from: a change made meanwhile
        (another field, a channel connected) is neither lost nor let past the rules. A logo left as it was read
        stays as it is then."""
        changes = _writable(data)
        current, model = self._merged(actor, property_id, changes)
        new_logo = changes.get("logo_url", current["logo_url"]) != current["logo_url"]
        logo = self.media.fetch_image(model.logo_url, "logo_url") if new_logo and model.logo_url else None
        with self.store.transaction() as conn:
            current, model = self._merged(actor, property_id, changes)
            if new_logo:
                logo_id = self.media.insert(conn, logo) if logo else None
            else:
                logo_id = logo_media_id(conn, property_id)
            row = self._row_values(model, model.group_id or current["group_id"], logo_id)
            if row["group_id"] != current["group_id"]:
                require_group(conn, row["group_id"])
            before = cast(Row, property_row(conn, property_id))  # _merged read it in this transaction
            update_property(conn, property_id, row, utc_now())
            if row["group_id"] != before["group_id"]:
                move_to_group(conn, property_id, before["group_id"], row["group_id"])
                self._regrouped(conn, property_id)
            delete_property_facilities(conn, property_id)
            self._write_facilities(conn, property_id, model.facilities)
            self.photos.apply(conn, property_id, None, model.content.photos)
            if model.hotel_policy_id != current["hotel_policy_id"]:
                self.policies.link(conn, actor, {"id": property_id, "group_id": row["group_id"]}, model.hotel_policy_id)
            now = self.clock()
            after = cast(Row, property_row(conn, property_id))
            window_moves.moved(conn, after, now, since=window_of(before, now))  # its window's nights that moved
            if any(after[name] != before[name] for name in ("settings", "timezone", "is_active")):
                sellable.refresh(self.store, [property_id])  # its min stay rule and window, kept with its nights
            if after["is_active"] != before["is_active"]:
                sellable.recount(self.store, sellable.channels_of(self.store, property_id))
        self.events.publish("property.changed", property_id, action="updated")
        return self.get(actor, property_id)

    def _merged(self, actor: Actor, property_id: str, changes: dict[str, Any]) -> tuple[dict[str, Any], PropertyInput]:
        """The property as it is, and as the changes make it, checked against the channels it is connected to."""
        current = self.get(actor, property_id)
        stored = as_input(PropertyInput, current)
        stored["content"] = {k: v for k, v in stored["content"].items() if k != "photos"}  # only those sent change
        model = self._validate(actor, _overlay(stored, changes), current["group_id"])
        if current["acc_cannels_count"]:
            errors = Errors()
            for name in CONTACT_FIELDS:
                if getattr(model, name) is None:
                    errors.add(name, "is required while the property is connected to a channel")
            group_id = model.group_id or current["group_id"]
            elsewhere = [] if group_id == current["group_id"] else channels_elsewhere(self.store, property_id, group_id)
            if elsewhere:  # the other side of the channels' rule (backend/channels/service.py)
                errors.add("group_id", f"can't change while the property is connected to "
                                       f"{', '.join(repr(t) for t in elsewhere)}: a channel takes properties of "
                                       "its own group only")
            errors.raise_if_any()
        return current, model

    def delete(self, actor: Actor, property_id: str) -> None:
        """An owner's call (backend/identity/users.py): 403 for a `user`."""
        self._row(actor, property_id)
        with self.store.transaction() as conn:
            if not (actor.sees_all or property_owner(conn, property_id, actor.user_id)):
                raise Forbidden("only an owner of the property may delete it")
            plans = property_plan_ids(conn, property_id)
            selling = remap.watching(conn, plans, self.clock())
            connected = sellable.channels_of(self.store, property_id)
            delete_property(conn, property_id)
            sellable.recount(self.store, connected)
            remap.told(conn, selling, self.clock())  # the channels that sold it close what they sold
        self.events.publish("property.changed", property_id, action="deleted")

    # --- its groups (reference §11.1) --------------------------------------------------------------

    def join_group(self, actor: Actor, group_id: str, property_id: str) -> None:
        """The property joins the group as well, whose users reach it then: 422 when it is in it already. The
        actor must be a user of the group and reach the property, in either role."""
        group_of(self.store, actor, group_id)
        self._row(actor, property_id)
        with self.store.transaction() as conn:
            require_group(conn, group_id)
            if in_group(conn, group_id, property_id):
                raise ValidationFailed.one("hotel_id", "Only one GroupHotel entity per Group and Hotel pair allowed!")
            add_to_group(conn, group_id, property_id)
        self.events.publish("property.changed", property_id, action="updated")

    def leave_group(self, actor: Actor, group_id: str, property_id: str) -> None:
        """The property leaves the group, unless it is in no other (400: a property is always in a group); when it
        was its own group (`group_id`), the one it stays in that comes first by id becomes it."""
        group_of(self.store, actor, group_id)
        self._row(actor, property_id)
        with self.store.transaction() as conn:  # the write lock first: two leaving at once count one another
            if not in_group(conn, group_id, property_id):
                raise NotFound(f"property {property_id} is not in group {group_id}")
            if not remove_from_group(conn, group_id, property_id):
                raise BadRequest(["the property is in no other group: add it to another group first"])
            self._regrouped(conn, property_id)
        self.events.publish("property.changed", property_id, action="updated")

    def _regrouped(self, conn: Connection, property_id: str) -> None:
        """A group let the property go: its policy follows its own group, and whoever no longer reaches it leaves
        its conversations (`unreached`)."""
        self.policies.moved(conn, property_id)
        self.unreached(conn, property_id)

    def _validate(self, actor: Actor, data: dict[str, Any], kept_group: str | None = None) -> PropertyInput:
        """`kept_group`: the property's group as it is, which a user given the property alone may leave as it is."""
        groups = actor.group_ids | {kept_group} if kept_group else actor.group_ids
        context = {"group_ids": groups, "facility_ids": self.facilities.ids(), **in_currency(data.get("currency"))}
        return validate(PropertyInput, data, context)

    def _row_values(self, model: PropertyInput, group_id: str, logo_id: str | None) -> dict[str, Any]:
        settings = model.settings.model_dump()  # min_price and max_price are decimal strings of the currency
        content = model.content.model_dump(exclude={"photos"})  # they are rows of the photo store
        return {
            **{name: getattr(model, name) for name in PLAIN_FIELDS},
            "group_id": group_id,
            "logo_media_id": logo_id,
            "is_active": int(model.is_active),
            "settings": json.dumps(settings),
            "content": json.dumps(content),
        }

    def _write_facilities(self, conn: Connection, property_id: str, facilities: builtins.list[str]) -> None:
        insert_property_facilities(conn, property_id, list(dict.fromkeys(facilities)))


def _writable(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(["the property must be a JSON object"])
    return {k: v for k, v in data.items() if k not in READ_ONLY_FIELDS}


def _overlay(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in changes.items():
        if key in {"settings", "content"} and isinstance(value, dict) and isinstance(base.get(key), dict):
            merged[key] = {**base[key], **value}
        else:
            merged[key] = value
    return merged
