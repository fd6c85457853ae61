"""Versioned schema migrations. The version lives in `PRAGMA user_version`.

Each step is one SQL file in this package, applied in order, each in its own transaction.
Never edit a shipped step: add a new file to STEPS.
"""

from __future__ import annotations

import sqlite3
from importlib import resources

STEPS: list[str] = [
    "0001_foundation.sql",
    "0002_inventory_bookings.sql",
    "0003_chat.sql",
    "0004_chat_embed.sql",
    "0005_vault.sql",
    "0006_booking_cards_in_vault.sql",
    "0007_uploads_by_session.sql",
    "0008_channex_shapes.sql",
    "0009_booking_reports_and_direct_channels.sql",
    "0010_derived_rate_plans.sql",
    "0011_card_form_sessions.sql",
    "0012_parking_location_nearby.sql",
    "0013_outbox.sql",
    "0014_webhooks.sql",
    "0015_channel_ari_secret.sql",
    "0016_card_form_sessions_leave_with_their_card.sql",
    "0017_ari_windows_and_warnings.sql",
    "0018_saved_replies_notes_assignment.sql",
    "0019_booking_guest_names.sql",
    "0020_data_steps.sql",
    "0021_card_form_quota.sql",
    "0022_vault_cards_found_by_fingerprint.sql",
]


def migrate(conn: sqlite3.Connection) -> int:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    for number, name in enumerate(STEPS[version:], start=version + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if conn.execute("PRAGMA user_version").fetchone()[0] < number:
                for statement in _statements(name):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return len(STEPS)


def _statements(name: str) -> list[str]:
    """The step's statements, one by one: executescript would commit behind our back."""
    statements, buffer = [], ""
    for line in resources.files("storage").joinpath(name).read_text().splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements
