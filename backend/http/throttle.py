"""Failed credentials (401 answers), counted so that a stranger's failures never refuse anyone else's credential,
behind the same address (a NAT, an office, a proxy) or not. The guard (backend/http/guard.py) asks and tells.

- Every 401 counts against the client and the credential it presented together: a credential that failed
  `failures_per_minute` times from a client is refused there (429) before anything else is done, until the oldest
  of those failures is a minute old. A user asking for others' objects is stopped so, and no one else.
- A 401 whose credential matched nothing (or that presented none) counts against the client alone as well: a
  client over its limit has such 401s answered 429, so that rotating credentials gains nothing. A valid
  credential from that client is still answered, and so is whatever needs no credential (health, public shopping).

The routes say which credentials matched (`accept`); a credential is what a request presents in its headers and
query string (`credential`): API and chat tokens, pci, inbound and provider keys, the card form's session. A one-time
chat token comes in a body, which the guard does not read: its failures count against the client alone.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, MutableMapping
from typing import Any, cast
from urllib.parse import parse_qsl

from backend.core.clients import MAX_KEYS, window

WINDOW = 60.0  # seconds
HEADERS = (b"authorization", b"user-api-key", b"api-key")
PARAMS = ("api_key", "session_token")
ACCEPTED = "credential_accepted"  # in the request's state: a route took its credential


class Throttle:
    def __init__(self, failures_per_minute: int, *, shared: str | None = None, workers: int = 1,
                 max_keys: int = MAX_KEYS, clock: Callable[[], float] = time.monotonic) -> None:
        """`shared`, `workers`: where the failures are counted (backend/core/clients.py)."""
        self.failures = window(failures_per_minute, WINDOW, "failed-credentials", shared=shared, workers=workers,
                               max_keys=max_keys, clock=clock)

    def refused(self, client: str, credential: str | None) -> int | None:
        """Seconds until this credential may be tried again from this client; None when it may be now."""
        return None if credential is None else self.failures.wait((client, credential))

    def failed(self, client: str, credential: str | None, *, accepted: bool) -> int | None:
        """Count a 401. Seconds to answer 429 instead, when the client or this credential is over its limit."""
        if not accepted and (wait := self.failures.hit(client)) is not None:
            return wait  # and nothing more is kept: a client over its limit costs one entry, however it rotates
        return None if credential is None else self.failures.hit((client, credential))


def credential(scope: MutableMapping[str, Any]) -> str | None:
    """A digest of the credentials a request presents in its headers and query (None without any): its failures
    are counted under it, and the credentials themselves are not kept."""
    parts = [name + b"=" + value for name, value in scope["headers"] if name in HEADERS]
    query: bytes = scope.get("query_string", b"")
    if any(name.encode() in query for name in PARAMS):
        parts += [f"{name}={value}".encode() for name, value in
                  parse_qsl(query.decode("latin-1"), keep_blank_values=True) if name in PARAMS]
    return hashlib.blake2b(b"\n".join(parts), digest_size=16).hexdigest() if parts else None


def accept(scope: MutableMapping[str, Any]) -> None:
    """A route took the request's credential: a 401 after this is about what it asked for, and counts against that
    credential alone."""
    scope.setdefault("state", {})[ACCEPTED] = True


def accepted(scope: MutableMapping[str, Any]) -> bool:
    return cast(bool, scope.get("state", {}).get(ACCEPTED, False))
