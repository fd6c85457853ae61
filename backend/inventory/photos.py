"""Photos (reference §12): one store, two ways in. A property's and a room type's photos are rows of `photos`, read
and written through /api/v1/photos and through the parent's `content.photos` alike.

Places: each property's own photos, and each room type's, are numbered 0, 1, 2, … with no gap (0 is the cover). A
photo put at a place that is taken goes there and pushes the one there and those after it down one; a place past
the end is the end; without one a new photo goes last, a changed one stays. A photo removed closes its gap. Every
such change is one transaction under its property's write scope (backend/core/scopes.py): two writers of one
property's photos go one after the other, on PostgreSQL as on SQLite, so places never clash; the unique index on
(property, room type, place) is the backstop. `content.photos[]` is a batch of the same changes, in the order sent,
in the parent's transaction: items without `id` are created, with one changed (only the fields sent), with
`"is_removed": true` deleted.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, cast

from backend.core.errors import BadRequest, Errors, NotFound, ResourceNotFound, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.scopes import property_scope
from backend.core.validation import as_input, validate
from backend.identity.access import owned_property, reaches
from backend.identity.models import Actor
from backend.inventory.models import ContentPhoto, PhotoInput
from backend.inventory.store import (
    delete_photo,
    insert_photo,
    photo_count,
    photo_row,
    photo_row_in,
    photos_in,
    photos_page,
    property_group_in,
    property_photos,
    room_photos,
    room_property_in,
    set_photo_media,
    shift_photos,
    update_photo,
)
from storage import Connection, Reads, Row, Store, new_id, utc_now

MAX_PHOTOS = 100  # of a property's own, and of each room type's
FIELDS = ("url", "kind", "author", "description", "title")  # what a photo holds besides its place
READ_ONLY = frozenset({"id", "inserted_at", "updated_at"})


def describe(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "property_id": row["property_id"], "room_type_id": row["room_type_id"],
            "url": row["url"], "kind": row["kind"], "position": row["position"], "author": row["author"],
            "description": row["description"], "title": row["title"], "inserted_at": row["inserted_at"],
            "updated_at": row["updated_at"]}


def of_properties(store: Reads, property_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each property's own photos, in order (every id has a list)."""
    found: dict[str, list[dict[str, Any]]] = {pid: [] for pid in property_ids}
    for row in property_photos(store, property_ids) if property_ids else ():
        found[row["property_id"]].append(describe(row))
    return found


def of_rooms(store: Reads, room_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each room type's photos, in order (every id has a list)."""
    found: dict[str, list[dict[str, Any]]] = {rid: [] for rid in room_ids}
    for row in room_photos(store, room_ids) if room_ids else ():
        found[row["room_type_id"]].append(describe(row))
    return found


def as_batch(stored: list[dict[str, Any]], edited: list[dict[str, Any]], shown: set[str]) -> list[dict[str, Any]]:
    """`content.photos[]` that makes a parent's photos the `edited` list of a form showing the fields `shown`: a row
    whose url a stored photo has is that photo (its id, and what the form does not show), the others are new, each
    goes at its row's place, and the stored photos no row is are removed. Removals come last, so that the batch's
    N-th item is the form's N-th row (errors name `content.photos.N`)."""
    unclaimed: dict[str | None, list[dict[str, Any]]] = {}
    for photo in stored:
        unclaimed.setdefault(photo["url"], []).append(photo)
    rows = []
    for index, row in enumerate(edited):
        same = unclaimed.get(row.get("url"), [])
        claimed = same.pop(0) if same else None
        kept = {"id": claimed["id"], **{k: claimed[k] for k in FIELDS if k not in shown}} if claimed else {}
        rows.append({**kept, **dict.fromkeys(shown), **row, "position": index})
    return [*rows, *({"id": p["id"], "is_removed": True} for left in unclaimed.values() for p in left)]


class Photos:
    """`media_of(url)`: the id of the upload (backend/properties/media.py) a url names, if it names one."""

    def __init__(self, store: Store, events: EventBus,
                 media_of: Callable[[str], str | None] = lambda url: None) -> None:
        self.store = store
        self.events = events
        self.media_of = media_of

    # --- /api/v1/photos ------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = photos_page(self.store, query, actor)
        return [describe(r) for r in rows], meta

    def get(self, actor: Actor, photo_id: str) -> dict[str, Any]:
        return describe(self._row(actor, photo_id, NotFound))

    def _row(self, actor: Actor, photo_id: str, missing: type[NotFound]) -> Row:
        row = photo_row(self.store, photo_id)
        if row is None:
            raise missing(f"photo {photo_id} does not exist")
        return owned_property(self.store, actor, row, "photo", photo_id)

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(PhotoInput, _writable(data))
        with self.store.transaction(property_scope(model.property_id)) as conn:
            self._check_place(conn, actor, model.property_id, model.room_type_id)
            photo_id = self._add(conn, model.property_id, model.room_type_id, model.model_dump(include=set(FIELDS)),
                                 model.position, "room_type_id" if model.room_type_id else "property_id")
        self.events.publish("property.changed", model.property_id, action="updated")
        return self.get(actor, photo_id)

    def update(self, actor: Actor, photo_id: str, data: Any) -> dict[str, Any]:
        """Only the fields sent change; a new `room_type_id` (another of the property's, or null) moves it there."""
        sent = _writable(data)
        property_id = self._row(actor, photo_id, ResourceNotFound)["property_id"]
        with self.store.transaction(property_scope(property_id)) as conn:
            current = photo_row_in(conn, photo_id)
            if current is None:  # removed meanwhile
                raise ResourceNotFound(f"photo {photo_id} does not exist")
            model = validate(PhotoInput, {**as_input(PhotoInput, describe(current)), **sent})
            if model.property_id != property_id:
                raise ValidationFailed.one("property_id", "can't be changed; create a new photo instead")
            if model.room_type_id != current["room_type_id"]:
                self._check_place(conn, actor, property_id, model.room_type_id)
            changes = {k: v for k, v in model.model_dump(include=set(FIELDS)).items() if k in sent}
            self._change(conn, current, changes, model.room_type_id, model.position if "position" in sent else None)
        self.events.publish("property.changed", property_id, action="updated")
        return self.get(actor, photo_id)

    def delete(self, actor: Actor, photo_id: str) -> None:
        property_id = self._row(actor, photo_id, NotFound)["property_id"]
        with self.store.transaction(property_scope(property_id)) as conn:
            current = photo_row_in(conn, photo_id)
            if current is not None:  # else removed meanwhile: gone all the same
                self._remove(conn, current)
        self.events.publish("property.changed", property_id, action="updated")

    def _check_place(self, conn: Connection, actor: Actor, property_id: str, room_type_id: str | None) -> None:
        """The property must be the actor's, and the room type (when one) the property's."""
        group = property_group_in(conn, property_id)
        if group is None or not reaches(self.store, actor, property_id, group):
            raise ValidationFailed.one("property_id", "is not a property of yours")
        if room_type_id is not None and room_property_in(conn, room_type_id) != property_id:
            raise ValidationFailed.one("room_type_id", "is not a room type of this property")

    # --- content.photos[] ----------------------------------------------------------------------

    def apply(self, conn: Connection, property_id: str, room_type_id: str | None, items: builtins.list[ContentPhoto],
              field: str = "content.photos") -> None:
        """A parent's `content.photos[]`, in its transaction (which covers the property): every item checked first,
        then each change in the order sent."""
        if not items:
            return
        stored = {row["id"] for row in photos_in(conn, property_id, room_type_id or "")}
        parent = "room type" if room_type_id else "property"
        errors, named = Errors(), set()
        for index, item in enumerate(items):
            if item.id is None and item.is_removed:
                errors.add(f"{field}.{index}.is_removed", "needs the id of the photo to remove")
            elif item.id is not None and item.id not in stored:
                errors.add(f"{field}.{index}.id", f"is not a photo of this {parent}")
            elif item.id is not None and item.id in named:
                errors.add(f"{field}.{index}.id", "is named twice")
            named.add(item.id)
        errors.raise_if_any()
        for item in items:
            if item.id is None:
                self._add(conn, property_id, room_type_id, item.model_dump(include=set(FIELDS)), item.position, field)
                continue
            current = cast(Row, photo_row_in(conn, item.id))  # checked: one of its photos
            if item.is_removed:
                self._remove(conn, current)
            else:
                changes = item.model_dump(include=set(FIELDS) & item.model_fields_set)
                if changes.get("url", "") is None:  # a photo keeps its url unless sent one
                    del changes["url"]
                self._change(conn, current, changes, room_type_id,
                             item.position if "position" in item.model_fields_set else None)

    # --- places --------------------------------------------------------------------------------

    def _add(self, conn: Connection, property_id: str, room_type_id: str | None, values: dict[str, Any],
             position: int | None, field: str) -> str:
        place = self._open(conn, property_id, room_type_id or "", position, field)
        photo_id = new_id()
        insert_photo(conn, photo_id, {"property_id": property_id, "room_type_id": room_type_id, "position": place,
                                      **values}, self.media_of(values["url"]), utc_now())
        return photo_id

    def _change(self, conn: Connection, current: Row, changes: dict[str, Any], room_type_id: str | None,
                position: int | None) -> None:
        property_id, photo_id, was = current["property_id"], current["id"], current["position"]
        old, new = current["room_type_id"] or "", room_type_id or ""
        changes = {k: v for k, v in changes.items() if v != current[k]}  # a photo sent back as read is left as it is
        now = utc_now()
        if new != old:  # into the other list, out of its own
            place = self._open(conn, property_id, new, position, "room_type_id")
            update_photo(conn, photo_id, {**changes, "room_type_id": room_type_id, "position": place}, now)
            shift_photos(conn, property_id, old, was + 1, photo_count(conn, property_id, old), -1)
        else:
            count = photo_count(conn, property_id, old) if position is not None else 0
            place = was if position is None else min(position, count - 1)
            if place != was:
                update_photo(conn, photo_id, {"position": count}, now)  # aside: the place after the last is free
                shift_photos(conn, property_id, old, was + 1, count - 1, -1)
                shift_photos(conn, property_id, old, place, count - 2, 1)
                changes = {**changes, "position": place}
            if changes:
                update_photo(conn, photo_id, changes, now)
        if "url" in changes:
            set_photo_media(conn, photo_id, self.media_of(changes["url"]))

    def _open(self, conn: Connection, property_id: str, room: str, position: int | None, field: str) -> int:
        """The place `position` of a list (its end without one, or past it), made free; 422 on `field` when full."""
        count = photo_count(conn, property_id, room)
        if count >= MAX_PHOTOS:
            raise ValidationFailed.one(field, f"a property and each room type may have at most {MAX_PHOTOS} photos")
        place = count if position is None else min(position, count)
        shift_photos(conn, property_id, room, place, count - 1, 1)
        return place

    def _remove(self, conn: Connection, current: Row) -> None:
        room = current["room_type_id"] or ""
        count = photo_count(conn, current["property_id"], room)
        delete_photo(conn, current["id"])
        shift_photos(conn, current["property_id"], room, current["position"] + 1, count - 1, -1)


def _writable(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(["the photo must be a JSON object"])
    return {k: v for k, v in data.items() if k not in READ_ONLY}
