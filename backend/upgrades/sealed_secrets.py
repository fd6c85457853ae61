"""Signing secrets that earlier versions stored in clear (a webhook's, a push channel's), sealed in place by the
rule of backend/outbox/signing_secrets.py: a data step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from backend.outbox.signing_secrets import SEALED, seal
from backend.upgrades.steps import DataStep
from backend.upgrades.store import set_value, values_of
from storage import Connection

if TYPE_CHECKING:
    from backend.engine import Engine

COLUMNS = (("webhooks", "secret"), ("channels", "ari_secret"))  # every signing secret's place


def seal_stored(engine: Engine, conn: Connection) -> int:
    """Every signing secret still in clear is sealed; how many were."""
    count = 0
    for table, column in COLUMNS:
        for owner_id, secret in values_of(conn, table, "id", column):
            if not secret.startswith(SEALED):
                set_value(conn, table, "id", column, owner_id, seal(engine.keys, secret, owner_id))
                count += 1
    return count


STEP = DataStep("signing_secrets_sealed", "signing secrets sealed", seal_stored)
