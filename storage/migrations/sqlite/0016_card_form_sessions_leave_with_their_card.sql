-- A card form's spent session (backend/vault/card_form.py) is kept for the booking that takes its card, and for
-- nothing once that card has left the vault: it now leaves with it (the vault's purge, or a card deleted), so the
-- table stays as bounded as the vault. Sessions expired unspent are swept as new ones are made. SQLite can't add a
-- foreign key to a table: the table is made again, without the spent sessions whose card is already gone.
CREATE TABLE card_form_sessions_new (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    channel_ids TEXT NOT NULL,          -- JSON list: the channels of the name the session was asked for
    expires_at TEXT NOT NULL,
    card_token TEXT UNIQUE REFERENCES vault_cards(token) ON DELETE CASCADE,  -- the vault card the form kept with it
    booking_id TEXT,                    -- the booking that took that card
    inserted_at TEXT NOT NULL
);
INSERT INTO card_form_sessions_new (id, token_hash, channel_ids, expires_at, card_token, booking_id, inserted_at)
SELECT id, token_hash, channel_ids, expires_at, card_token, booking_id, inserted_at FROM card_form_sessions
WHERE card_token IS NULL OR card_token IN (SELECT token FROM vault_cards);
DROP TABLE card_form_sessions;
ALTER TABLE card_form_sessions_new RENAME TO card_form_sessions;
CREATE INDEX card_form_sessions_recent ON card_form_sessions(inserted_at);
