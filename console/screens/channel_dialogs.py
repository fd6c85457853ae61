"""Dialogs of the channels area: create or edit a channel, and show a new channel's inbound key once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, Switch

from backend.channels import CHANNEL_CODES, SHOPPING_CODES, ShoppingSettings
from backend.errors import FrontdeskError
from console.labels import label_for
from console.messages import ActionFailed
from console.widgets.field import Field

if TYPE_CHECKING:
    from console.app import FrontdeskApp

CODE_NAMES = {"BookingCom": "Booking.com (OTA, chat)", "AirBNB": "Airbnb (OTA, chat)",
              "OpenShopping": "OpenShopping (meta search)"}
FACILITY_FORMATS = [("a plain list of names", "list"), ("grouped by kind (Channex's booking engine)", "grouped")]


class ChannelSaved(Message):
    def __init__(self, channel: dict[str, Any]) -> None:
        super().__init__()
        self.channel = channel


class ChannelDialog(ModalScreen[dict[str, Any] | None]):
    """Create a channel (title, type, group, active) or edit one (title, group, active; the type is fixed).

    The group says which properties the channel may sell: only those of its own group, as the engine checks.

    A shopping channel may require a provider API key: switched on with a new key typed, it is set;
    switched on with the box left empty, the current key stays; switched off, the channel is public.
    The key is write-only, so the box never shows it. It also says what its booking engine shows: the
    facilities as a list or grouped by kind, and whether guests are asked for a card (the channel's
    `settings`, whose other keys stay as they are). Properties are connected from the Properties
    screen (`c`), where missing contact details show."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "dismiss", "Cancel"),
    ]

    app: FrontdeskApp

    def __init__(self, channel: dict[str, Any] | None, groups: list[dict[str, Any]]) -> None:
        super().__init__(classes="dialog-screen")
        self.channel = channel
        code = channel["channel"] if channel else "BookingCom"
        group = channel["group_id"] if channel else next((g["id"] for g in groups if g["is_default"]), groups[0]["id"])
        shown = ShoppingSettings.model_validate(channel["settings"] if channel else {})
        self.fields = {
            "title": Field("Title", Input(channel["title"] if channel else "", placeholder="e.g. Booking.com",
                                          id="channel-title", compact=True), path="title", required=True),
            "channel": Field("Channel type", Select([(CODE_NAMES[c], c) for c in CHANNEL_CODES], value=code,
                                                    allow_blank=False, disabled=channel is not None,
                                                    id="channel-code", compact=True),
                             path="channel", hint="fixed once created" if channel else ""),
            "group_id": Field("Group (the channel sells only this group's properties)",
                              Select([(g["title"], g["id"]) for g in groups], value=group, allow_blank=False,
                                     id="channel-group", compact=True), path="group_id"),
            "is_active": Field("Active", Switch(channel["is_active"] if channel else True, id="channel-active"),
                               path="is_active"),
            "keyed": Field("Require a provider API key (header api-key)",
                           Switch(bool(channel and channel["has_provider_api_key"]), id="channel-keyed"),
                           path="keyed", classes="shopping-only"),
            "provider_api_key": Field("Provider API key", Input(password=True, id="channel-key", compact=True,
                                                                placeholder="8 characters or more"),
                                      path="provider_api_key", classes="shopping-only",
                                      hint="empty keeps the current key" if channel and channel["has_provider_api_key"]
                                      else "without a key the channel answers anyone"),
            "settings.facilities_format": Field(
                "Booking engines get the facilities as", Select(FACILITY_FORMATS, value=shown.facilities_format,
                                                                allow_blank=False, id="channel-facilities",
                                                                compact=True),
                path="settings.facilities_format", classes="shopping-only"),
            "settings.request_credit_card": Field(
                "Booking engines ask guests for a card", Switch(shown.request_credit_card, id="channel-card"),
                path="settings.request_credit_card", classes="shopping-only"),
        }

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("New channel" if self.channel is None else f"Edit “{self.channel['title']}”",
                        classes="dialog-title", markup=False)
            with VerticalScroll(id="channel-fields", can_focus=False):  # a shopping channel's run long at 80×24
                yield from self.fields.values()
                yield Static("", id="channel-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def on_mount(self) -> None:
        self.fields["title"].control.focus()
        self.show_key_fields()
        fields = self.query_one("#channel-fields", VerticalScroll)
        self.call_after_refresh(fields.scroll_home, animate=False)  # the title's label in view too, at 80×24

    def on_select_changed(self) -> None:
        self.show_key_fields()

    def show_key_fields(self) -> None:
        shopping = self.fields["channel"].value in SHOPPING_CODES
        for field in self.query(".shopping-only"):
            field.display = shopping

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)

    def on_input_submitted(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        data = {name: field.value for name, field in self.fields.items()}
        keyed, key = data.pop("keyed"), data.pop("provider_api_key")
        shown = {name.removeprefix("settings."): data.pop(name) for name in list(data) if name.startswith("settings.")}
        if data["channel"] in SHOPPING_CODES:
            data["settings"] = {**(self.channel["settings"] if self.channel else {}), **shown}
            if not keyed:
                data["provider_api_key"] = None
            elif key or not (self.channel and self.channel["has_provider_api_key"]):
                data["provider_api_key"] = key  # a new key, or an empty one that the engine refuses
        if self.channel is not None:
            del data["channel"]
        self.save(data)

    @work(thread=True, exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        engine, actor = self.app.engine, self.app.actor()
        try:
            if self.channel is None:
                saved = engine.channels.create(actor, data)
            else:
                saved = engine.channels.update(actor, self.channel["id"], data)
        except FrontdeskError as error:
            self.post_message(ActionFailed(error))
        else:
            self.post_message(ChannelSaved(saved))

    def on_channel_saved(self, message: ChannelSaved) -> None:
        self.dismiss(message.channel)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown here, beside the fields, not as the app's notification
        details = message.problems()
        unplaced = []
        for field in self.fields.values():
            field.clear_errors()
        for path, texts in details.items():
            if path in self.fields:
                self.fields[path].show_errors(texts)
            else:
                unplaced += [f"{label_for(path)} {text}" if path else text for text in texts]
        self.query_one("#channel-problems", Static).update("\n".join(unplaced))


class InboundKeyDialog(ModalScreen[None]):
    """The new channel's inbound key. The engine keeps only its hash, so this is the one time it shows."""

    BINDINGS = [Binding("escape", "dismiss", "Done"), Binding("ctrl+y", "copy", "Copy key")]

    def __init__(self, title: str, key: str) -> None:
        super().__init__(classes="dialog-screen")
        self.channel_title = title
        self.key = key

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog"):
            yield Label(f"Channel “{self.channel_title}” created", classes="dialog-title", markup=False)
            yield Static("Give this inbound key to the channel's adapter. It is shown only now: "
                         "Frontdesk keeps just a hash of it.", classes="dialog-text", markup=False)
            yield Static(self.key, id="inbound-key", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Copy (ctrl+y)", id="copy")
                yield Button("Done", id="done", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#done", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "copy":
            self.action_copy()
        else:
            self.dismiss(None)

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.key)
        self.notify("Inbound key copied to the clipboard")
