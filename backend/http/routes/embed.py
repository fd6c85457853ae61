"""The embeddable web chat: its tokens and its page, served by the main and secure listeners.

The page is static (HTML, one script, one stylesheet; served by backend/http/pages.py) and talks to the same
chat API as any integrator, with a chat session token that reaches one property's chat and nothing else."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response

from backend.chat.embed import ChatSessionEnvelope, OneTimeTokenEnvelope
from backend.http.deps import ActorDep, EngineDep, body_doc, envelope
from backend.http.pages import WEB, asset_file, page_file
from backend.http.responses import FastJSON, one

router = APIRouter(tags=["chat"])
IMAGES = "'self' blob: data:"  # the attachments it shows
ASSETS = {"chat.js": "text/javascript", "chat.css": "text/css"}
OneTimeToken = Depends(envelope("one_time_token"))
ChatSession = Depends(envelope("chat_session"))


@router.post("/api/v1/auth/one_time_token", status_code=201, openapi_extra=body_doc(OneTimeTokenEnvelope))
def one_time_token(request: Request, engine: EngineDep, actor: ActorDep, data: Any = OneTimeToken) -> FastJSON:
    """A single-use token, good for 5 minutes, and the `embed_url` of the property's web chat to put in
    an iframe. Ask for it from your server: the API token must never reach a browser."""
    # The page's address is this listener's public one: the Host header is the caller's to forge.
    issued = engine.embed.one_time_token(actor, data, engine.config.public_url(request.app.state.listener))
    return one({"id": issued.pop("id"), "type": "one_time_token", "attributes": issued}, status=201)


@router.post("/api/v1/auth/chat_session", status_code=201, openapi_extra=body_doc(ChatSessionEnvelope))
def chat_session(engine: EngineDep, data: Any = ChatSession) -> FastJSON:
    """What the web chat page does with its one-time token: a session token (12 hours) for the chat of
    that one property. No other authentication: the one-time token is the proof."""
    issued = engine.embed.exchange(data)
    return one({"id": issued.pop("id"), "type": "chat_session", "attributes": issued}, status=201)


@router.get("/chat", include_in_schema=False)
async def chat_page(request: Request) -> Response:
    return page_file((WEB / "chat.html").read_bytes(), "text/html; charset=utf-8",
                     request.app.state.engine.config.chat_frame_ancestors, img_src=IMAGES)


@router.get("/chat/{name}", include_in_schema=False)
async def chat_asset(name: str, request: Request) -> Response:
    return asset_file(name, ASSETS, "the web chat", request.app.state.engine.config.chat_frame_ancestors,
                      img_src=IMAGES)
