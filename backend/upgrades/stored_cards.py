"""Card data that earlier versions stored in clear, masked in place by the rule of backend/core/card_data.py: a data step.

Every column that holds free text or JSON is read (bookings and their revisions, guest and staff messages, threads'
titles, internal notes, saved replies, outbox events, webhook and channel delivery records, the vault's audit),
and each value that holds a card number or a security code is written back masked; a JSON value is masked as the
engine masks a request (a phone field keeps a phone, keys are masked too). A booking whose reservation id holds
a card is found from then on by the keyed hash that new ones are (backend/bookings/cards.py).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from backend.bookings.cards import KEYED
from backend.core.card_data import mask_cards_in, mask_text, may_hold_card_data
from backend.upgrades.steps import DataStep
from backend.upgrades.store import reservation_ids_not_keyed, set_value, values_of
from storage import Connection

if TYPE_CHECKING:
    from backend.engine import Engine

TEXT, JSON = "text", "json"
# Table, its key, the column and what it holds.
COLUMNS = [
    ("bookings", "id", "unique_id", TEXT), ("bookings", "id", "guest_names", TEXT),
    ("booking_revisions", "id", "attributes", JSON), ("messages", "id", "message", TEXT),
    ("messages", "id", "meta", JSON), ("message_threads", "id", "title", TEXT), ("thread_notes", "id", "note", TEXT),
    ("message_templates", "id", "title", TEXT), ("message_templates", "id", "message", TEXT),
    ("attachments", "id", "file_name", TEXT), ("events", "seq", "payload", JSON), ("deliveries", "id", "last_error", TEXT),
    ("deliveries", "id", "warnings", JSON), ("destinations", "id", "last_error", TEXT),
    ("vault_audit", "id", "detail", TEXT),
]


def mask_stored_cards(engine: Engine, conn: Connection) -> int:
    changed = _key_reservation_ids(engine, conn)
    for table, key, column, kind in COLUMNS:
        for row_key, value in values_of(conn, table, key, column):
            masked = _masked(value, kind)
            if masked != value:
                set_value(conn, table, key, column, row_key, masked)
                changed += 1
    return changed


def _masked(value: Any, kind: str) -> Any:
    if not isinstance(value, str) or not may_hold_card_data(value, escaped=kind == JSON):
        return value
    if kind == TEXT:
        return mask_text(value)
    parsed = json.loads(value)
    masked = mask_cards_in(parsed)
    return value if masked == parsed else json.dumps(masked)


def _key_reservation_ids(engine: Engine, conn: Connection) -> int:
    """A reservation id that holds a card becomes the keyed hash that finds its booking."""
    changed = 0
    for booking_id, reservation_id in reservation_ids_not_keyed(conn, KEYED):
        key = engine.bookings.cards.reservation_key(reservation_id)
        if key != reservation_id:
            set_value(conn, "bookings", "id", "reservation_id", booking_id, key)
            changed += 1
    return changed


STEP = DataStep("mask_stored_cards", "values holding card data in clear masked", mask_stored_cards)
