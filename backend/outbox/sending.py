"""One outbound POST to an address someone else chose (a webhook's callback, a channel's `ari_url`), guarded as a
logo fetch is: no loopback, private or link-local address unless the operator allows them, a short timeout, no
redirects, and no more than `READ_CAP` bytes read of the answer. Bodies are signed as the Standard Webhooks
specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), with the
`standardwebhooks` package, so a consumer verifies them with the same library.
"""

from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from backend.media import private_host_error

if TYPE_CHECKING:
    import httpx

# httpx and standardwebhooks are imported on first use: the deliverer imports this module as a console starts.

TIMEOUT = 5.0  # seconds per connect, write and read
READ_CAP = 64 * 1024  # bytes of an answer read; the rest is dropped
SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signature_headers(secret: str, message_id: str, body: str, at: datetime | None = None) -> dict[str, str]:
    from standardwebhooks.webhooks import Webhook

    moment = at or datetime.now(UTC)
    return {"webhook-id": message_id, "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": Webhook(secret).sign(message_id, moment, body)}


class SendFailed(Exception):
    """The destination did not take it: a refused address, no answer, or an answer that says no."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message, self.status = message, status


@dataclass(frozen=True)
class Answer:
    status: int
    text: str  # at most READ_CAP bytes of it, decoded leniently


class Sender:
    """A pooled client for every outbound POST of one deliverer (connections kept alive per host)."""

    def __init__(self, private_addresses: bool = False, timeout: float = TIMEOUT) -> None:
        import httpx

        self.private_addresses = private_addresses
        self.client = httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False,
                                   event_hooks={"request": [self._refuse_private]})

    def _refuse_private(self, request: httpx.Request) -> None:
        problem = None if self.private_addresses else private_host_error(request.url.host)
        if problem:
            raise SendFailed(f"the address {problem}")

    def post(self, url: str, body: str, headers: dict[str, str]) -> Answer:
        """POST `body`; the answer, whatever its status. SendFailed when there is none."""
        import httpx

        try:
            with self.client.stream("POST", url, content=body.encode(), headers=headers) as response:
                read, deadline = bytearray(), time.monotonic() + self.client.timeout.read * 2
                for chunk in response.iter_bytes():
                    read += chunk[:READ_CAP - len(read)]
                    if len(read) >= READ_CAP:
                        break
                    if time.monotonic() > deadline:  # a receiver trickling its answer holds a deliverer's thread
                        raise SendFailed(f"its answer took over {self.client.timeout.read * 2:g} s")
                return Answer(response.status_code, read.decode("utf-8", "replace"))
        except SendFailed:
            raise
        except httpx.TimeoutException:
            raise SendFailed(f"no answer within {self.client.timeout.read:g} s") from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL: a host name httpx cannot encode
            raise SendFailed(f"could not connect: {type(exc).__name__}") from None

    def close(self) -> None:
        self.client.close()
