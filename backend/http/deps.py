"""What every route needs: the engine, the acting user, the unwrapped request entity, the list query."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from pydantic import BaseModel
from pydantic_core import from_json

from backend.engine import Engine
from backend.errors import BadRequest
from backend.identity import Actor
from backend.listing import ListQuery

# The dependencies are `async` on purpose: FastAPI runs a sync dependency in the threadpool, and that
# round trip costs more than the work (measured: ~0.2-0.4 ms CPU a hop against microseconds here).


async def get_engine(request: Request) -> Engine:
    return request.app.state.engine


async def get_actor(request: Request) -> Actor:
    """`Authorization: Bearer <token>`, or the header `user-api-key: <token>`.

    The token lookup runs on the event loop: one indexed read, well under 0.1 ms, that WAL never
    makes wait for a writer."""
    return request.app.state.engine.identity.authenticate(_token(request))


async def get_chat_actor(request: Request) -> Actor:
    """As get_actor, but a web chat session token is good too: the chat routes take this one."""
    return request.app.state.engine.identity.authenticate(_token(request), chat=True)


def _token(request: Request) -> str | None:
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return request.headers.get("user-api-key")


async def get_list_query(request: Request) -> ListQuery:
    return ListQuery.from_params(request.query_params.multi_items())


def envelope(name: str) -> Callable[[Request], Awaitable[Any]]:
    """A dependency that reads the body `{"<name>": {...}}` and returns the inner object.

    Malformed JSON, a body that is not an object or a missing envelope is a 400; what is inside
    is validated by the engine, once, exactly as for the console.
    """

    async def read(request: Request) -> Any:
        raw = await request.body()
        try:
            # pydantic-core, not json.loads: it also refuses escaped lone surrogates ("\ud800"), which are
            # not text and so could be neither stored nor sent, and nesting deeper than 200 levels.
            body = from_json(raw) if raw else None
        except ValueError:
            raise BadRequest(["the body is not valid JSON"]) from None
        if not isinstance(body, dict) or name not in body:
            raise BadRequest([f'the body must be a JSON object {{"{name}": {{...}}}}'])
        return body[name]

    return read


def body_doc(envelope: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI for a body that `envelope` reads by hand; its schema is added to the components."""
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{envelope.__name__}"}}}}}


INTERNAL_HEADER = "x-frontdesk-internal"


async def get_reveal(request: Request) -> bool:
    """Whether card data may leave in clear: only on the secure listener, and only to the tokenisation
    service, which proves itself with the internal secret kept beside the database."""
    return (request.app.state.listener == "secure"
            and request.app.state.engine.keys.is_internal(request.headers.get(INTERNAL_HEADER)))


async def get_secure(request: Request) -> bool:
    """Card data sent here is kept (sealed) only on the secure listener; elsewhere it is masked at once."""
    return request.app.state.listener == "secure"


async def get_api_key(request: Request) -> str | None:
    return request.headers.get("api-key")


EngineDep = Annotated[Engine, Depends(get_engine)]
ActorDep = Annotated[Actor, Depends(get_actor)]
ChatActorDep = Annotated[Actor, Depends(get_chat_actor)]
ListQueryDep = Annotated[ListQuery, Depends(get_list_query)]
RevealDep = Annotated[bool, Depends(get_reveal)]
SecureDep = Annotated[bool, Depends(get_secure)]
ApiKeyDep = Annotated[str | None, Depends(get_api_key)]
