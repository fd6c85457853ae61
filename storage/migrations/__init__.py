"""Versioned schema migrations, one folder per dialect.

SQLite (`sqlite/`) keeps every step since the first, its version in `PRAGMA user_version`. PostgreSQL
(`postgresql/`) starts from a baseline that is SQLite's schema as of its step (`NNNN_baseline.sql`), its version in a
`schema_version` table; every step after it ships as a pair, one file of the same name in each folder. Each step is
applied in its own transaction, under the write lock (SQLite) or an advisory lock (PostgreSQL), so that processes
opening a database at once never race. Never edit a shipped step: add a new pair to STEPS.

A database of a newer version than this one knows is refused (StoreError): its schema is not one this code reads.
"""

from __future__ import annotations

import sqlite3
from importlib import resources

from storage.store import StoreError

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
    "0023_keys_fingerprint_and_emails.sql",
    "0024_outbox_positions.sql",
    "0025_sellable_nights.sql",
    "0026_booking_counts.sql",
    "0027_thread_search_text.sql",
    "0028_crs_and_ari_tasks.sql",
    "0031_events_by_property.sql",
    "0032_reviews.sql",
    "0036_channel_availability_rules.sql",
    "0033_tax_sets.sql",
    "0035_photos.sql",
    "0034_property_and_group_users.sql",
    "0040_message_authors.sql",
    "0042_changes.sql",
    "0038_message_rules.sql",
    "0039_message_search.sql",
    "0037_reply_drafts.sql",
    "0044_message_search_reads.sql",
    "0043_reviews_to_answer.sql",
    "0046_change_subjects.sql",
    "0047_plan_versions.sql",
]
# PostgreSQL's first step: SQLite's schema as of this many steps, in one file.
BASELINE = 22


def newer(version: int) -> StoreError:
    return StoreError(f"the database is of a newer Frontdesk (schema version {version}; this version knows "
                      f"{len(STEPS)}): upgrade Frontdesk to open it")


def migrate_sqlite(conn: sqlite3.Connection) -> bool:
    """Apply the steps the database lacks; whether it was new (no step applied before)."""
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(STEPS):
        raise newer(version)
    for number, name in enumerate(STEPS[version:], start=version + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            if conn.execute("PRAGMA user_version").fetchone()[0] < number:
                for statement in statements("sqlite", name):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return version == 0


def statements(dialect: str, name: str) -> list[str]:
    """A SQLite step's statements, one by one: executescript would commit behind our back."""
    statements, buffer = [], ""
    for line in script(dialect, name).splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements


def script(dialect: str, name: str) -> str:
    return resources.files("storage.migrations").joinpath(dialect, name).read_text()


def postgresql_steps() -> list[tuple[int, str]]:
    """PostgreSQL's steps with the version each leaves: the baseline, then the pairs after it."""
    return [(BASELINE, f"{BASELINE:04d}_baseline.sql"),
            *((number, name) for number, name in enumerate(STEPS, start=1) if number > BASELINE)]
