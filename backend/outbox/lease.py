"""Who runs the deliverer: the holder of the store's lease `deliverer` (storage: a lease row beside a SQLite file, an
advisory lock on PostgreSQL, the housekeeping lock). `frontdesk serve` takes it from anyone but another live server;
the console takes it only when nobody holds it. A holder renews it well before it expires; one that stops (a crash,
`kill -9`) loses it. On SQLite the holder alone delivers; on PostgreSQL every `serve` delivers, each destination
claimed through the lease while it is served, and the holder alone runs the sweeps and the prune.

A server that holds the lease also records with it where its listeners are, so that a console on the same database
can reach them (the tester's capture). The record is trusted only while its server holds the lease.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from storage import Lease, Store

TTL = 15.0  # seconds a lease lasts unrenewed
NAME = "deliverer"


@dataclass(frozen=True)
class ServerAddresses:
    """Where the listeners of a `frontdesk serve` listen, and their public addresses when it was given them."""

    main: str
    secure: str
    pci: str
    public_main: str | None = None
    public_secure: str | None = None
    public_pci: str | None = None


def deliverer_lease(store: Store, kind: str, addresses: ServerAddresses | None = None) -> Lease:
    return store.lease(NAME, kind, ttl=TTL, record=asdict(addresses) if addresses else None)


def running_server(store: Store) -> ServerAddresses | None:
    """The addresses of the `frontdesk serve` that holds the lease now, if one does."""
    record = store.leased_record(NAME)
    try:
        return ServerAddresses(**record) if record else None
    except TypeError:  # not a record this version wrote: no address to trust
        return None
