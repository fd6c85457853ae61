"""The write scopes: what a transaction names so that writers of other properties go beside it (storage/store.py
`transaction(*scope)`; parallel on PostgreSQL, one writer at a time on SQLite whatever the scope).

A scoped transaction must read, decide on and write only what its keys cover: a property's rooms, rates, nights,
bookings and conversations (`property`), a channel's reservation number (`reservation`: two pushes of one number for two
properties), the card vault (`VAULT`: a card is found by its fingerprint whichever property's booking brings it).
Everything else — a property made, moved or deleted, a mapping changed, a sweep — is written unscoped and so excludes
every scoped writer while it runs.
"""

from __future__ import annotations

VAULT = "vault"


def property_scope(property_id: object) -> str:
    return f"property:{property_id}"


def reservation_scope(channel_id: str, key: str) -> str:
    return f"reservation:{channel_id}:{key}"


def destination_scope(destination_id: str) -> str:
    return f"destination:{destination_id}"
