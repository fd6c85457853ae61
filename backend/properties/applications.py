"""Applications installed per property. `chat` switches on the chat API and inbox for a property."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, StrictStr

from backend.core.errors import NotFound, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.validation import validate
from backend.identity.models import Actor
from backend.properties.service import Properties
from backend.properties.store import (
    delete_installation,
    has_installation,
    insert_installation,
    installation,
    installation_of,
    installations_page,
)
from storage import Store, new_id, utc_now

APPLICATIONS = {"chat": "Guest chat: answer guests from BookingCom and AirBNB in one inbox"}
if TYPE_CHECKING:
    ApplicationCode = str  # at run time the Literal of APPLICATIONS' codes, which mypy cannot build
else:
    ApplicationCode = Literal[tuple(APPLICATIONS)]


class InstallationInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    property_id: StrictStr
    application_code: ApplicationCode


class InstallationEnvelope(BaseModel):
    application_installation: InstallationInput


class Applications:
    def __init__(self, store: Store, events: EventBus, properties: Properties) -> None:
        self.store = store
        self.events = events
        self.properties = properties

    def available(self) -> list[dict[str, str]]:
        return [{"code": code, "title": title} for code, title in APPLICATIONS.items()]

    def install(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(InstallationInput, data)
        try:
            self.properties.require(actor, model.property_id)
        except (NotFound, Unauthorized):
            raise ValidationFailed.one("property_id", "is not a property of yours") from None
        installation_id = new_id()
        with self.store.transaction() as conn:
            if self.is_installed(model.property_id, model.application_code):
                raise ValidationFailed.one("application_code", "is already installed on this property")
            insert_installation(conn, installation_id, model.property_id, model.application_code, utc_now())
        self.events.publish("property.changed", model.property_id, action="application_installed")
        return self._get(installation_id)

    def installed(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = installations_page(self.store, query, actor)
        return [dict(r) for r in rows], meta

    def uninstall(self, actor: Actor, installation_id: str) -> None:
        installation = self._get(installation_id)
        self.properties.require(actor, installation["property_id"])
        with self.store.transaction() as conn:
            delete_installation(conn, installation_id)
        self.events.publish("property.changed", installation["property_id"], action="application_uninstalled")

    def set_installed(self, actor: Actor, property_id: str, code: str, on: bool) -> None:
        """Install or uninstall by property and code: what a toggle in the console does (looked up and changed in one
        transaction, so that two toggles at once end as the last one says)."""
        with self.store.transaction():
            row = installation_of(self.store, property_id, code)
            if on and row is None:
                self.install(actor, {"property_id": property_id, "application_code": code})
            elif not on and row is not None:
                self.uninstall(actor, row["id"])

    def is_installed(self, property_id: str, code: str) -> bool:
        return has_installation(self.store, property_id, code)

    def _get(self, installation_id: str) -> dict[str, Any]:
        row = installation(self.store, installation_id)
        if row is None:
            raise NotFound(f"application installation {installation_id} does not exist")
        return dict(row)
