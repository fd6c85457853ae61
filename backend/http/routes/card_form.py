"""The card capture form, served by the pci listener (backend/vault/card_form.py tells how it goes).

Its page is static (HTML, one script, one stylesheet) with the strict policy of the web chat page
(backend/http/pages.py); the sites that
may frame it are the operator's CORS origins (`frontdesk serve --cors-origin`), which the page also reads, so that
it answers only them. Its one credential is the session token in its address."""

from __future__ import annotations

import html
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from backend.http.deps import EngineDep, body_doc, envelope
from backend.http.pages import WEB, asset_file, page_file
from backend.http.responses import FastJSON, one
from backend.vault.card_form import CardFormEnvelope

router = APIRouter(prefix="/api/v1/capture_form", tags=["card form"])
ASSETS = {"card_form.js": "text/javascript", "card_form.css": "text/css"}
Card = Depends(envelope("card"))


async def get_session_token(session_token: Annotated[str | None, Query()] = None) -> str | None:
    """The form's session, from its address: checked by the vault as it keeps the card."""
    return session_token


SessionTokenDep = Annotated[str | None, Depends(get_session_token)]


@router.get("", include_in_schema=False)
async def form(request: Request) -> Response:
    origins = " ".join(request.app.state.engine.config.cors_origins)
    page = (WEB / "card_form.html").read_text().replace("{origins}", html.escape(origins, quote=True))
    return page_file(page.encode(), "text/html; charset=utf-8", origins)


@router.get("/{name}", include_in_schema=False)
async def asset(name: str, request: Request) -> Response:
    return asset_file(name, ASSETS, "the card form", " ".join(request.app.state.engine.config.cors_origins))


@router.post("/cards", status_code=201, openapi_extra=body_doc(CardFormEnvelope))
def keep_card(engine: EngineDep, session_token: SessionTokenDep, data: Any = Card) -> FastJSON:
    """The card the guest typed, kept in the vault for the session's channels: answered masked, with the
    `card_token` that push_booking takes as `guarantee.token`. The session is spent by it."""
    card = engine.card_form.keep(session_token, data)
    return one({"id": card["card_token"], "type": "card", "attributes": card}, 201)
