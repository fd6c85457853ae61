"""Capture: fetch a secure endpoint of the main API through the vault, so that what comes back holds
tokens where the cards were.

Not an open proxy. Only GET; only URLs under the secure listener's base address (or under a prefix
the operator allow-listed, reached behind the address guard of every call out: backend/core/addresses.py);
no user info, no redirects followed; the answer is capped in size.
The caller's main-API credential is forwarded as it came. The internal credential, which makes the
secure listener answer with cards in clear, goes only to the secure listener itself, with the shape of
answer the profile reads (so `frontdesk_entity` on a list reveals nothing) and the capturing key for
the vault's audit log. Whatever comes back — tokenised, or an error passed through — is scanned for
card data in clear last: anything the profile did not cut out makes the answer a 502 that quotes
nothing of it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, unquote, urlsplit

from pydantic_core import from_json

from backend.core.addresses import AddressRefused
from backend.core.card_data import card_data_left, json_named_values
from backend.core.errors import Errors, FrontdeskError, PayloadTooLarge, ValidationFailed
from backend.core.keys import ACTOR_HEADER, INTERNAL_HEADER, REVEAL_HEADER
from backend.vault.builtin import REVEALS
from backend.vault.service import Tokenisation
from backend.vault.tokenise import CardDataLeft, Tokenised

if TYPE_CHECKING:
    import httpx
# httpx is imported on first capture: the console imports this module as its Tokenisation area first opens.

FORWARDED = ("authorization", "user-api-key")  # the main API's own credentials
CARD_LEFT = "the captured answer holds {} that the profile does not cut out; nothing of it is returned"


class BadGateway(FrontdeskError):
    status, code, title = 502, "bad_gateway", "Bad Gateway"


class Unreachable(BadGateway):
    """Nothing answered at the captured address (the same 502 to an HTTP caller)."""


@dataclass(frozen=True)
class CaptureTarget:
    """Where a capture reaches the secure listener, and how that was learnt: `option`, given to this process;
    `server`, recorded by the `frontdesk serve` running on the database."""

    url: str
    source: str


@dataclass(frozen=True)
class Captured:
    """What the caller gets: the target's own status, the tokenised body and the vault's headers."""

    status: int
    body: bytes
    media_type: str
    tokenised: Tokenised | None  # None when the target answered with an error, passed through


class Capture:
    def __init__(self, tokenisation: Tokenisation, secure_url: str, allow_list: tuple[str, ...],
                 internal_secret: Callable[[], str], timeout: float, max_bytes: int, private_addresses: bool) -> None:
        self.tokenisation = tokenisation
        self.secure_url = secure_url
        self.allow_list = allow_list
        self.internal_secret = internal_secret
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.private_addresses = private_addresses  # may an allow-listed host resolve to a private address

    def capture(self, *, profile: str | None, method: str | None, url: str | None, headers: dict[str, str],
                actor: str) -> Captured:
        internal = self._check(profile, method, url)
        compiled = self.tokenisation.compiled(profile or "")  # an unknown profile: 422 before fetching
        forwarded = {name: value for name, value in headers.items() if name.lower() in FORWARDED}
        if internal:
            forwarded.update({INTERNAL_HEADER: self.internal_secret(), REVEAL_HEADER: REVEALS.get(compiled.name, "any"),
                              ACTOR_HEADER: actor})
        status, body, media_type = self._fetch(self._client if internal else self._guarded, url or "", forwarded)
        if status != 200:
            return _passed_through(status, body)
        try:
            tokenised = self.tokenisation.tokenise(compiled, body, actor, cvvs_from_vault=internal)
        except CardDataLeft as left:
            raise BadGateway([CARD_LEFT.format(left.kind)]) from None
        return Captured(200, tokenised.body, media_type, tokenised)

    @cached_property
    def _client(self) -> httpx.Client:
        """One pooled client for every capture: making one loads the CA bundle, ~20 ms, and each capture
        would open a new connection. Redirects are not followed: they could lead off the allowed URLs."""
        import httpx

        return httpx.Client(timeout=self.timeout, follow_redirects=False)

    @cached_property
    def _guarded(self) -> httpx.Client:
        """The client for allow-listed hosts: a name the operator trusted may still resolve anywhere."""
        from backend.core.outbound_client import guarded_client

        return guarded_client(self.private_addresses, timeout=self.timeout, follow_redirects=False)

    def _check(self, profile: str | None, method: str | None, url: str | None) -> bool:
        """Every problem with the request at once; whether the URL is the secure listener's."""
        errors = Errors()
        if not profile:
            errors.add("profile", "is required")
        if (method or "").lower() != "get":
            errors.add("method", "must be get: capture only reads")
        internal = False
        if not url:
            errors.add("url", "is required")
        elif not _plain(url):
            errors.add("url", "must be one address, without spaces or control characters (URL-encode them)")
        elif (target := _parsed(url)) is None:
            errors.add("url", "is not a valid address")
        else:
            internal = _under(target, self.secure_url)
            if not internal and not any(_under(target, prefix) for prefix in self.allow_list):
                errors.add("url", "must be an address under the secure API (or the operator's allow-list)")
        errors.raise_if_any()
        return internal

    def _fetch(self, client: httpx.Client, url: str, headers: dict[str, str]) -> tuple[int, bytes, str]:
        import httpx

        try:
            with client.stream("GET", url, headers=headers) as response:
                body = bytearray()
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > self.max_bytes:
                        raise PayloadTooLarge(f"the captured answer is larger than {self.max_bytes} bytes")
                return response.status_code, bytes(body), response.headers.get("content-type", "")
        except AddressRefused as refused:
            raise ValidationFailed.one("url", f"its host {refused.problem}") from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise Unreachable([f"the captured endpoint could not be reached ({type(exc).__name__})"]) from None


def _plain(url: str) -> bool:
    """Printable ASCII without spaces, as an encoded address is: a CR or LF could split the request."""
    return url.isascii() and url.isprintable() and " " not in url


def _parsed(url: str) -> SplitResult | None:
    """The URL's parts, or None when it has none: a bracket left open, a host in brackets that is no IP
    address, a port that is not a number (urlsplit and its `port` raise ValueError)."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # read for its check: a port that is no number raises
    except ValueError:
        return None
    return parts


def _under(target: SplitResult, base: str) -> bool:
    """Whether `target` is at or below `base`: same scheme, host and port, and a path inside base's path
    once dot segments are resolved (so `/api/v1/../admin` is not under `/api/v1`)."""
    root = urlsplit(base)
    if target.scheme not in ("http", "https") or "@" in target.netloc or target.fragment:
        return False
    if (target.scheme, target.hostname, _port(target)) != (root.scheme, root.hostname, _port(root)):
        return False
    path = unquote(target.path) or "/"
    normal = posixpath.normpath(path) + ("/" if path.endswith("/") else "")
    if normal != path and normal.rstrip("/") != path.rstrip("/"):
        return False
    prefix = root.path.rstrip("/") + "/"
    return (normal.rstrip("/") + "/").startswith(prefix)


def _port(parts: SplitResult) -> int | None:
    try:
        return parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:  # only the operator's own prefixes get here unchecked
        return None


def _passed_through(status: int, body: bytes) -> Captured:
    """The main API's own error (401 wrong token, 404 unknown booking) goes back as it was: it holds
    no card. Anything else that is not a 200 becomes a 502 of our own."""
    try:
        parsed = from_json(body)
    except ValueError:
        parsed = None
    if 400 <= status < 500 and isinstance(parsed, dict) and set(parsed) == {"errors"}:
        left = card_data_left(body.decode("utf-8", "replace"), lambda: json_named_values(parsed))
        if left is not None:
            raise BadGateway([CARD_LEFT.format(left)])
        return Captured(status, body, "application/json", None)
    raise BadGateway([f"the captured endpoint answered {status}"])
