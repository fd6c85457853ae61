"""Dialogs of the channels area: create or edit a channel, and show a new channel's inbound key, or a push channel's
new signing secret, once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from backend.channels.service import CHANNEL_CODES, SHOPPING_CODES, ShoppingSettings
from console.channels.keys import CHANNEL_DIALOG, SECRET_DIALOG
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.labels import label_for
from console.kit.messages import ActionFailed
from console.kit.screens import ModalScreen
from console.kit.toggles import Checkbox
from console.kit.workers import engine_work

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

CODE_NAMES = {"BookingCom": "Booking.com (OTA, chat)", "AirBNB": "Airbnb (OTA, chat)",
              "OpenShopping": "OpenShopping (meta search)"}
FACILITY_FORMATS = [("a plain list of names", "list"), ("grouped by kind (Channex's booking engine)", "grouped")]
ARI_MODES = [("not sent", "none"), ("pulled by its adapter", "pull"), ("pushed by Frontdesk", "push")]
ARI_FORMATS = [("JSON (the service's own shapes)", "json"), ("OpenTravel XML", "ota")]
SHOPPING_SETTINGS = ("facilities_format", "request_credit_card")
ARI_SETTINGS = {"none": (), "pull": ("ari_distribution",), "push": ("ari_distribution", "ari_url", "ari_format")}


def channel_settings(stored: dict[str, Any], shown: dict[str, Any], code: str) -> dict[str, Any]:
    """The settings to save: those stored, which keeps the keys the dialog doesn't show, with the shown ones that
    apply to the channel (a shopping channel's booking engine; the ARI keys of its distribution, none for a channel
    that gets no ARI)."""
    applies = {*ARI_SETTINGS[shown["ari_distribution"]], *(SHOPPING_SETTINGS if code in SHOPPING_CODES else ())}
    kept = {name: value for name, value in stored.items() if name not in ARI_SETTINGS["push"]}
    shown = {**shown, "ari_url": shown["ari_url"] or None}  # an empty box is no address
    return kept | {name: value for name, value in shown.items() if name in applies}


def id_line(channel_id: str, copied: bool = False) -> str:
    return f"ID {channel_id} · " + ("copied to the clipboard" if copied else "ctrl+y copies it")


class ChannelSaved(Message):
    def __init__(self, channel: dict[str, Any]) -> None:
        super().__init__()
        self.channel = channel


class ChannelDialog(ModalScreen[dict[str, Any] | None]):
    """Create a channel (title, type, group, active) or edit one (title, group, active; the type is fixed).

    The group says which properties the channel may sell: only those of its own group, as the engine checks.

    A shopping channel may require a provider API key: ticked with a new key typed, it is set;
    ticked with the box left empty, the current key stays; unticked, the channel is public.
    The key is write-only, so the box never shows it. It also says what its booking engine shows: the
    facilities as a list or grouped by kind, and whether guests are asked for a card (the channel's
    `settings`, whose other keys stay as they are). Any channel may get the ARI of its mapped rate plans:
    pulled by its adapter, or pushed by Frontdesk to its address in a format (`settings.ari_*`). Properties
    are connected from the Properties screen (`c`), where missing contact details show."""

    BINDINGS = CHANNEL_DIALOG

    app: ConsoleApp

    def __init__(self, channel: dict[str, Any] | None, groups: list[dict[str, Any]]) -> None:
        super().__init__(classes="dialog-screen")
        self.channel = channel
        code = channel["channel"] if channel else "BookingCom"
        group = channel["group_id"] if channel else next((g["id"] for g in groups if g["is_default"]), groups[0]["id"])
        settings = channel["settings"] if channel else {}
        shown = ShoppingSettings.model_validate(settings)
        self.fields = {
            "title": Field("Title", Input(channel["title"] if channel else "", placeholder="e.g. Booking.com",
                                          id="channel-title", compact=True), path="title", required=True),
            "channel": Field("Channel type", Choice([(CODE_NAMES[c], c) for c in CHANNEL_CODES], code,
                                                    disabled=channel is not None, id="channel-code"),
                             path="channel", hint="fixed once created" if channel else ""),
            "group_id": Field("Group (the channel sells only this group's properties)",
                              Choice([(g["title"], g["id"]) for g in groups], group, id="channel-group"),
                              path="group_id"),
            "is_active": Field("Active", Checkbox(value=channel["is_active"] if channel else True,
                                                 id="channel-active", compact=True), path="is_active"),
            "keyed": Field("Require a provider API key (header api-key)",
                           Checkbox(value=bool(channel and channel["has_provider_api_key"]), id="channel-keyed",
                                    compact=True),
                           path="keyed", classes="shopping-only"),
            "provider_api_key": Field("Provider API key", Input(password=True, id="channel-key", compact=True,
                                                                placeholder="8 characters or more"),
                                      path="provider_api_key", classes="shopping-only",
                                      hint="empty keeps the current key" if channel and channel["has_provider_api_key"]
                                      else "without a key the channel answers anyone"),
            "settings.facilities_format": Field(
                "Booking engines get the facilities as", Choice(FACILITY_FORMATS, shown.facilities_format,
                                                                id="channel-facilities"),
                path="settings.facilities_format", classes="shopping-only"),
            "settings.request_credit_card": Field(
                "Booking engines ask guests for a card",
                Checkbox(value=shown.request_credit_card, id="channel-card", compact=True),
                path="settings.request_credit_card", classes="shopping-only"),
            "settings.ari_distribution": Field(
                "Availability and rates (ARI)", Choice(ARI_MODES, settings.get("ari_distribution", "none"),
                                                       id="channel-ari"),
                path="settings.ari_distribution"),
            "settings.ari_url": Field("Push to (the channel's address)",
                                      Input(settings.get("ari_url") or "", placeholder="https://…",
                                            id="channel-ari-url", compact=True),
                                      path="settings.ari_url", classes="push-only"),
            "settings.ari_format": Field("Push as", Choice(ARI_FORMATS, settings.get("ari_format", "json"),
                                                           id="channel-ari-format"),
                                         path="settings.ari_format", classes="push-only"),
        }

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -fits-short", id="channel-dialog"):
            yield Label("New channel" if self.channel is None else f"Edit “{self.channel['title']}”",
                        classes="dialog-title", markup=False)
            if self.channel is not None:  # what its adapter and the API name it by
                yield Static(id_line(self.channel["id"]), id="channel-id", markup=False)
            with VerticalScroll(id="channel-fields", can_focus=False):  # a shopping channel's scroll at 80×24
                yield from self.fields.values()
                yield Static("", id="channel-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def on_mount(self) -> None:
        self.fields["title"].control.focus()
        self.show_fields()
        fields = self.query_one("#channel-fields", VerticalScroll)
        self.call_after_refresh(fields.scroll_home, animate=False)  # the title's label in view too, at 80×24

    def on_choice_changed(self) -> None:
        self.show_fields()

    def action_copy_id(self) -> None:
        if self.channel is None:
            self.app.bell()
            return
        self.app.copy_to_clipboard(self.channel["id"])
        self.query_one("#channel-id", Static).update(id_line(self.channel["id"], copied=True))

    def show_fields(self) -> None:
        """Only the fields that apply: a shopping channel's keys and booking engine, a push channel's address."""
        shopping = self.fields["channel"].value in SHOPPING_CODES
        for field in self.query(".shopping-only"):
            field.display = shopping
        push = self.fields["settings.ari_distribution"].value == "push"
        for field in self.query(".push-only"):
            field.display = push

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
        data["settings"] = channel_settings(self.channel["settings"] if self.channel else {}, shown, data["channel"])
        if data["channel"] in SHOPPING_CODES:
            if not keyed:
                data["provider_api_key"] = None
            elif key or not (self.channel and self.channel["has_provider_api_key"]):
                data["provider_api_key"] = key  # a new key, or an empty one that the engine refuses
        if self.channel is not None:
            del data["channel"]
        self.save(data)

    @engine_work(exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        engine, actor = self.app.engine, self.app.actor()
        if self.channel is None:
            saved = engine.channels.create(actor, data)
        else:
            saved = engine.channels.update(actor, self.channel["id"], data)
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
        problems = self.query_one("#channel-problems", Static)
        problems.update("\n".join(unplaced))
        problems.set_class(bool(unplaced), "-shown")


class SecretDialog(ModalScreen[None]):
    """A secret the engine answers once and keeps only for itself (a hash, or for signing): shown this one time."""

    BINDINGS = SECRET_DIALOG

    def __init__(self, heading: str, explanation: str, secret: str, secret_id: str) -> None:
        super().__init__(classes="dialog-screen")
        self.heading = heading
        self.explanation = explanation
        self.key = secret
        self.secret_id = secret_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog -fits-short"):
            yield Label(self.heading, classes="dialog-title", markup=False)
            yield Static(self.explanation, classes="dialog-text", markup=False)
            yield Static(self.key, id=self.secret_id, classes="secret", markup=False)
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
        self.notify("Copied to the clipboard")


class InboundKeyDialog(SecretDialog):
    """The new channel's inbound key. The engine keeps only its hash."""

    def __init__(self, title: str, key: str) -> None:
        super().__init__(f"Channel “{title}” created", "Give this inbound key to the channel's adapter. It is "
                         "shown only now: Frontdesk keeps just a hash of it.", key, "inbound-key")


class AriSecretDialog(SecretDialog):
    """A push channel's signing secret, made when it first turns to push."""

    def __init__(self, title: str, secret: str) -> None:
        super().__init__(f"“{title}” now gets ARI pushed", "Every push is signed with this secret (Standard "
                         "Webhooks headers), so the channel can check it came from Frontdesk. Give it to the "
                         "channel: it is shown only now.", secret, "ari-secret")
