"""The three FastAPI apps of `frontdesk serve`, each with its own OpenAPI page at /docs."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel

from backend.applications import InstallationEnvelope
from backend.bookings.models import BookingEnvelope
from backend.channels import ChannelEnvelope
from backend.chat.attachments import AttachmentEnvelope
from backend.chat.embed import ChatSessionEnvelope, OneTimeTokenEnvelope
from backend.chat.inquiry import InquiryEnvelope
from backend.chat.service import MessageEnvelope
from backend.engine import Engine
from backend.http import errors
from backend.http.limits import BodyLimit
from backend.http.routes import (
    applications,
    bookings,
    channels,
    chat,
    embed,
    inbound,
    inventory,
    pci,
    properties,
    shopping,
    system,
)
from backend.inventory.ari import AriEnvelope
from backend.inventory.models import (
    HotelPolicyEnvelope,
    RatePlanEnvelope,
    RoomTypeEnvelope,
)
from backend.properties.models import PropertyEnvelope

Listener = Literal["main", "secure", "pci"]

DESCRIPTIONS = {
    "main": "The main API. Card data is always masked here.",
    "secure": "The secure variant of the main API: the address for requests that carry card data.",
    "pci": "The card tokenisation API: tokenisation profiles, capture and the card vault.",
}
BODIES: list[type[BaseModel]] = [PropertyEnvelope, ChannelEnvelope, InstallationEnvelope, RoomTypeEnvelope,
                                 RatePlanEnvelope, HotelPolicyEnvelope, AriEnvelope, BookingEnvelope,
                                 MessageEnvelope, AttachmentEnvelope, InquiryEnvelope, OneTimeTokenEnvelope,
                                 ChatSessionEnvelope]


def create_app(engine: Engine, listener: Listener = "main") -> FastAPI:
    app = FastAPI(title=f"Frontdesk {listener} API", version="1", description=DESCRIPTIONS[listener],
                  openapi_url="/openapi.json", docs_url="/docs", redoc_url=None)
    app.state.engine = engine
    app.state.listener = listener
    errors.install(app)
    app.add_middleware(BodyLimit, max_bytes=engine.config.tokenise_max_bytes if listener == "pci"
                       else engine.config.max_body_bytes)
    app.include_router(system.router)
    if listener in ("main", "secure"):
        for router in (properties.router, channels.router, applications.router, inventory.router, bookings.router,
                       shopping.router, chat.router, embed.router, inbound.router):
            app.include_router(router)
    else:
        app.include_router(pci.router)
    _document_bodies(app)
    return app


def _document_bodies(app: FastAPI) -> None:
    """Add the request envelopes, which routes read by hand, to the OpenAPI components."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in BODIES:
                definition = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(definition.pop("$defs", {}))
                components[model.__name__] = definition
        return app.openapi_schema or schema

    app.openapi = openapi  # type: ignore[method-assign]
