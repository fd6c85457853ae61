"""The property editor: every field, setting and content item of a property, for create and update.

The form sends what it holds and lets the engine judge it; error paths such as
`settings.state_length` or `content.photos.0.url` name a field or a field of a photo's row.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from functools import cache
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input, SelectionList
from textual.widgets.selection_list import Selection

from backend.engine import Engine
from backend.identity.models import Actor
from backend.inventory.photos import as_batch
from backend.properties.models import PROPERTY_TYPES, Settings
from backend.properties.service import Properties
from console.kit.form_editor import FormEditor
from console.kit.forms import blank_to_none, get_path, int_or_raw, keep_order, set_path
from console.kit.item_list import Column, ItemList
from console.kit.labels import label_for
from console.kit.record_editor import Problem
from console.kit.section import Section
from console.kit.toggles import Checkbox

CUT_OFF_TIMES = tuple(f"{hour:02d}:{minute:02d}:00" for hour in range(24) for minute in (0, 30))
MIN_STAY_TYPES = ("both", "arrival", "through")
WHOLE_NUMBERS = ("settings.state_length", "settings.cut_off_days")
PRICES = ("settings.min_price", "settings.max_price")
AUTOUPDATE = tuple(f"settings.allow_availability_autoupdate{suffix}"
                   for suffix in ("_on_confirmation", "_on_modification", "_on_cancellation", ""))


@dataclass(frozen=True)
class EditorData:
    """The property to edit (None for a new one) and what the form offers to choose from."""

    property: dict[str, Any] | None
    facilities: list[dict[str, str]]
    groups: list[dict[str, Any]]
    timezones: tuple[str, ...]


@cache
def timezones() -> tuple[str, ...]:
    """The time zones the system knows, suggested as staff type one (read from disk once)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def load_editor_data(engine: Engine, actor: Actor, property_id: str | None) -> EditorData:
    """Everything the editor shows, read before it opens so that it opens filled in (run it in a worker)."""
    found = engine.properties.get(actor, property_id) if property_id else None
    return EditorData(found, engine.facilities.list(), engine.identity.groups(actor), timezones())


class EditorReady(Message):
    def __init__(self, data: EditorData) -> None:
        super().__init__()
        self.data = data


PHOTO_COLUMNS = (Column("url", "Photo URL", placeholder="https://…", width="2fr"),
                 Column("kind", "Kind", "choice", ("photo", "ad", "menu"), width="12"),
                 Column("author", "Author"), Column("description", "Caption"))


class PropertyEditor(FormEditor):
    AREA = "properties"
    NOUN = "property"
    LABELS = {"photos": "Photo"}  # a photo's messages: "Photo 2 photo url: …"; the others' labels are the engine's

    def __init__(self, data: EditorData) -> None:
        self.data = data
        found = data.property
        # A new property starts from the engine's defaults.
        values = found or {"is_active": True, "settings": Settings().model_dump(mode="json")}
        super().__init__(found["id"] if found else None, values, found["title"] if found else "New property")

    # --- the form ----------------------------------------------------------------------------

    def label(self, path: str) -> str:
        return self.LABELS.get(path) or label_for(path)

    def build(self) -> None:
        text, choice, tick = self.text, self.choice, self.tick
        text("title", "e.g. Hotel Edelweiss", required=True)
        text("currency", "e.g. EUR", "ISO 4217 code", required=True)
        choice("property_type", [(t.replace("_", " "), t) for t in PROPERTY_TYPES], prompt="—")
        # A new property may go to the operator's default group; an existing one always shows its own.
        choice("group_id", [(g["title"] + ("  (your default)" if g["is_default"] else ""), g["id"])
                            for g in self.data.groups], prompt="Your default group" if self.record_id is None else None)
        self.add("timezone", Input(self.values.get("timezone") or "", placeholder="e.g. Europe/Zurich", compact=True,
                                   suggester=SuggestFromList(self.data.timezones, case_sensitive=False)))
        text("website", "https://…")
        text("logo_url", "https://…/logo.png", "fetched and kept when saved")
        tick("is_active")
        text("email", "e.g. desk@example.com")
        text("phone", "e.g. +41 27 966 12 00")
        for path in ("address", "city", "state", "zip_code"):
            text(path)
        text("country", "e.g. CH", "ISO 3166 two-letter code")
        text("latitude", "e.g. 46.0207")
        text("longitude", "e.g. 7.7491")
        choice("settings.min_stay_type", [(t, t) for t in MIN_STAY_TYPES])
        text("settings.min_price", "no minimum")
        text("settings.max_price", "no maximum")
        text("settings.state_length", "default 500", "100 to 730 days")
        choice("settings.cut_off_time", [(t[:5], t) for t in CUT_OFF_TIMES])
        text("settings.cut_off_days", "default 0", "0 to 30")
        for path in AUTOUPDATE:
            tick(path)
        self.long_text("content.description")
        self.long_text("content.important_information", "included in booking confirmations")
        self.item_list(ItemList("photos", PHOTO_COLUMNS, get_path(self.values, "content.photos") or [], "Add photo"))
        chosen = set(self.values.get("facilities") or ())
        self.add("facilities", SelectionList[str](*(
            Selection(Text.assemble(f["title"], (f"\u00a0· {f['category']}", "dim")), f["id"], f["id"] in chosen)
            for f in self.data.facilities), compact=True), hint="space ticks or unticks the highlighted facility",
            classes="-unlabelled")  # the section says it

    def tick(self, path: str) -> None:
        self.add(path, Checkbox(value=bool(get_path(self.values, path)), compact=True))

    def sections(self) -> ComposeResult:
        f = self.fields
        found = self.data.property
        yield Section("Property", Grid(*(f[p] for p in ("title", "currency", "property_type", "group_id",
                                                        "timezone", "website", "logo_url", "is_active")),
                                       classes="fields"))
        yield Section("Contact and location",
                      Grid(*(f[p] for p in ("email", "phone", "address", "city", "state", "zip_code",
                                            "country", "latitude", "longitude")), classes="fields"),
                      hint=self.contact_hint(found["acc_cannels_count"] if found else 0))
        yield Section("Settings",
                      Grid(*(f[p] for p in ("settings.min_stay_type", "settings.min_price", "settings.max_price",
                                            "settings.state_length", "settings.cut_off_time",
                                            "settings.cut_off_days")), classes="fields"),
                      Grid(*(f[p] for p in AUTOUPDATE), classes="fields ticks"))
        yield Section("Content", f["content.description"], f["content.important_information"], self.lists["photos"],
                      deferred=True)  # at the bottom edge at 120×40
        yield Section("Facilities", f["facilities"], id="facilities-section", deferred=True)

    @staticmethod
    def contact_hint(channels: int) -> str:
        if not channels:
            return "required before connecting a channel"
        return f"connected to {channels} channel{'s' if channels != 1 else ''}: these must stay filled in"

    # --- saving ------------------------------------------------------------------------------

    def service(self) -> Properties:
        return self.app.engine.properties

    def payload(self) -> dict[str, Any]:
        """The property as the engine takes it. Blank text means "not set"; whole numbers go as ints."""
        data: dict[str, Any] = {}
        for path, field in self.fields.items():
            value = field.value
            if path in WHOLE_NUMBERS:
                if not value.strip():
                    continue  # keep the stored value (or the default for a new property)
                value = int_or_raw(value)
            elif path in PRICES:
                value = blank_to_none(value)
            elif path == "group_id" and value is None:
                continue
            elif path == "facilities":
                value = keep_order(value, self.values.get("facilities") or [])
            set_path(data, path, value)
        data["content"]["photos"] = as_batch(get_path(self.values, "content.photos") or [], self.lists["photos"].value,
                                             {column.key for column in PHOTO_COLUMNS})
        return data

    def saved_text(self, record: dict[str, Any]) -> str:
        return f"Saved “{record['title']}”"

    def show_problems(self, details: dict[str, list[str]]) -> Problem | None:
        first = super().show_problems(details)
        if first is None:
            self.query_one("#form").scroll_home(animate=False)  # to the summary, the only place they show
        return first

    def target_for(self, path: str) -> tuple[Problem | None, str]:
        """The engine names `content.photos.N`: this form's list of photos."""
        return super().target_for(path.replace("content.photos", "photos", 1))
