"""Engine settings. `frontdesk serve` fills in the listener URLs it actually binds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from backend.dates import utc_clock

MiB = 1024 * 1024


@dataclass(frozen=True)
class Config:
    base_url: str = "http://127.0.0.1:8000"
    secure_url: str = "http://127.0.0.1:8001"
    pci_url: str = "http://127.0.0.1:8002"
    fetch_timeout: float = 5.0  # seconds per connect/read when fetching a logo
    logo_max_bytes: int = 2 * MiB
    fetch_private_addresses: bool = False  # let logo URLs point at loopback or private networks (intranets, tests)
    max_body_bytes: int = 16 * MiB  # an attachment of 10 MiB is ~13.4 MiB in base64
    attachment_max_bytes: int = 10 * MiB
    chat_frame_ancestors: str = "*"  # CSP frame-ancestors of the web chat page: who may put it in an iframe
    vault_cvv_hours: int = 72  # a CVV is kept this long (or until wiped): enough to charge a new booking
    vault_purge_days: int = 30  # cards leave the vault this many days after departure (or after arriving)
    tokenise_max_bytes: int = 8 * MiB  # a message to tokenise, or a captured response
    capture_allow_list: tuple[str, ...] = ()
    capture_timeout: float = 30.0  # seconds per connect/read of a captured endpoint  # URL prefixes beyond the secure API that capture may fetch
    keys_path: Path | None = None  # the card key and internal secret; default <db>.keys beside the database
    clock: Callable[[], datetime] = utc_clock  # "now" for cut-off and past-date rules; tests set it
