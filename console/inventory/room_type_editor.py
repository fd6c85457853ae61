"""The room type editor: size and occupancy, description, beds, facilities and photos.

The form shows the room's `content` (description and photos) beside the rest, as fields of their own."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import TextArea

from backend.core.validation import as_input
from backend.inventory.models import RoomTypeInput
from backend.inventory.photos import as_batch
from backend.inventory.rooms import RoomTypes
from console.kit.form_editor import FormEditor
from console.kit.forms import blank_to_none, int_or_raw
from console.kit.item_list import Column, ItemList
from console.kit.record_editor import Problem
from console.kit.section import Section

NUMBERS = ("count_of_rooms", "occ_adults", "occ_children", "occ_infants")
BED_COLUMNS = (Column("title", "Bed", placeholder="e.g. Double bed", width="2fr"),
               Column("count", "Count", "number", placeholder="1", width="10"),
               Column("size", "Size", placeholder="e.g. 160×200 cm"))
PHOTO_COLUMNS = (Column("url", "Photo URL", placeholder="https://…", width="2fr"), Column("title", "Caption"),
                 Column("author", "Author"))
PHOTO_KEYS = {column.key for column in PHOTO_COLUMNS}


class RoomTypeEditor(FormEditor):
    AREA = "inventory"
    NOUN = "room type"
    LABELS = {"property_id": "Property", "title": "Title", "count_of_rooms": "Rooms", "occ_adults": "Adults",
              "occ_children": "Children", "occ_infants": "Infants", "default_occupancy": "Default occupancy",
              "description": "Description", "bed_options": "Bed", "facilities": "Facilities", "photos": "Photo"}

    def __init__(self, prop: dict[str, Any], room: dict[str, Any] | None) -> None:
        self.property_id = prop["id"]
        values = as_input(RoomTypeInput, room) if room else {"count_of_rooms": 1, "occ_adults": 2, "occ_children": 0,
                                                               "occ_infants": 0}
        content = values.pop("content", {})
        self.stored_photos = content.get("photos", [])  # what the columns don't show (kind, description) stays
        crumb = f"{prop['title']} › {room['title'] if room else 'New room type'}"
        super().__init__(room["id"] if room else None, {**values, **content}, crumb)

    def service(self) -> RoomTypes:
        return self.app.engine.inventory.room_types

    def build(self) -> None:
        self.text("title", "e.g. Double Room", required=True)
        for path in NUMBERS:
            self.text(path, required=path in ("count_of_rooms", "occ_adults"))
        self.text("default_occupancy", "adults")
        self.long_text("description")
        self.add("facilities", TextArea("\n".join(self.values.get("facilities") or []), compact=True), "one per line")
        self.item_list(ItemList("bed_options", BED_COLUMNS, self.values.get("bed_options") or [], "Add bed"))
        self.item_list(ItemList("photos", PHOTO_COLUMNS, self.values.get("photos") or [], "Add photo"))

    def sections(self) -> ComposeResult:
        f = self.fields
        yield Section("Room type", Grid(*(f[p] for p in ("title", *NUMBERS, "default_occupancy")), classes="fields"))
        yield Section("Beds", self.lists["bed_options"])
        yield Section("Description and facilities", Grid(f["description"], f["facilities"], classes="fields two"))
        yield Section("Photos", self.lists["photos"])

    def payload(self) -> dict[str, Any]:
        f = self.fields
        occupancy = f["default_occupancy"].value
        return {
            "property_id": self.property_id,
            "title": f["title"].value,
            **{path: int_or_raw(f[path].value) for path in NUMBERS},
            "default_occupancy": int_or_raw(occupancy) if occupancy.strip() else None,
            "content": {"description": blank_to_none(f["description"].value),
                        "photos": as_batch(self.stored_photos, self.lists["photos"].value, PHOTO_KEYS)},
            "bed_options": self.lists["bed_options"].value,
            "facilities": [line.strip() for line in f["facilities"].value.splitlines() if line.strip()],
        }

    def target_for(self, path: str) -> tuple[Problem | None, str]:
        """The engine names `content.description` and `content.photos.N`: this form's description and photos."""
        return super().target_for(path.removeprefix("content."))
