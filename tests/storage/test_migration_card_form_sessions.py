"""Migration 0016 on a database of the version before it: card form sessions leave the vault with their card. The
spent sessions whose card is already gone are dropped; the others stay as they were, and from then on a card that
leaves the vault takes its session with it."""

from __future__ import annotations

from tests.old_database import apply, migrated_up_to

STEP = "0016_card_form_sessions_leave_with_their_card.sql"
STAMP = "2026-01-01T00:00:00.000000"


def test_sessions_of_cards_gone_are_dropped_and_the_rest_follow_their_card(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", STEP)
    for token in ("a" * 32, "b" * 32):
        conn.execute("INSERT INTO vault_cards (token, nonce, ciphertext, card_mask, card_type, expiration_month, "
                     "expiration_year, profile_name, departure_date, created_at) VALUES (?, x'00', x'00', "
                     "'411111******1111', 'visa', 12, 2031, 'card_form', '2026-01-01', ?)", (token, STAMP))
    sessions = {"kept-a": "a" * 32, "kept-b": "b" * 32, "gone": "c" * 32, "unspent": None}
    for session_id, card in sessions.items():
        conn.execute("INSERT INTO card_form_sessions (id, token_hash, channel_ids, expires_at, card_token, booking_id, "
                     "inserted_at) VALUES (?, ?, '[\"ch\"]', ?, ?, NULL, ?)", (session_id, f"h-{session_id}", STAMP,
                                                                             card, STAMP))
    apply(conn, STEP)
    assert dict(conn.execute("SELECT id, card_token FROM card_form_sessions")) == {
        "kept-a": "a" * 32, "kept-b": "b" * 32, "unspent": None}
    conn.execute("DELETE FROM vault_cards WHERE token = ?", ("a" * 32,))
    assert {row[0] for row in conn.execute("SELECT id FROM card_form_sessions")} == {"kept-b", "unspent"}
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'card_form_sessions_recent'").fetchone()
