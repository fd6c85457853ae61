"""The media store: images fetched from the web (property logos) kept in the database, served by URL.

Fetching is bounded on every side: a short connect/read timeout, an overall deadline, a size cap
while streaming, and a check of the bytes themselves (a PNG must start like a PNG), so a slow,
huge or lying server gives the caller a 422 rather than a hang. Every hop connects only to an address
the guard passed (backend/core/addresses.py): no loopback or private network unless the operator allows it.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from backend.core.addresses import AddressRefused
from backend.core.errors import NotFound, ValidationFailed
from backend.properties.store import insert_media, media_content
from storage import Store, new_id, utc_now

SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}


def sniff_image(data: bytes) -> str | None:
    for content_type, signatures in SIGNATURES.items():
        if any(data.startswith(s) for s in signatures):
            if content_type == "image/webp" and data[8:12] != b"WEBP":
                continue
            return content_type
    return None


@dataclass(frozen=True)
class Fetched:
    content_type: str
    data: bytes
    source_url: str


class Media:
    def __init__(self, store: Store, base_url: str, timeout: float, max_bytes: int,
                 private_addresses: bool = False) -> None:
        self.store = store
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.private_addresses = private_addresses

    def url(self, media_id: str | None) -> str | None:
        return None if media_id is None else f"{self.base_url}/api/v1/media/{media_id}"

    def fetch_image(self, url: str, field: str) -> Fetched:
        """Download an image or raise a 422 on `field` saying why it could not be had."""
        import httpx  # here, not at the top: only a logo fetch needs it, and every console start would pay for it

        from backend.core.outbound_client import guarded_client

        deadline = time.monotonic() + self.timeout * 2
        try:  # every hop, redirects included, connects only to an address the guard passed
            with guarded_client(self.private_addresses, timeout=self.timeout, follow_redirects=True,
                                max_redirects=3) as client:
                with client.stream("GET", url, headers={"Accept": "image/*"}) as response:
                    if response.status_code != 200:
                        raise ValidationFailed.one(field, f"could not be fetched: the server answered {response.status_code}")
                    data = bytearray()
                    for chunk in response.iter_bytes():
                        data += chunk
                        if len(data) > self.max_bytes:
                            raise ValidationFailed.one(field, f"is larger than {self.max_bytes // 1024} KiB")
                        if time.monotonic() > deadline:
                            raise ValidationFailed.one(field, "could not be fetched: the server is too slow")
        except AddressRefused as refused:
            raise ValidationFailed.one(field, refused.problem) from None
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError) as exc:  # InvalidURL is no HTTPError
            raise ValidationFailed.one(field, f"could not be fetched ({type(exc).__name__})") from None
        content_type = sniff_image(bytes(data))
        if content_type is None:
            raise ValidationFailed.one(field, "is not a PNG, JPEG, GIF or WebP image")
        return Fetched(content_type, bytes(data), url)

    def insert(self, conn, fetched: Fetched) -> str:
        media_id = new_id()
        insert_media(conn, media_id, fetched.content_type, len(fetched.data), hashlib.sha256(fetched.data).hexdigest(),
                     fetched.source_url, fetched.data, utc_now())
        return media_id

    def get(self, media_id: str) -> tuple[str, bytes]:
        row = media_content(self.store, media_id)
        if row is None:
            raise NotFound("no such media")
        return row["content_type"], row["data"]
