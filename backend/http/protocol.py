"""uvicorn's h11 protocol with the two defences it lacks: a deadline for a request's headers, and a cap on
open connections. Without them a client that connects and sends nothing, or sends its headers a byte at a
time, holds a connection forever (uvicorn's keep-alive timer starts only after an answer, and any byte
restarts it)."""

from __future__ import annotations

import asyncio
import json

from uvicorn.protocols.http.h11_impl import H11Protocol

from backend.core.config import Config
from backend.core.errors import ServiceUnavailable
from backend.http.guard import BUSY_RETRY_AFTER, DEFAULT_HEADERS

LINGER = 1.0  # seconds a turned-away connection stays open for its client to read the answer


def _turned_away() -> bytes:
    """A raw 503 in the error shape: it is written before the request is read, so no app is involved."""
    body = json.dumps(ServiceUnavailable(BUSY_RETRY_AFTER, ["too many connections; try again shortly"]).body())
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"retry-after", str(BUSY_RETRY_AFTER).encode()), *DEFAULT_HEADERS, (b"connection", b"close")]
    head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return b"HTTP/1.1 503 Service Unavailable\r\n" + head + b"\r\n" + body.encode()


TURNED_AWAY = _turned_away()


class GuardedH11Protocol(H11Protocol):
    header_timeout: float = Config.header_timeout
    max_connections: int = Config.max_connections
    header_timer: asyncio.TimerHandle | None = None
    turned_away = False

    @classmethod
    def limited(cls, header_timeout: float, max_connections: int) -> type[GuardedH11Protocol]:
        """The protocol of one listener (uvicorn makes one instance per connection from the class)."""
        return type(cls.__name__, (cls,), {"header_timeout": header_timeout, "max_connections": max_connections})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn's is one
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._turn_away()
        else:
            self._await_headers()

    def data_received(self, data: bytes) -> None:
        if self.turned_away:
            return  # read and dropped: the answer is already on its way
        super().data_received(data)
        if self.header_timer is not None and self._in_request():
            self.header_timer.cancel()
            self.header_timer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self._in_request():  # no pipelined request already under way
            self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        super().connection_lost(exc)

    def _in_request(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _await_headers(self) -> None:
        """The next request's headers must be complete within `header_timeout`, however they trickle in."""
        if self.header_timer is not None:
            self.header_timer.cancel()
        self.header_timer = self.loop.call_later(self.header_timeout, self.transport.close)

    def _turn_away(self) -> None:
        """Answer 503 at once and close; the client's request is read and dropped meanwhile, so that closing
        with it unread does not reset the connection before the client has read the answer."""
        self.turned_away = True
        self.transport.write(TURNED_AWAY)
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)
