"""Engine settings. `frontdesk serve` fills in the listeners' public addresses and where they listen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from backend.core.dates import utc_clock

MiB = 1024 * 1024


@dataclass(frozen=True)
class Config:
    # The listeners' public addresses. Every address handed to a client (logo and attachment links, the web
    # chat's embed_url) is built on these, never on a request's Host header; behind a proxy they are the
    # proxy's (`frontdesk serve --public-url` ...), else the listen addresses.
    base_url: str = "http://127.0.0.1:8000"
    secure_url: str = "http://127.0.0.1:8001"
    pci_url: str = "http://127.0.0.1:8002"
    # Where the secure listener listens, when that is not its public address: capture connects there (and takes
    # URLs under it), so the internal credential never leaves for the proxy. None: secure_url.
    secure_listen_url: str | None = None
    fetch_timeout: float = 5.0  # seconds per connect/read when fetching a logo
    logo_max_bytes: int = 2 * MiB
    # Let every call out (logos, webhooks, ARI pushes, capture's allow-listed hosts) reach loopback or private
    # networks (intranets, tests); multicast, broadcast and reserved addresses stay refused (backend/core/addresses.py).
    fetch_private_addresses: bool = False
    # An attachment upload's body: a file of 10 MiB is ~13.4 MiB in base64. Others take less (backend/http/limits.py).
    max_body_bytes: int = 14 * MiB
    attachment_max_bytes: int = 10 * MiB
    chat_frame_ancestors: str = "'none'"  # CSP frame-ancestors of the web chat page: who may put it in an iframe
    vault_cvv_hours: int = 72  # a CVV is kept this long (or until wiped): enough to charge a new booking
    vault_purge_days: int = 30  # cards leave the vault this many days after departure (or after arriving)
    tokenise_max_bytes: int = 8 * MiB  # a message to tokenise, or a captured response
    capture_allow_list: tuple[str, ...] = ()  # URL prefixes beyond the secure API that capture may fetch
    capture_timeout: float = 30.0  # seconds per connect/read of a captured endpoint
    pci_docs: bool = False  # the interactive docs (/docs) on the pci listener too; its /openapi.json is always served
    # Origins whose pages may call the shopping API and frame the card capture form from a browser (backend/http/cors.py);
    # "*" for any. Empty: none.
    cors_origins: tuple[str, ...] = ()
    # HTTP mode under load, per listener (`frontdesk serve` options): what a slow, idle or greedy client may hold.
    header_timeout: float = 10.0  # seconds to send a request's headers, from connecting or from the last answer
    # Seconds for a request's body to arrive in full, plus its declared length at body_min_rate bytes a second: a
    # booking of a few KB has about 5 s, an attachment of 14 MiB a minute.
    body_timeout: float = 5.0
    body_min_rate: int = 256 * 1024
    max_waiting_bodies: int = 10  # requests of one client whose bodies are arriving; one more is answered 429
    idle_timeout: float = 5.0  # seconds a keep-alive connection may stay silent between requests
    max_connections: int = 1000  # open connections; one more is answered 503 and closed
    max_requests: int = 100  # requests in progress, but for bodies arriving; one more is answered 503, never queued
    # 401 answers in a minute to one client and credential, or to one client for credentials that match nothing,
    # before they are answered 429 (all listeners; backend/http/throttle.py).
    failed_auth_per_minute: int = 20
    # Proxies whose X-Forwarded-For names the client (addresses or networks, uvicorn's forwarded_allow_ips). None by
    # default: any local process could otherwise name its own address.
    forwarded_allow_ips: tuple[str, ...] = ()
    # Events out (backend/outbox/deliverer.py): attempts at one event before its destination is marked failing, and
    # the first retry's wait in seconds (doubled each time).
    delivery_max_attempts: int = 8
    delivery_backoff: float = 1.0
    webhook_tests_per_minute: int = 10  # test calls one user may start a minute (backend/webhooks/trials.py)
    # Where the limits above count (backend/core/clients.py): a Redis that every worker and host shares (redis://…), or
    # None: each process's memory, each limit divided by the `workers` of `frontdesk serve --workers N`.
    limits_storage: str | None = None
    workers: int = 1
    # Hot standbys of a PostgreSQL primary (postgresql://… URLs) that the shopping API reads from while each is no
    # more than `replica_lag_bound` seconds behind (storage/replicas.py); else, and for every write, the primary.
    read_dbs: tuple[str, ...] = ()
    replica_lag_bound: float = 1.0
    # The PostgreSQL server's own URL when the database's URL is a pooler's (PgBouncer in transaction mode): what
    # needs a session of its own (the lease, the migrations' lock) goes there (storage/postgres.py).
    db_direct: str | None = None
    keys_path: Path | None = None  # the card key and internal secret; default <db>.keys beside the database
    clock: Callable[[], datetime] = utc_clock  # "now" for cut-off and past-date rules; tests set it

    def public_url(self, listener: str) -> str:
        """The public address of the listener `main`, `secure` or `pci`."""
        return {"main": self.base_url, "secure": self.secure_url, "pci": self.pci_url}[listener]

    @property
    def capture_url(self) -> str:
        """Where capture reaches the secure listener."""
        return self.secure_listen_url or self.secure_url
