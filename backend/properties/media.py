"""The media store: images fetched from the web (property logos) or uploaded (POST /photos/upload) kept in the
database, served by URL.

Fetching is bounded on every side: a short connect/read timeout, an overall deadline, a size cap
while streaming, and a check of the bytes themselves (a PNG must start like a PNG), so a slow,
huge or lying server gives the caller a 422 rather than a hang. Every hop connects only to an address
the guard passed (backend/core/addresses.py): no loopback or private network unless the operator allows it.

An upload is an image whose bytes say it is one (PNG, JPEG, GIF or WebP), at most the attachments' size. Its url is
for a photo (backend/inventory/photos.py): an upload that no photo shows a day after it came (UPLOAD_KEPT), or once
the last photo showing it is gone after that, is pruned by the housekeeping (`prune_uploads`).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from backend.core.addresses import AddressRefused
from backend.core.errors import NotFound, PayloadTooLarge, ValidationFailed
from backend.properties.store import delete_unused_uploads, insert_media, media_content
from storage import Connection, Store, new_id, utc_now

UPLOAD_KEPT = timedelta(days=1)  # how long an upload waits for a photo to show it

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
    source_url: str | None  # None: uploaded


class Media:
    """`max_bytes`: of a fetched logo; `upload_max_bytes`: of an uploaded photo."""

    def __init__(self, store: Store, base_url: str, timeout: float, max_bytes: int,
                 private_addresses: bool = False, upload_max_bytes: int = 10 * 1024 * 1024) -> None:
        self.store = store
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.private_addresses = private_addresses
        self.upload_max_bytes = upload_max_bytes

    def url(self, media_id: str | None) -> str | None:
        return None if media_id is None else f"{self.base_url}/api/v1/media/{media_id}"

    def id_of(self, url: str) -> str | None:
        """The media a url of ours names (a photo showing an upload), else None."""
        prefix = f"{self.base_url}/api/v1/media/"
        return url[len(prefix):] if url.startswith(prefix) and len(url) > len(prefix) else None

    def upload(self, data: bytes) -> str:
        """Keep an uploaded image; its url. 413 beyond the size, 422 unless the bytes are an image."""
        if len(data) > self.upload_max_bytes:
            raise PayloadTooLarge([f"a photo may be at most {self.upload_max_bytes // (1024 * 1024)} MiB"])
        content_type = sniff_image(data)
        if content_type is None:
            raise ValidationFailed.one("photo", "is not a PNG, JPEG, GIF or WebP image")
        with self.store.transaction() as conn:
            media_id = self.insert(conn, Fetched(content_type, data, None))
        return cast(str, self.url(media_id))  # an id has its url

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

    def insert(self, conn: Connection, fetched: Fetched) -> str:
        media_id = new_id()
        insert_media(conn, media_id, fetched.content_type, len(fetched.data), hashlib.sha256(fetched.data).hexdigest(),
                     fetched.source_url, fetched.data, utc_now())
        return media_id

    def get(self, media_id: str) -> tuple[str, bytes]:
        row = media_content(self.store, media_id)
        if row is None:
            raise NotFound("no such media")
        return row["content_type"], row["data"]


def prune_uploads(store: Store, now: datetime) -> None:
    """Uploads older than UPLOAD_KEPT that no photo shows (a housekeeping sweep, backend/outbox/deliverer.py)."""
    before = (now - UPLOAD_KEPT).replace(tzinfo=None).isoformat(timespec="microseconds")
    with store.transaction() as conn:
        delete_unused_uploads(conn, before)
