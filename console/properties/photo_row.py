"""One photo of a property in the editor: URL, kind, author and description, removable."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input

from console.kit.choice import Choice
from console.kit.field import Field

KINDS = ("photo", "ad", "menu")


class PhotoRow(Horizontal):
    def __init__(self, photo: dict[str, Any] | None = None) -> None:
        super().__init__(classes="photo-row")
        photo = photo or {}
        kind = Choice([(k, k) for k in KINDS], photo.get("kind") or "photo")
        self.fields = {
            "url": Field("Photo URL", Input(photo.get("url") or "", placeholder="https://…", compact=True),
                         path="url", classes="photo-url"),
            "kind": Field("Kind", kind, path="kind", classes="photo-kind"),
            "author": Field("Author", Input(photo.get("author") or "", compact=True), path="author",
                            classes="photo-author"),
            "description": Field("Caption", Input(photo.get("description") or "", compact=True), path="description",
                                 classes="photo-caption"),
        }

    def compose(self) -> ComposeResult:
        yield from self.fields.values()
        yield Button("✕", classes="remove-photo", tooltip="Remove this photo", compact=True)

    @property
    def value(self) -> dict[str, Any]:
        return {key: field.value for key, field in self.fields.items()}

    @property
    def is_blank(self) -> bool:
        """Nothing typed but the default kind: a row the user added and left empty."""
        return not any(self.value[key].strip() for key in ("url", "author", "description"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.remove()
