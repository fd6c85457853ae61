"""API keys of the pci listener (`?api_key=`): random, printed once, kept only as SHA-256, revocable.

They are apart from users' API tokens: a tokenisation key opens the vault's API and nothing of the
main API, and a user's token opens nothing here."""

from __future__ import annotations

import secrets
from typing import Any

from backend.core.errors import NotFound, Unauthorized
from backend.identity.models import IssuedToken
from backend.identity.service import hash_secret
from backend.vault.store import active_pci_key, insert_pci_key, pci_key_rows, revoke_pci_key
from storage import Store, new_id, utc_now

KEY_PREFIX = "fdpci_"


class PciKeys:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, label: str = "") -> IssuedToken:
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        issued = IssuedToken(new_id(), key[:12], key)
        with self.store.transaction() as conn:
            insert_pci_key(conn, issued.id, hash_secret(key), issued.prefix, label.strip(), utc_now())
        return issued

    def list(self) -> list[dict[str, Any]]:
        return [dict(r) for r in pci_key_rows(self.store)]

    def revoke(self, key_or_id: str) -> None:
        with self.store.transaction() as conn:
            if revoke_pci_key(conn, key_or_id, hash_secret(key_or_id), utc_now()) == 0:
                raise NotFound("no active tokenisation key with that id")

    def authenticate(self, key: str | None) -> str:
        """The id of the key presented: who acts, in the vault's audit log."""
        if not key:
            raise Unauthorized("missing api_key")
        key_id = active_pci_key(self.store, hash_secret(key))
        if key_id is None:
            raise Unauthorized("invalid or revoked api_key")
        return key_id
