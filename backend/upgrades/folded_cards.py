"""Copies of one card that earlier versions kept in the vault, folded into one (backend/vault/keeping.py), and the
bookings that named a copy pointed at the one kept: a data step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from backend.upgrades.steps import DataStep
from backend.upgrades.store import repoint_revision_cards
from storage import Connection

if TYPE_CHECKING:
    from backend.engine import Engine


def fold_copies(engine: Engine, conn: Connection) -> int:
    """How many copies were folded into another."""
    folded = engine.vault.fold_copies(conn)
    for kept, copies in folded:
        repoint_revision_cards(conn, kept, copies)
    return sum(len(copies) for _, copies in folded)


STEP = DataStep("vault_card_fingerprints", "copies of vault cards folded into one (their CVVs forgotten)", fold_copies)
