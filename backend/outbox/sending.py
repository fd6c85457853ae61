"""One outbound POST to an address someone else chose (a webhook's callback, a channel's `ari_url`), behind the
address guard of every call out (backend/core/addresses.py: no loopback, private or link-local address unless the operator
allows them, connected to the address that was checked), with a short timeout, no redirects, and no more than
`READ_CAP` bytes read of the answer. Bodies are signed as the Standard Webhooks
specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), with the
`standardwebhooks` package, so a consumer verifies them with the same library.
"""

from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from backend.core.addresses import AddressRefused

# httpx and standardwebhooks are imported on first use: the deliverer imports this module as a console starts.

TIMEOUT = 5.0  # seconds per connect, write and read
READ_CAP = 64 * 1024  # bytes of an answer read; the rest is dropped
SECRET_PREFIX = "whsec_"
TIMED_OUT, UNREACHABLE = "timed out", "could not connect"


def new_secret() -> str:
    """A signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signature_headers(secret: str, message_id: str, body: str, at: datetime | None = None) -> dict[str, str]:
    from standardwebhooks.webhooks import Webhook

    moment = at or datetime.now(UTC)
    return {"webhook-id": message_id, "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": Webhook(secret).sign(message_id, moment, body)}


class SendFailed(Exception):
    """The destination did not take it: a refused address, no answer, or an answer that says no. `message` is what
    the delivery log keeps (the start of a receiver's answer included); `outline` is all a test call tells its
    caller, never a word of the receiver's: why the address was refused, the answer's status class, "timed out" or
    "could not connect"."""

    def __init__(self, message: str, status: int | None = None, outline: str | None = None) -> None:
        super().__init__(message)
        self.message, self.status, self.outline = message, status, outline or message


@dataclass(frozen=True)
class Answer:
    status: int
    text: str  # at most READ_CAP bytes of it, decoded leniently


class Sender:
    """A pooled client for every outbound POST of one deliverer (connections kept alive per host)."""

    def __init__(self, private_addresses: bool = False, timeout: float = TIMEOUT) -> None:
        from backend.core.outbound_client import guarded_client

        self.client = guarded_client(private_addresses, timeout=timeout, follow_redirects=False)
        self.timeout = timeout

    def post(self, url: str, body: str, headers: dict[str, str]) -> Answer:
        """POST `body`; the answer, whatever its status. SendFailed when there is none."""
        import httpx

        try:
            with self.client.stream("POST", url, content=body.encode(), headers=headers) as response:
                read, deadline = bytearray(), time.monotonic() + self.timeout * 2
                for chunk in response.iter_bytes():
                    read += chunk[:READ_CAP - len(read)]
                    if len(read) >= READ_CAP:
                        break
                    if time.monotonic() > deadline:  # a receiver trickling its answer holds a deliverer's thread
                        raise SendFailed(f"its answer took over {self.timeout * 2:g} s", outline=TIMED_OUT)
                return Answer(response.status_code, read.decode("utf-8", "replace"))
        except SendFailed:
            raise
        except AddressRefused as refused:
            raise SendFailed(f"the address {refused.problem}") from None
        except httpx.TimeoutException:
            raise SendFailed(f"no answer within {self.timeout:g} s", outline=TIMED_OUT) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL: a host name httpx cannot encode
            raise SendFailed(f"{UNREACHABLE}: {type(exc).__name__}", outline=UNREACHABLE) from None

    def close(self) -> None:
        self.client.close()
