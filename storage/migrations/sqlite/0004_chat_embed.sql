-- The embeddable web chat: a one-time token (minutes, single use) is exchanged by the page for a
-- chat session token (hours) that opens the chat of one property and nothing else. Both are kept
-- only as SHA-256 hashes and die with the API token that issued them.
CREATE TABLE chat_tokens (
    token_hash TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('one_time', 'session')),
    api_token_id TEXT NOT NULL REFERENCES api_tokens(id) ON DELETE CASCADE,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    expires_at TEXT NOT NULL,
    used_at TEXT
) WITHOUT ROWID;
CREATE INDEX chat_tokens_expiry ON chat_tokens (expires_at);
