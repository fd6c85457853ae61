"""CORS for what a booking engine on another site calls from its visitors' browsers, and nothing else.

The shopping API (`/api/v1/meta/...`) and the card capture form (`/api/v1/capture_form...`) answer the origins the
operator allows (`frontdesk serve --cors-origin https://book.hotel.example`, repeatable; `*` for any, which suits a
public shopping channel). The service's booking engine sends `Content-Type: application/json` even on GETs, so its
browser asks first (a preflight `OPTIONS`): that is answered here, before any route, with no credential needed.
Every other path stays same-origin: no CORS header, and `OPTIONS` stays a 405.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

PATHS = ("/api/v1/meta/", "/api/v1/capture_form")
METHODS = b"GET, POST, OPTIONS"
HEADERS = b"Accept, Content-Type, api-key"  # what the booking engine sends, and a channel's provider key
MAX_AGE = b"600"  # seconds a browser may keep a preflight's answer
# An origin as a browser serialises it: scheme, a host name of letters, digits, hyphens and dots (an international
# name in its xn-- form) or a bracketed IPv6 literal, and a port. Nothing else: an origin goes into the card form's
# Content-Security-Policy, where a `;`, `,` or quote would add directives or sources of its own.
ORIGIN = re.compile(r"(https?)://(?:([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)"
                    r"|\[([0-9a-f:.]+)\])(?::([0-9]{1,5}))?")
DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(value: str) -> str | None:
    """`value` as the Origin header a browser sends for that site (lower case, no default port), or None when it is
    no origin. `*` stays `*`."""
    if value == "*":
        return value
    found = ORIGIN.fullmatch(value.lower())
    if found is None:
        return None
    scheme, name, literal, port = found.groups()
    if literal is not None:
        try:
            literal = ipaddress.IPv6Address(literal).compressed
        except ValueError:
            return None
    if port is not None and not 0 < int(port) <= 65535:
        return None
    shown_port = "" if port is None or int(port) == DEFAULT_PORTS[scheme] else f":{int(port)}"
    return f"{scheme}://{name if literal is None else f'[{literal}]'}{shown_port}"


class Cors:
    def __init__(self, origins: Iterable[str]) -> None:
        self.origins = frozenset(origins)

    def allows(self, path: str, origin: bytes | None) -> bytes | None:
        """The Access-Control-Allow-Origin a request from `origin` gets on `path`, or None."""
        if origin is None or not self.origins or not path.startswith(PATHS):
            return None
        if "*" in self.origins:
            return b"*"
        return origin if origin.decode("latin-1") in self.origins else None

    @staticmethod
    def headers(allowed: bytes) -> list[tuple[bytes, bytes]]:
        return [(b"access-control-allow-origin", allowed), (b"vary", b"Origin")]

    @staticmethod
    def preflight(allowed: bytes) -> list[tuple[bytes, bytes]]:
        return [*Cors.headers(allowed), (b"access-control-allow-methods", METHODS),
                (b"access-control-allow-headers", HEADERS), (b"access-control-max-age", MAX_AGE)]
