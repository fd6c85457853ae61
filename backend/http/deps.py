"""What every route needs: the engine, the acting user, the unwrapped request entity, the list query."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar, cast

from fastapi import Depends, Request
from pydantic import BaseModel

from backend.bookings.cards import Reveal
from backend.core.errors import BadRequest
from backend.core.keys import ACTOR_HEADER, INTERNAL_HEADER, REVEAL_HEADER
from backend.core.listing import ListQuery
from backend.core.strict_json import read_json
from backend.engine import Engine
from backend.http.throttle import accept
from backend.identity.models import Actor

T = TypeVar("T")

# The dependencies are `async` on purpose: FastAPI runs a sync dependency in the threadpool, and that
# round trip costs more than the work (measured: ~0.2-0.4 ms CPU a hop against microseconds here).


async def get_engine(request: Request) -> Engine:
    return cast(Engine, request.app.state.engine)


async def get_actor(request: Request) -> Actor:
    """`Authorization: Bearer <token>`, or the header `user-api-key: <token>`.

    The token lookup runs on the event loop: one indexed read, well under 0.1 ms, that WAL never
    makes wait for a writer."""
    return cast(Actor, accepted(request, request.app.state.engine.identity.authenticate(_token(request))))


async def get_chat_actor(request: Request) -> Actor:
    """As get_actor, but a web chat session token is good too: the chat routes take this one."""
    return cast(Actor, accepted(request, request.app.state.engine.identity.authenticate(_token(request), chat=True)))


def accepted(request: Request, who: T) -> T:
    """`who` the request's credential stands for: a 401 from here on is about what it asked for, not a failed
    credential, and counts against that credential alone (backend/http/throttle.py)."""
    accept(request.scope)
    return who


def _token(request: Request) -> str | None:
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return request.headers.get("user-api-key")


async def get_list_query(request: Request) -> ListQuery:
    return ListQuery.from_params(request.query_params.multi_items())


def envelope(name: str, alias: str | None = None) -> Callable[[Request], Awaitable[Any]]:
    """A dependency that reads the body `{"<name>": {...}}` (or `{"<alias>": {...}}`) and returns the inner object.

    Malformed JSON (duplicate keys, NaN and the rest that strict_json refuses), a body that is not an
    object or a missing envelope is a 400; what is inside is validated by the engine, once, exactly as
    for the console.
    """

    async def read(request: Request) -> Any:
        raw = await request.body()
        body = read_json(raw, len(raw)) if raw else None  # the size was capped as it came in (limits.py)
        if isinstance(body, dict) and alias in body and name not in body:
            return body[alias]
        if not isinstance(body, dict) or name not in body:
            raise BadRequest([f'the body must be a JSON object {{"{name}": {{...}}}}'])
        return body[name]

    return read


def body_doc(envelope: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI for a body that `envelope` reads by hand; its schema is added to the components."""
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{envelope.__name__}"}}}}}


def reveal_for(shape: str) -> Callable[[Request], Awaitable[Reveal | None]]:
    """Whether card data may leave in clear, and to whom: only on the secure listener, only to the
    tokenisation service (which proves itself with the internal secret kept beside the database), and
    only in the answers its capture profile reads — a `list` of bookings or one `entity` (`any` for the
    operator's own profiles). It names the capturing pci key for the vault's audit log."""

    async def reveal(request: Request) -> Reveal | None:
        headers = request.headers
        if (request.app.state.listener != "secure" or not request.app.state.engine.keys.is_internal(
                headers.get(INTERNAL_HEADER)) or headers.get(REVEAL_HEADER) not in (shape, "any")):
            return None
        return Reveal(headers.get(ACTOR_HEADER) or "capture", meta=headers.get(REVEAL_HEADER) == "any")

    return reveal


async def get_secure(request: Request) -> bool:
    """Card data sent here is kept (sealed) only on the secure listener; elsewhere it is masked at once."""
    return cast(bool, request.app.state.listener == "secure")


async def get_api_key(request: Request) -> str | None:
    return request.headers.get("api-key")


EngineDep = Annotated[Engine, Depends(get_engine)]
ActorDep = Annotated[Actor, Depends(get_actor)]
ChatActorDep = Annotated[Actor, Depends(get_chat_actor)]
ListQueryDep = Annotated[ListQuery, Depends(get_list_query)]
RevealListDep = Annotated[Reveal | None, Depends(reveal_for("list"))]
RevealEntityDep = Annotated[Reveal | None, Depends(reveal_for("entity"))]
SecureDep = Annotated[bool, Depends(get_secure)]
ApiKeyDep = Annotated[str | None, Depends(get_api_key)]
