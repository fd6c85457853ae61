"""The one ASGI layer in front of every route: pure ASGI, and one class doing everything in a single pass
rather than a stack of five (each layer costs a call and closures on every request).

- Throttle (backend/http/throttle.py): a credential that failed too often from a client is answered 429 before
  anything else is done; a client with too many failures of credentials that matched nothing has its 401s
  answered 429. Nobody else is slowed, and a valid credential never refused for others' failures.
- Load: more than `max_requests` in progress on the listener is a 503, never a queue.
- Bodies: each route's limit (backend/http/limits.py) while the body streams in (413), within `body_timeout`
  seconds and what its length takes at `body_min_rate` (408); a large body waits briefly for one of the process's
  large-body slots (503). A request waiting for its body is not in progress: slow senders, who cost a socket and
  what they sent, can't fill `max_requests` and lock everyone out; one client may have `max_waiting_bodies` (429).
- Headers: JSON answers are not to be cached or sniffed; HSTS over TLS.
- Paths: a trailing slash is dropped, so `/api/v1/properties/` is `/api/v1/properties`, as the service answers
  it; never a redirect, whose address would be built from the Host header.
- Failures: the database out of reach (a restart, a lost network) is a 503 with Retry-After, which a client tries
  again; any other exception no handler took is a 500 in the error shape, and only its type and the route
  template are logged — its text, its traceback or the path could quote request data. A client that
  went away is not an error.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from urllib.parse import parse_qsl

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.core.clients import client_of
from backend.core.config import Config
from backend.core.errors import (
    BadRequest,
    FrontdeskError,
    PayloadTooLarge,
    RequestTimeout,
    ServiceUnavailable,
    TooManyRequests,
)
from backend.core.keys import INTERNAL_HEADER
from backend.http.cors import Cors
from backend.http.errors import error_response
from backend.http.limits import DEFAULT_BYTES, LARGE_BYTES, LargeBodies, body_limits
from backend.http.throttle import Throttle, accepted, credential
from storage import unreachable

log = logging.getLogger("frontdesk.http")

# What every answer carries unless its route says otherwise (media are public, for a day).
DEFAULT_HEADERS = ((b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff"))
HSTS = (b"strict-transport-security", b"max-age=31536000")
CLOSE = (b"connection", b"close")
BUSY_RETRY_AFTER = 1  # seconds: a request in progress takes milliseconds


class Gate:
    """What the listeners of one process share: failed-credential counts and the large-body slots."""

    def __init__(self, failed_auth_per_minute: int, large_bodies: LargeBodies | None = None, *,
                 shared: str | None = None, workers: int = 1) -> None:
        self.throttle = Throttle(failed_auth_per_minute, shared=shared, workers=workers)
        self.large_bodies = large_bodies or LargeBodies()

    @classmethod
    def of(cls, config: Config) -> Gate:
        return cls(config.failed_auth_per_minute, shared=config.limits_storage, workers=config.workers)


class Guard:
    def __init__(self, app: ASGIApp, *, config: Config, gate: Gate,
                 is_internal: Callable[[str], bool] | None = None) -> None:
        self.app = app
        self.gate = gate
        self.limits = body_limits(config)
        self.body_timeout = config.body_timeout
        self.body_min_rate = config.body_min_rate
        self.max_requests = config.max_requests
        self.max_waiting_bodies = config.max_waiting_bodies
        self.cors = Cors(config.cors_origins)
        self.in_flight = 0  # requests in progress, but for those waiting for their bodies
        self.waiting: dict[str, int] = {}  # requests waiting for their bodies, per client
        # The tokenisation service calls the secure listener from this very host on behalf of its own callers:
        # its requests are neither counted nor throttled (the pci listener counts its callers' failures).
        self.is_internal = is_internal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope = _without_trailing_slash(scope)
        exchange = _Exchange(self, scope, receive, send)
        refusal = self._refusal(exchange)
        if refusal is not None:
            await exchange.answer(refusal)
            return
        if exchange.cors is not None and scope["method"] == "OPTIONS":  # a browser asking before it calls
            await exchange.send({"type": "http.response.start", "status": 204,
                                 "headers": Cors.preflight(exchange.cors)})
            await exchange.send({"type": "http.response.body", "body": b""})
            return
        self.in_flight += 1
        try:
            await self.app(scope, exchange.receive, exchange.send)
        except FrontdeskError as error:  # the guard's own, from `receive`, if the app let one through unanswered
            await exchange.answer(error)
        except (ClientDisconnect, asyncio.CancelledError):
            log.debug("client went away on %s %s", scope["method"], _route(scope))
        except Exception as error:
            if unreachable(error):  # the database restarting or out of reach: worth trying again, not a fault here
                log.warning("database unreachable on %s %s", scope["method"], _route(scope))
                await exchange.answer(ServiceUnavailable(1, ["the database can't be reached just now; try again"]))
            else:
                log.error("unexpected %s on %s %s", type(error).__name__, scope["method"], _route(scope))
                await exchange.answer(FrontdeskError())
        finally:
            self.body_ends(exchange)
            self.in_flight -= 1
            if exchange.slot:
                self.gate.large_bodies.release()

    def _refusal(self, exchange: _Exchange) -> FrontdeskError | None:
        if (where := _nul_in(exchange.scope)) is not None:
            return BadRequest([f"{where} holds a NUL character (%00), which names nothing here"])
        retry_after = self.gate.throttle.refused(exchange.client, exchange.credential)
        if retry_after is not None and not self._internal(exchange.scope):
            return TooManyRequests(retry_after)
        if self.in_flight >= self.max_requests:
            return ServiceUnavailable(BUSY_RETRY_AFTER, ["too many requests in progress; try again shortly"])
        return None

    def body_awaited(self, exchange: _Exchange) -> None:
        """The request waits for its body: it leaves the requests in progress for its client's bodies arriving."""
        waiting = self.waiting.get(exchange.client, 0)
        if waiting >= self.max_waiting_bodies:
            exchange.close = True
            raise TooManyRequests(BUSY_RETRY_AFTER, ["too many request bodies from this address are arriving; "
                                                     "try again shortly"])
        self.waiting[exchange.client] = waiting + 1
        self.in_flight -= 1
        exchange.waiting = True

    def body_ends(self, exchange: _Exchange) -> None:
        """Its body is in (or will never be): the request is in progress again."""
        if exchange.waiting:
            exchange.waiting = False
            if (left := self.waiting.pop(exchange.client) - 1) > 0:
                self.waiting[exchange.client] = left
            self.in_flight += 1

    def failed(self, exchange: _Exchange) -> FrontdeskError | None:
        """A 401 is counted; the 429 to answer instead, if the client or its credential is over its limit."""
        if self._internal(exchange.scope):
            return None
        retry_after = self.gate.throttle.failed(exchange.client, exchange.credential, accepted=accepted(exchange.scope))
        return None if retry_after is None else TooManyRequests(retry_after)

    def _internal(self, scope: Scope) -> bool:
        if self.is_internal is None:
            return False
        name = INTERNAL_HEADER.lower().encode()
        return any(key == name and self.is_internal(value.decode("latin-1")) for key, value in scope["headers"])


class _Exchange:
    """One request and its answer, as the guard sees them."""

    __slots__ = ("guard", "scope", "_receive", "_send", "client", "credential", "started", "replaced", "close", "limit",
                 "declared", "received", "body_done", "waiting", "slot", "since", "cors")

    def __init__(self, guard: Guard, scope: Scope, receive: Receive, send: Send) -> None:
        self.guard = guard
        self.scope = scope
        self._receive = receive
        self._send = send
        address = scope.get("client")
        self.client = client_of(address[0] if address else "")  # a proxy's client, if it is trusted (server.py)
        self.credential = credential(scope)
        self.started = False
        self.replaced = False  # the app's answer is being dropped for the guard's
        self.close = False  # the body was refused part-read: the connection must not carry another request
        self.limit = 0  # the route's, known once it reads its body
        self.declared = 0  # its Content-Length
        self.received = 0
        self.body_done = False
        self.waiting = False  # for its body, counted apart from the requests in progress
        self.slot = False
        self.since = time.monotonic()
        # The Access-Control-Allow-Origin this request's answer carries: only where the operator allowed CORS.
        self.cors = guard.cors.allows(scope["path"], next(
            (value for name, value in scope["headers"] if name == b"origin"), None)) if guard.cors.origins else None

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            if message["status"] == 401 and (refusal := self.guard.failed(self)) is not None:
                await self.answer(refusal)
                self.replaced = True
                return
            self.started = True
            message = {**message, "headers": self._headers(message.get("headers", ()))}
        elif self.replaced:
            return
        try:
            await self._send(message)
        except OSError:
            raise ClientDisconnect() from None

    def _headers(self, headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        names = {name for name, _ in headers}
        extra = [header for header in DEFAULT_HEADERS if header[0] not in names]
        if self.cors is not None and b"access-control-allow-origin" not in names:
            extra += Cors.headers(self.cors)
        if self.scope["scheme"] == "https":
            extra.append(HSTS)
        if self.close:
            extra.append(CLOSE)
        return [*headers, *extra]

    async def receive(self) -> Message:
        if self.body_done:
            return await self._receive()
        if not self.limit:
            await self._body_begins()
        # Its time grows with its length: a chunked body's with what has come, so a trickle is cut off all the same.
        allowed = self.guard.body_timeout + max(self.declared, self.received) / self.guard.body_min_rate
        try:
            async with asyncio.timeout(self.since + allowed - time.monotonic()):
                message = await self._receive()
        except TimeoutError:
            self.close = True
            raise RequestTimeout([f"the body did not arrive within {allowed:.1f} seconds"]) from None
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            await self._check_size(self.received)
            self.body_done = not message.get("more_body", False)
            if self.body_done:
                self.guard.body_ends(self)
        return message

    async def _body_begins(self) -> None:
        """The route is known now: its limit applies, first to the length the client declared."""
        self.guard.body_awaited(self)
        path: str | None = getattr(self.scope.get("route"), "path", None)
        self.limit = self.guard.limits.get(path, DEFAULT_BYTES) if path is not None else DEFAULT_BYTES
        for name, value in self.scope["headers"]:
            if name == b"content-length":
                self.declared = int(value)  # h11 has checked that it is a number
                await self._check_size(self.declared)

    async def _check_size(self, size: int) -> None:
        if size > self.limit:
            self.close = True
            raise PayloadTooLarge(f"the body exceeds {self.limit} bytes")
        if size > LARGE_BYTES and not self.slot:
            self.slot = await self.guard.gate.large_bodies.take()
            if not self.slot:
                self.close = True
                raise ServiceUnavailable(BUSY_RETRY_AFTER, ["too many large requests in progress; try again shortly"])

    async def answer(self, error: FrontdeskError) -> None:
        """The error shape, unless an answer has begun (then the connection is closed with it unfinished)."""
        if not self.started:
            await error_response(error)(self.scope, self._receive, self.send)


def _without_trailing_slash(scope: Scope) -> Scope:
    path = scope["path"]
    if len(path) < 2 or not path.endswith("/"):
        return scope
    trimmed = {**scope, "path": path.rstrip("/") or "/"}
    if scope.get("raw_path"):
        trimmed["raw_path"] = scope["raw_path"].rstrip(b"/") or b"/"
    return trimmed


def _nul_in(scope: Scope) -> str | None:
    """Where a NUL is in the address (written %00), if anywhere: it names nothing here, and PostgreSQL can neither
    store nor compare it. The parameter is named, never quoted."""
    if "\0" in scope["path"]:
        return "the path"
    query = scope["query_string"]
    if b"%00" not in query and b"\0" not in query:
        return None
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if "\0" in name or "\0" in value:
            return f"the parameter {name.replace(chr(0), '')[:64]!r}"
    return "the query"


def _route(scope: Scope) -> str:
    """The matched route's template (`/api/v1/properties/{property_id}`): never the path, which is request data."""
    return getattr(scope.get("route"), "path", None) or "(no route)"
