"""Signing secrets (a webhook's, a push channel's): made in the Standard Webhooks form, shown once, and kept sealed with
the vault's key (backend/core/keys.py: AES-GCM, the key beside the database or in the environment), bound to the id of
the webhook or channel that owns it. So a copy of the database alone signs nothing, and a sealed secret moved to
another row does not open. A secret is opened only to sign a call.

Stored as text in the column that held it in clear before (`webhooks.secret`, `channels.ari_secret`): `sealed:` and
the nonce and ciphertext in base64. The data step `signing_secrets_sealed` sealed those stored before
(backend/upgrades/sealed_secrets.py).
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from backend.core.keys import Keys

SEALED = "sealed:"
NONCE_BYTES = 12


def seal(keys: Keys, secret: str, owner_id: str) -> str:
    nonce, ciphertext = keys.seal(secret.encode(), _context(owner_id))
    return SEALED + base64.b64encode(nonce + ciphertext).decode()


def unseal(keys: Keys, stored: str, owner_id: str) -> str:
    """The secret in clear, to sign with; ValueError when `stored` is not a sealed secret, and the cipher's
    InvalidTag when the key is not the one that sealed it or the value belongs to another owner."""
    if not stored.startswith(SEALED):
        raise ValueError("the signing secret is not sealed")
    sealed = base64.b64decode(stored.removeprefix(SEALED), validate=True)
    return keys.open(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], _context(owner_id)).decode()


def _context(owner_id: str) -> str:
    return f"signing:{owner_id}"
