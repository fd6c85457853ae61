"""The three FastAPI apps of `frontdesk serve`, each with its own OpenAPI document at /openapi.json and its
docs page at /docs (on pci only when asked for: `frontdesk serve --pci-docs`)."""

from __future__ import annotations

from typing import Literal

from fastapi import FastAPI

from backend.engine import Engine
from backend.http import errors, openapi
from backend.http.guard import Gate, Guard
from backend.http.routes import (
    applications,
    availability_rules,
    bookings,
    card_form,
    channels,
    chat,
    embed,
    inbound,
    inventory,
    message_rules,
    message_templates,
    outbox,
    pci,
    photos,
    properties,
    reviews,
    shopping,
    system,
    taxes,
    threads,
    users,
    webhooks,
)

Listener = Literal["main", "secure", "pci"]

DESCRIPTIONS = {
    "main": "The main API. Card data is always masked here.",
    "secure": "The secure variant of the main API: the address for requests that carry card data.",
    "pci": "The card tokenisation API: tokenisation profiles, capture and the card vault.",
}
API_ROUTERS = [system.api_router, properties.router, channels.router, applications.router, inventory.router,
               bookings.router, shopping.router, chat.router, threads.router, message_templates.router, embed.router,
               inbound.router, webhooks.router, outbox.router, reviews.router, reviews.inbound_router,
               availability_rules.router, taxes.router, photos.router, users.router, message_rules.router]


def create_app(engine: Engine, listener: Listener = "main", gate: Gate | None = None) -> FastAPI:
    """`gate`: what this app shares with the other listeners of the process (`frontdesk serve` makes one);
    by default its own."""
    # No redirect to the slashed or unslashed path: the guard answers both alike (backend/http/guard.py).
    app = FastAPI(title=f"Frontdesk {listener} API", version="1", description=DESCRIPTIONS[listener],
                  openapi_url="/openapi.json", docs_url=None, redoc_url=None, redirect_slashes=False)
    app.state.engine = engine
    app.state.listener = listener
    errors.install(app)
    app.add_middleware(Guard, config=engine.config, gate=gate or Gate.of(engine.config),
                       is_internal=engine.keys.is_internal if listener == "secure" else None)
    routers = [system.router, *(API_ROUTERS if listener in ("main", "secure") else [pci.router, card_form.router])]
    for router in routers:
        app.include_router(router)
    # Every operation, flat (an included router is one opaque route of the app): for a 405's `Allow` and
    # the OpenAPI document.
    app.state.operations = [route for router in routers for route in router.routes]
    openapi.document(app)
    if listener != "pci" or engine.config.pci_docs:  # the card listener's interactive console only when asked for
        openapi.add_docs(app)
    return app
