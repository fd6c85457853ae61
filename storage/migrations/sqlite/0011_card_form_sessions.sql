-- The card capture form's single-use sessions (backend/vault/card_form.py): made for a shopping channel, spent by
-- the one card the form keeps in the vault, and taken by the one booking that holds that card. Kept only as a hash.
CREATE TABLE card_form_sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    channel_ids TEXT NOT NULL,          -- JSON list: the channels of the name the session was asked for
    expires_at TEXT NOT NULL,
    card_token TEXT UNIQUE,             -- the vault card the form kept with it
    booking_id TEXT,                    -- the booking that took that card
    inserted_at TEXT NOT NULL
);
CREATE INDEX card_form_sessions_recent ON card_form_sessions(inserted_at);
