-- A card the vault already holds is found, not sealed again (backend/vault/store.py): by `fingerprint`, a keyed hash
-- of its number and expiry under the vault's key, unique, so that two captures of one card at once make one card.
-- Cards kept before get theirs from a data step (it needs the key), which also folds the copies captures made.
ALTER TABLE vault_cards ADD COLUMN fingerprint TEXT;
CREATE UNIQUE INDEX vault_cards_fingerprint ON vault_cards(fingerprint);
-- The same card typed into two card forms is one vault card that both sessions name: card_token is no longer
-- unique. SQLite can't drop a constraint: the table is made again.
CREATE TABLE card_form_sessions_new (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    channel_ids TEXT NOT NULL,          -- JSON list: the channels of the name the session was asked for
    expires_at TEXT NOT NULL,
    card_token TEXT REFERENCES vault_cards(token) ON DELETE CASCADE,  -- the vault card the form kept with it
    booking_id TEXT,                    -- the booking that took that card
    inserted_at TEXT NOT NULL,
    client TEXT,                        -- the asking address (IPv4, or IPv6 /64), while it counts
    property_id TEXT NOT NULL DEFAULT ''  -- the property asked for, or ''
);
INSERT INTO card_form_sessions_new (id, token_hash, channel_ids, expires_at, card_token, booking_id, inserted_at,
                                    client, property_id)
SELECT id, token_hash, channel_ids, expires_at, card_token, booking_id, inserted_at, client, property_id
FROM card_form_sessions;
DROP TABLE card_form_sessions;
ALTER TABLE card_form_sessions_new RENAME TO card_form_sessions;
CREATE INDEX card_form_sessions_recent ON card_form_sessions(inserted_at);
CREATE INDEX card_form_sessions_client ON card_form_sessions(client, inserted_at);
CREATE INDEX card_form_sessions_property ON card_form_sessions(channel_ids, property_id, inserted_at);
CREATE INDEX card_form_sessions_card ON card_form_sessions(card_token);
