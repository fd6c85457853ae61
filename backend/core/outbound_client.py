"""The HTTP client of every call out to an address someone else chose, behind the address guard (backend/core/addresses.py).

Each connection resolves its host once, checks every address it got, and connects to a checked one: the name is never
resolved a second time, so a DNS answer that changes in between (rebinding) reaches nothing. The request keeps the
host name for its `Host` header, and TLS its SNI and certificate check (httpcore starts TLS on the origin's name,
whatever address the stream was opened to). A redirect followed opens a connection of its own, checked the same way.
A refused address raises AddressRefused out of the client's call, before anything is sent.

Imported on first use (httpx is a tenth of a second the console's start does without).
"""

from __future__ import annotations

from typing import Any

import httpcore
import httpx

from backend.core.addresses import checked


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's own sockets, opened only to an address the guard passed."""

    def __init__(self, private_allowed: bool) -> None:
        self.private_allowed = private_allowed

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> httpcore.NetworkStream:
        try:
            addresses = checked(host, port, self.private_allowed)
        except (OSError, UnicodeError) as exc:  # AddressRefused is neither: it leaves the client as it is
            raise httpcore.ConnectError(f"{host} does not resolve") from exc
        for address in addresses[:-1]:  # each in turn, as socket.create_connection tries a name's addresses
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout):
                continue
        return super().connect_tcp(addresses[-1], port, timeout, local_address, socket_options)


class GuardedTransport(httpx.HTTPTransport):
    def __init__(self, private_allowed: bool) -> None:
        super().__init__(trust_env=False)  # no proxy from the environment: the guard judges where we connect
        # httpx takes no network backend of its own (encode/httpx#3749): its pool is made again with ours.
        self._pool = httpcore.ConnectionPool(ssl_context=httpx.create_ssl_context(trust_env=False),
                                             max_connections=100, max_keepalive_connections=20,  # httpx's defaults
                                             keepalive_expiry=5.0, network_backend=GuardedBackend(private_allowed))


def guarded_client(private_allowed: bool, **options: Any) -> httpx.Client:
    """An httpx.Client whose every connection goes through the address guard; `options` as httpx.Client takes them
    (timeout, redirects, event hooks)."""
    return httpx.Client(transport=GuardedTransport(private_allowed), trust_env=False, **options)
