"""SQL on the vault's tables: vault_cards, vault_cvv, vault_audit, card_form_sessions, tokenization_profiles and
pci_keys. The vault itself (sealing, finding, purging) is backend/vault/keeping.py.

The statements are written in the common dialect of storage/, which both SQLite and PostgreSQL run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from storage import Connection, Row, Store, placeholders

CHUNK = 500  # fingerprints looked up by one query: SQLite bounds a statement's parameters

# A card with its CVV, if one is held and has not expired (the purge removes expired ones later).
CARD_SELECT = ("SELECT c.*, v.expires_at AS cvv_expires_at FROM vault_cards c "
               "LEFT JOIN vault_cvv v ON v.token = c.token AND v.expires_at > ?")


# --- vault_cards and vault_cvv -------------------------------------------------------------------


def held_cards(conn: Connection, fingerprints: list[str], now: str) -> dict[str, tuple[str, bool]]:
    """The cards held of these fingerprints: fingerprint: (token, whether it holds a CVV alive after `now`)."""
    held: dict[str, tuple[str, bool]] = {}
    wanted = list(dict.fromkeys(fingerprints))
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start:start + CHUNK]
        held |= {row[0]: (row[1], bool(row[2])) for row in conn.execute(
            "SELECT c.fingerprint, c.token, v.token IS NOT NULL FROM vault_cards c LEFT JOIN vault_cvv v "
            f"ON v.token = c.token AND v.expires_at > ? WHERE c.fingerprint IN ({placeholders(chunk)})",
            (now, *chunk))}
    return held


def insert_cards(conn: Connection, rows: Iterable[Sequence[Any]]) -> int:
    """New cards' rows (token, nonce, ciphertext, card_mask, card_type, expiration_month, expiration_year,
    profile_name, departure_date, created_at, fingerprint); how many went in: a fingerprint already held keeps
    its card."""
    return conn.executemany("INSERT INTO vault_cards (token, nonce, ciphertext, card_mask, card_type, "
                            "expiration_month, expiration_year, profile_name, departure_date, created_at, "
                            "fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (fingerprint) "
                            "DO NOTHING", rows).rowcount


def extend_departures(conn: Connection, moves: list[tuple[str, str]]) -> None:
    """Each (token, day): the card's departure moves to the day, if that is later."""
    conn.executemany("UPDATE vault_cards SET departure_date = ? WHERE token = ? AND departure_date < ?",
                     [(day, token, day) for token, day in moves])


def sealed_card(conn: Connection, token: str) -> Row | None:
    return cast(Row | None, conn.execute("SELECT nonce, ciphertext FROM vault_cards WHERE token = ?", (token,)).fetchone())


def reseal_card(conn: Connection, token: str, nonce: bytes, ciphertext: bytes) -> None:
    conn.execute("UPDATE vault_cards SET nonce = ?, ciphertext = ? WHERE token = ?", (nonce, ciphertext, token))


def upsert_cvvs(conn: Connection, rows: list[tuple[str, bytes, bytes, str]], now: str) -> None:
    """Each (token, nonce, ciphertext, expires_at): a CVV expired by `now` gives way; a live one stays."""
    conn.executemany("INSERT INTO vault_cvv (token, nonce, ciphertext, expires_at) VALUES (?, ?, ?, ?) "
                     "ON CONFLICT (token) DO UPDATE SET nonce = excluded.nonce, ciphertext = excluded.ciphertext, "
                     "expires_at = excluded.expires_at WHERE vault_cvv.expires_at <= ?",
                     [(*row, now) for row in rows])


def revealed_cards(conn: Connection, tokens: list[str], now: str) -> list[Row]:
    """The sealed cards of `tokens`, with their CVVs alive after `now` (cvv_nonce, cvv_ciphertext; else NULL)."""
    return conn.execute("SELECT c.token, c.nonce, c.ciphertext, v.nonce AS cvv_nonce, v.ciphertext AS cvv_ciphertext "
                        "FROM vault_cards c LEFT JOIN vault_cvv v ON v.token = c.token AND v.expires_at > ? "
                        f"WHERE c.token IN ({placeholders(tokens)})", (now, *tokens)).fetchall()


def card_summary(store: Store, token: str) -> Row | None:
    return cast(Row | None, store.one("SELECT card_mask, card_type, expiration_month, expiration_year FROM vault_cards "
                                      "WHERE token = ?", (token,)))


def card_row(conn: Connection, token: str, now: str) -> Row | None:
    """A card with its CVV's expiry, if one alive after `now` is held."""
    return cast(Row | None, conn.execute(f"{CARD_SELECT} WHERE c.token = ?", (now, token)).fetchone())


def card_page(store: Store, now: str, limit: int, offset: int) -> list[Row]:
    """Cards newest first, with their CVVs' expiry (as card_row)."""
    return store.query(f"{CARD_SELECT} ORDER BY c.created_at DESC, c.token LIMIT ? OFFSET ?", (now, limit, offset))


def card_count(store: Store) -> int:
    return cast(int, store.scalar("SELECT count(*) FROM vault_cards"))


def delete_card(conn: Connection, token: str) -> None:
    conn.execute("DELETE FROM vault_cards WHERE token = ?", (token,))


def delete_cvv(conn: Connection, token: str) -> int:
    """How many were deleted (0 when none was held)."""
    return conn.execute("DELETE FROM vault_cvv WHERE token = ?", (token,)).rowcount


def purge_cvvs(conn: Connection, now: str) -> int:
    return conn.execute("DELETE FROM vault_cvv WHERE expires_at <= ?", (now,)).rowcount


def purge_cards(conn: Connection, last_kept: str) -> int:
    """Cards whose departure is before `last_kept`; how many."""
    return conn.execute("DELETE FROM vault_cards WHERE departure_date < ?", (last_kept,)).rowcount


def unfingerprinted_cards(conn: Connection, now: str) -> list[Row]:
    """Cards kept before fingerprints (token, nonce, ciphertext, created_at), with their CVVs' expiry if alive."""
    return conn.execute("SELECT c.token, c.nonce, c.ciphertext, c.created_at, v.expires_at FROM vault_cards c "
                        "LEFT JOIN vault_cvv v ON v.token = c.token AND v.expires_at > ? "
                        "WHERE c.fingerprint IS NULL", (now,)).fetchall()


def fold_card(conn: Connection, fingerprint: str, tokens: list[str]) -> None:
    """The first of `tokens` takes the fingerprint and the latest departure of them all."""
    conn.execute(f"UPDATE vault_cards SET fingerprint = ?, departure_date = (SELECT max(departure_date) "
                 f"FROM vault_cards WHERE token IN ({placeholders(tokens)})) WHERE token = ?",
                 (fingerprint, *tokens, tokens[0]))


def forget_cvvs(conn: Connection, tokens: list[str]) -> None:
    conn.execute(f"DELETE FROM vault_cvv WHERE token IN ({placeholders(tokens)})", tokens)


# --- vault_audit ---------------------------------------------------------------------------------


def insert_audit(conn: Connection, at: str, action: str, token: str | None, actor: str, detail: str) -> None:
    conn.execute("INSERT INTO vault_audit (at, action, token, actor, detail) VALUES (?, ?, ?, ?, ?)",
                 (at, action, token, actor, detail))


def insert_audits(conn: Connection, rows: list[tuple[str, str, str | None, str, str]]) -> None:
    """Each (at, action, token, actor, detail)."""
    conn.executemany("INSERT INTO vault_audit (at, action, token, actor, detail) VALUES (?, ?, ?, ?, ?)", rows)


def audit_reveals(conn: Connection, rows: list[tuple[str, str, str, str]]) -> None:
    """Each (at, token, actor, detail), as a `reveal`."""
    conn.executemany("INSERT INTO vault_audit (at, action, token, actor, detail) VALUES (?, 'reveal', ?, ?, ?)", rows)


def audit_entries(store: Store, token: str | None, limit: int) -> list[Row]:
    """The audit log newest first, of one token when given."""
    where, params = ("WHERE token = ?", [token]) if token else ("", [])
    return store.query(f"SELECT at, action, token, actor, detail FROM vault_audit {where} ORDER BY id DESC LIMIT ?",
                       [*params, limit])


# --- card_form_sessions --------------------------------------------------------------------------


def _opened_by(client: str | None, channel_ids: str | None, property_id: str | None) -> tuple[str, tuple[Any, ...]]:
    """The condition that picks out the sessions of a client, or of channels and a property."""
    if client is not None:
        return "client = ?", (client,)
    return "channel_ids = ? AND property_id = ?", (channel_ids, property_id)


def sessions_opened(conn: Connection, since: str, *, client: str | None = None, channel_ids: str | None = None,
                    property_id: str | None = None) -> int:
    """How many sessions of the client (or of the channels and property) were made after `since`."""
    where, params = _opened_by(client, channel_ids, property_id)
    return cast(int, conn.execute(f"SELECT count(*) FROM card_form_sessions WHERE {where} AND inserted_at > ?",
                                  (*params, since)).fetchone()[0])


def session_opened_at(conn: Connection, since: str, offset: int, *, client: str | None = None,
                      channel_ids: str | None = None, property_id: str | None = None) -> str:
    """When the session at `offset`, oldest first, of those `sessions_opened` counts was made."""
    where, params = _opened_by(client, channel_ids, property_id)
    return cast(str, conn.execute(f"SELECT inserted_at FROM card_form_sessions WHERE {where} AND inserted_at > ? "
                                  "ORDER BY inserted_at LIMIT 1 OFFSET ?", (*params, since, offset)).fetchone()[0])


def sweep_sessions(conn: Connection, now: str, counted_since: str) -> None:
    """Sessions expired by `now` without a card go; the client of those made by `counted_since` is forgotten."""
    conn.execute("DELETE FROM card_form_sessions WHERE expires_at <= ? AND card_token IS NULL", (now,))
    conn.execute("UPDATE card_form_sessions SET client = NULL WHERE client IS NOT NULL AND inserted_at <= ?",
                 (counted_since,))


def insert_session(conn: Connection, session_id: str, token_hash: str, channel_ids: str, expires_at: str,
                   inserted_at: str, client: str, property_id: str) -> None:
    conn.execute("INSERT INTO card_form_sessions (id, token_hash, channel_ids, expires_at, inserted_at, "
                 "client, property_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (session_id, token_hash, channel_ids, expires_at, inserted_at, client, property_id))


def open_session(conn: Connection, token_hash: str, now: str) -> Row | None:
    """The unspent session of the token, alive at `now` (its id)."""
    return cast(Row | None, conn.execute("SELECT id FROM card_form_sessions WHERE token_hash = ? AND expires_at > ? "
                                         "AND card_token IS NULL", (token_hash, now)).fetchone())


def spend_session(conn: Connection, session_id: str, card_token: str) -> int:
    """The session keeps the card if it is still unspent; 1 if it was, else 0."""
    return conn.execute("UPDATE card_form_sessions SET card_token = ? WHERE id = ? AND card_token IS NULL",
                        (card_token, session_id)).rowcount


def card_sessions(conn: Connection, card_token: str, booking_id: str) -> list[Row]:
    """The sessions that kept the card and no other booking took (id, channel_ids), the booking's own first."""
    return conn.execute("SELECT id, channel_ids FROM card_form_sessions WHERE card_token = ? "
                        "AND (booking_id IS NULL OR booking_id = ?) ORDER BY booking_id IS NULL, inserted_at",
                        (card_token, booking_id)).fetchall()


def take_session(conn: Connection, session_id: str, booking_id: str) -> int:
    """The booking takes the session's card unless another booking has; 1 if it did, else 0."""
    return conn.execute("UPDATE card_form_sessions SET booking_id = ? WHERE id = ? "
                        "AND (booking_id IS NULL OR booking_id = ?)", (booking_id, session_id, booking_id)).rowcount


def repoint_card_form_sessions(conn: Connection, token: str, others: list[str]) -> None:
    """Sessions that kept any of `others` name `token` instead."""
    conn.execute(f"UPDATE card_form_sessions SET card_token = ? WHERE card_token IN ({placeholders(others)})",
                 (token, *others))


# --- tokenization_profiles -----------------------------------------------------------------------


def profile_rows(store: Store) -> list[Row]:
    return store.query("SELECT * FROM tokenization_profiles ORDER BY name")


def profile_row(conn: Connection, profile_id: str) -> Row | None:
    return cast(Row | None, conn.execute("SELECT * FROM tokenization_profiles WHERE id = ?", (profile_id,)).fetchone())


def profile_named(store: Store, name: str) -> Row | None:
    """The profile of that name: its id, profile and updated_at."""
    return cast(Row | None, store.one("SELECT id, profile, updated_at FROM tokenization_profiles WHERE name = ?", (name,)))


def profile_id_named(conn: Connection, name: str) -> str | None:
    row = conn.execute("SELECT id FROM tokenization_profiles WHERE name = ?", (name,)).fetchone()
    return None if row is None else row[0]


def insert_profile(conn: Connection, profile_id: str, name: str, profile: str, now: str) -> None:
    conn.execute("INSERT INTO tokenization_profiles (id, name, profile, created_at, updated_at) "
                 "VALUES (?, ?, ?, ?, ?)", (profile_id, name, profile, now, now))


def update_profile(conn: Connection, profile_id: str, name: str, profile: str, now: str) -> None:
    conn.execute("UPDATE tokenization_profiles SET name = ?, profile = ?, updated_at = ? WHERE id = ?",
                 (name, profile, now, profile_id))


def delete_profile(conn: Connection, profile_id: str) -> None:
    conn.execute("DELETE FROM tokenization_profiles WHERE id = ?", (profile_id,))


# --- pci_keys ------------------------------------------------------------------------------------


def insert_pci_key(conn: Connection, key_id: str, key_hash: str, prefix: str, label: str, now: str) -> None:
    conn.execute("INSERT INTO pci_keys (id, key_hash, prefix, label, inserted_at) VALUES (?, ?, ?, ?, ?)",
                 (key_id, key_hash, prefix, label, now))


def pci_key_rows(store: Store) -> list[Row]:
    """Every key (id, prefix, label, inserted_at, revoked_at), oldest first."""
    return store.query("SELECT id, prefix, label, inserted_at, revoked_at FROM pci_keys ORDER BY inserted_at")


def revoke_pci_key(conn: Connection, key_id: str, key_hash: str, now: str) -> int:
    """The active key of that id or hash is revoked; how many were (0 or 1)."""
    return conn.execute("UPDATE pci_keys SET revoked_at = ? WHERE (id = ? OR key_hash = ?) "
                        "AND revoked_at IS NULL", (now, key_id, key_hash)).rowcount


def active_pci_key(store: Store, key_hash: str) -> str | None:
    """The id of the active key of that hash."""
    return cast(str | None, store.scalar("SELECT id FROM pci_keys WHERE key_hash = ? AND revoked_at IS NULL", (key_hash,)))
