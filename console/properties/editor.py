"""The property editor: every field, setting and content item of a property, for create and update.

The form sends what it holds and lets the engine judge it; error paths such as
`settings.state_length` or `content.photos.0.url` name a field or a field of a photo row.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Vertical, VerticalScroll
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import (
    Button,
    Input,
    Label,
    SelectionList,
    Static,
    TextArea,
)
from textual.widgets.selection_list import Selection

from backend.engine import Engine
from backend.identity import Actor
from backend.properties.models import PROPERTY_TYPES, Settings
from backend.properties.service import Properties
from console.kit.app_bar import AppBar
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.footer import Footer
from console.kit.forms import blank_to_none, get_path, int_or_raw, keep_order, set_path
from console.kit.labels import label_for
from console.kit.record_editor import Problem, RecordEditor
from console.kit.status_line import StatusLine
from console.kit.toggles import Switch
from console.properties.photo_row import PhotoRow

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
    timezones: list[str]


def load_editor_data(engine: Engine, actor: Actor, property_id: str | None) -> EditorData:
    """Everything the editor shows, read before it opens so that it opens filled in (run it in a worker)."""
    found = engine.properties.get(actor, property_id) if property_id else None
    return EditorData(found, engine.facilities.list(), engine.identity.groups(actor),
                      sorted(zoneinfo.available_timezones()))


class EditorReady(Message):
    def __init__(self, data: EditorData) -> None:
        super().__init__()
        self.data = data


def section(title: str, *children: Widget, hint: str = "", id: str | None = None) -> Vertical:
    box = Vertical(*children, classes="section", id=id)
    box.border_title = title
    if hint:
        box.border_subtitle = hint
    return box


class PropertyEditor(RecordEditor):
    NOUN = "property"

    def __init__(self, data: EditorData) -> None:
        super().__init__(data.property["id"] if data.property else None)
        self.data = data
        # A new property starts from the engine's defaults.
        self.values = data.property or {"is_active": True, "settings": Settings().model_dump(mode="json")}
        self.fields = self.build_fields()
        self.sent_photos: list[PhotoRow] = []

    # --- the form ----------------------------------------------------------------------------

    def build_fields(self) -> dict[str, Field]:
        fields: dict[str, Field] = {}

        def value(path: str) -> Any:
            return get_path(self.values, path)

        def add(path: str, control: Widget, hint: str = "", required: bool = False, classes: str = "") -> None:
            control.id = "input-" + path.replace(".", "-")
            fields[path] = Field(label_for(path), control, path=path, hint=hint, required=required, classes=classes)

        def text(path: str, placeholder: str = "", hint: str = "", required: bool = False,
                 suggest: list[str] | None = None) -> None:
            suggester = SuggestFromList(suggest, case_sensitive=False) if suggest else None
            current = value(path)
            add(path, Input("" if current is None else str(current), placeholder=placeholder, suggester=suggester,
                            compact=True), hint, required)

        def choice(path: str, options: list[tuple[str, str]], prompt: str = "") -> None:
            add(path, Choice(options, value(path) or None, prompt=prompt or None))

        def switch(path: str) -> None:
            add(path, Switch(bool(value(path))))

        def long_text(path: str, hint: str = "") -> None:
            add(path, TextArea(value(path) or "", compact=True), hint)

        text("title", "e.g. Hotel Edelweiss", required=True)
        text("currency", "e.g. EUR", "ISO 4217 code", required=True)
        choice("property_type", [(t.replace("_", " "), t) for t in PROPERTY_TYPES], prompt="—")
        # A new property may go to the operator's default group; an existing one always shows its own.
        choice("group_id", [(g["title"] + ("  (your default)" if g["is_default"] else ""), g["id"])
                            for g in self.data.groups], prompt="Your default group" if self.record_id is None else "")
        text("timezone", "e.g. Europe/Zurich", suggest=self.data.timezones)
        text("website", "https://…")
        text("logo_url", "https://…/logo.png", "fetched and kept when saved")
        switch("is_active")
        text("email", "e.g. desk@example.com")
        text("phone", "e.g. +41 27 966 12 00")
        text("address")
        text("city")
        text("state")
        text("zip_code")
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
            switch(path)
        long_text("content.description")
        long_text("content.important_information", "included in booking confirmations")
        chosen = set(value("facilities") or ())
        add("facilities", SelectionList[str](*(
            Selection(Text.assemble(f["title"], (f"\u00a0· {f['category']}", "dim")), f["id"], f["id"] in chosen)
            for f in self.data.facilities), compact=True), hint="space ticks or unticks the highlighted facility",
            classes="-unlabelled")  # the section says it
        return fields

    def compose(self) -> ComposeResult:
        f = self.fields
        found = self.data.property
        yield AppBar("properties", found["title"] if found else "New property")
        with VerticalScroll(id="form", can_focus=False):
            yield Static("", id="summary", markup=False)
            yield section("Property", Grid(*(f[p] for p in ("title", "currency", "property_type", "group_id",
                                                            "timezone", "website", "logo_url", "is_active")),
                                           classes="fields"))
            yield section("Contact and location",
                          Grid(*(f[p] for p in ("email", "phone", "address", "city", "state", "zip_code",
                                                "country", "latitude", "longitude")), classes="fields"),
                          hint=self.contact_hint(found["acc_cannels_count"] if found else 0))
            yield section("Settings",
                          Grid(*(f[p] for p in ("settings.min_stay_type", "settings.min_price", "settings.max_price",
                                                "settings.state_length", "settings.cut_off_time",
                                                "settings.cut_off_days")), classes="fields"),
                          Grid(*(f[p] for p in AUTOUPDATE), classes="fields switches"))
            yield section("Content", f["content.description"], f["content.important_information"],
                          Label("Photos", classes="field-label"),
                          Vertical(*map(PhotoRow, get_path(self.values, "content.photos") or []), id="photos"),
                          Button("+ Add photo", id="add-photo", compact=True))
            yield section("Facilities", f["facilities"], id="facilities-section")
        yield StatusLine()
        yield Footer()

    def on_mount(self) -> None:
        found = self.data.property
        self.query_one(StatusLine).where(f"Editing “{found['title']}”" if found else "New property")
        self.initial = self.payload()

    @staticmethod
    def contact_hint(channels: int) -> str:
        if not channels:
            return "required before connecting a channel"
        return f"connected to {channels} channel{'s' if channels != 1 else ''}: these must stay filled in"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "add-photo":
            row = PhotoRow()
            self.query_one("#photos").mount(row)
            self.call_after_refresh(row.fields["url"].control.focus)

    # --- saving ------------------------------------------------------------------------------

    def service(self) -> Properties:
        return self.app.engine.properties

    def photos_to_send(self) -> list[PhotoRow]:
        """Photo rows with anything typed in; rows left empty are dropped rather than rejected."""
        return [row for row in self.query(PhotoRow) if not row.is_blank]

    def payload(self) -> dict[str, Any]:
        return self.payload_with(self.photos_to_send())

    def outgoing(self) -> dict[str, Any]:
        self.sent_photos = self.photos_to_send()  # error paths content.photos.N count these rows
        return self.payload_with(self.sent_photos)

    def payload_with(self, photos: list[PhotoRow]) -> dict[str, Any]:
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
        data["content"]["photos"] = [{**row.value, "position": index} for index, row in enumerate(photos)]
        return data

    def saved_text(self, record: dict[str, Any]) -> str:
        return f"Saved “{record['title']}”"

    def show_problems(self, details: dict[str, list[str]]) -> Problem | None:
        first = super().show_problems(details)
        if first is None:
            self.query_one("#form").scroll_home(animate=False)  # to the summary, the only place they show
        return first

    def target_for(self, path: str) -> tuple[Field | None, str]:
        parts = path.split(".")
        if parts[:2] == ["content", "photos"] and len(parts) > 2 and parts[2].isdigit():
            index = int(parts[2])
            if index < len(self.sent_photos):
                row = self.sent_photos[index]
                field = row.fields.get(parts[3] if len(parts) > 3 else "url", row.fields["url"])
                return field, f"Photo {index + 1} {field.label.lower()}"
        while parts:
            if field := self.fields.get(".".join(parts)):
                return field, field.label
            parts.pop()
        return None, label_for(path) if path else ""
