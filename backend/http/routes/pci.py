"""The card tokenisation API (the pci listener): profiles, tokenize, capture and the vault by token.

Every call carries a key from `frontdesk pci-keys add`, as `?api_key=` or in the header `api-key`; the
key's id is who acts in the vault's audit log."""

from __future__ import annotations

import re
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from backend.core.errors import NotFound
from backend.http.deps import EngineDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one, success
from backend.vault.profiles import ProfileEnvelope
from backend.vault.tokenise import Tokenised

router = APIRouter(prefix="/api/v1", tags=["tokenisation"])
Profile = Depends(envelope("tokenization_profile"))
TOKEN = re.compile(r"[0-9a-f]{32}")
MEDIA = {"json": "application/json", "xml": "application/xml"}


async def get_key(request: Request) -> str:
    """The query form is the service's; the header keeps it out of URLs and proxies' logs. Never `Authorization`:
    capture forwards that one to the main API. Documented as security schemes (backend/http/openapi.py)."""
    key = request.query_params.get("api_key") or request.headers.get("api-key")
    return cast(str, request.app.state.engine.pci_keys.authenticate(key))


KeyDep = Annotated[str, Depends(get_key)]


@router.get("/tokenization_profiles")
async def list_profiles(engine: EngineDep, _: KeyDep) -> FastJSON:
    """The built-in `frontdesk` and `frontdesk_entity` (read-only), then yours by name."""
    return many([_profile(p) for p in engine.tokenisation.profiles()])


@router.post("/tokenization_profiles", status_code=201, openapi_extra=body_doc(ProfileEnvelope))
def create_profile(engine: EngineDep, _: KeyDep, data: Any = Profile) -> FastJSON:
    """Every selector is compiled now: a bad one is a 422 naming it. The placement node is sent as `node`."""
    return one(_profile(engine.tokenisation.create(data)), 201)


@router.get("/tokenization_profiles/{profile_id}")
async def get_profile(profile_id: str, engine: EngineDep, _: KeyDep) -> FastJSON:
    return one(_profile(engine.tokenisation.profile(profile_id)))


@router.put("/tokenization_profiles/{profile_id}", openapi_extra=body_doc(ProfileEnvelope))
def update_profile(profile_id: str, engine: EngineDep, _: KeyDep, data: Any = Profile) -> FastJSON:
    return one(_profile(engine.tokenisation.update(profile_id, data)))


@router.delete("/tokenization_profiles/{profile_id}", status_code=204, response_class=Response)
def delete_profile(profile_id: str, engine: EngineDep, _: KeyDep) -> Response:
    engine.tokenisation.delete(profile_id)
    return Response(status_code=204)


RAW_MESSAGE = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"type": "object"}}, "application/xml": {"schema": {"type": "string"}}}}}


@router.post("/tokenize", response_class=Response, openapi_extra=RAW_MESSAGE)
async def tokenize(request: Request, engine: EngineDep, key: KeyDep,
                   profile: Annotated[str, Query(description="the profile's name")]) -> Response:
    """A raw third-party message (JSON or XML) in; the same message with card data masked and tokens
    placed, plus the X-PCI-FRONTDESK-TOKENS, -ERRORS and -WARNINGS headers."""
    body = await request.body()
    compiled = engine.tokenisation.compiled(profile)
    # Parsing and sealing are CPU work: off the event loop, as FastAPI does for a plain `def` route.
    tokenised = await run_in_threadpool(engine.tokenisation.tokenise, compiled, body, key)
    return _tokenised(tokenised, MEDIA[compiled.type])


@router.post("/capture", response_class=Response)
def capture(request: Request, engine: EngineDep, key: KeyDep, profile: str | None = None, method: str | None = None,
            url: str | None = None) -> Response:
    """GET `url` (a secure endpoint of the main API) with your main-API auth header, and return its
    answer with tokens in place of the cards. The main API's own errors come back as they were."""
    captured = engine.capture.capture(profile=profile, method=method, url=url, headers=dict(request.headers),
                                      actor=key)
    if captured.tokenised is None:
        return Response(captured.body, status_code=captured.status, media_type=captured.media_type)
    return _tokenised(captured.tokenised, captured.media_type or "application/json")


@router.get("/cards/{token}")
async def get_card(token: str, engine: EngineDep, key: KeyDep) -> FastJSON:
    """A card as a receipt shows it: masked number, type, holder, expiry, whether a CVV is held."""
    return one(_card(engine.vault.card(_token(token), key)))


@router.delete("/cards/{token}")
def delete_card(token: str, engine: EngineDep, key: KeyDep) -> FastJSON:
    engine.vault.delete(_token(token), key)
    return success()


@router.post("/cards/{token}/wipe_cvv")
def wipe_cvv(token: str, engine: EngineDep, key: KeyDep) -> FastJSON:
    """Forget the CVV (once the card is charged); the card stays."""
    return one(_card(engine.vault.wipe_cvv(_token(token), key)))


def _token(token: str) -> str:
    if not TOKEN.fullmatch(token):
        raise NotFound("no card with that token")
    return token


def _profile(p: dict[str, Any]) -> dict[str, Any]:
    return entity("tokenization_profile", p)


def _card(card: dict[str, Any]) -> dict[str, Any]:
    return {"id": card["token"], "type": "card", "attributes": card}


def _tokenised(tokenised: Tokenised, media_type: str) -> Response:
    body, media_type, headers = tokenised.answer(media_type)
    return Response(body, media_type=media_type, headers=headers)
