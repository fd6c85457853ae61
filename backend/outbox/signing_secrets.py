"""Signing secrets (a webhook's, a push channel's): made in the Standard Webhooks form, shown once, and kept sealed with
the vault's key (backend/keys.py: AES-GCM, the key beside the database or in the environment), bound to the id of
the webhook or channel that owns it. So a copy of the database alone signs nothing, and a sealed secret moved to
another row does not open. A secret is opened only to sign a call.

Stored as text in the column that held it in clear before (`webhooks.secret`, `channels.ari_secret`): `sealed:` and
the nonce and ciphertext in base64. The data step `signing_secrets_sealed` sealed those stored before.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from backend.data_steps import DataStep
from storage import Connection

if TYPE_CHECKING:
    from backend.engine import Engine
    from backend.keys import Keys

SEALED = "sealed:"
NONCE_BYTES = 12
COLUMNS = (("webhooks", "secret"), ("channels", "ari_secret"))  # every signing secret's place


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


def seal_stored(engine: Engine, conn: Connection) -> int:
    """The data step: every signing secret still in clear is sealed; how many were."""
    count = 0
    for table, column in COLUMNS:
        rows = conn.execute(f"SELECT id, {column} FROM {table} WHERE {column} IS NOT NULL "
                            f"AND substr({column}, 1, {len(SEALED)}) != ?", (SEALED,)).fetchall()
        conn.executemany(f"UPDATE {table} SET {column} = ? WHERE id = ?",
                         [(seal(engine.keys, secret, owner_id), owner_id) for owner_id, secret in rows])
        count += len(rows)
    return count


STEP = DataStep("signing_secrets_sealed", "signing secrets sealed", seal_stored)
