"""Card data of a booking: masked wherever it is shown, and kept in clear only under encryption.

On the main listener a card is masked at once and can never be restored. On the secure listener
the full guarantee is sealed with AES-GCM (key outside the database) beside the masked copy, and
only the tokenisation service's internal credential ever reads it back.
"""

from __future__ import annotations

import json
from typing import Any

from backend.keys import Keys


def mask_number(number: str) -> str:
    return number[:6] + "*" * (len(number) - 10) + number[-4:]


def masked(guarantee: dict[str, Any] | None) -> dict[str, Any] | None:
    if guarantee is None:
        return None
    return {**guarantee, "card_number": mask_number(guarantee["card_number"]), "cvv": "***"}


class CardStore:
    def __init__(self, keys: Keys) -> None:
        self.keys = keys

    def seal(self, conn, revision_id: str, guarantee: dict[str, Any]) -> None:
        nonce, ciphertext = self.keys.seal(json.dumps(guarantee).encode(), revision_id)
        conn.execute("INSERT INTO booking_cards (revision_id, nonce, ciphertext) VALUES (?, ?, ?)",
                     (revision_id, nonce, ciphertext))

    def carry(self, conn, from_revision: str, to_revision: str) -> None:
        """A modification without a new card keeps the card of the revision before."""
        clear = self.reveal(conn, from_revision)
        if clear is not None:
            self.seal(conn, to_revision, clear)

    def reveal(self, conn, revision_id: str) -> dict[str, Any] | None:
        row = conn.execute("SELECT nonce, ciphertext FROM booking_cards WHERE revision_id = ?", (revision_id,)).fetchone()
        if row is None:
            return None
        return json.loads(self.keys.open(row[0], row[1], revision_id))
