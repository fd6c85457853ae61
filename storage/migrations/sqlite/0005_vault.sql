-- The card vault (tokenisation): keys of the pci listener, profiles, cards by token, CVVs apart, and
-- an audit log. No column holds card data in clear: numbers, holders and CVVs are AES-GCM sealed
-- under the key kept beside the database, bound to their token.
CREATE TABLE pci_keys (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    inserted_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE tokenization_profiles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    profile TEXT NOT NULL,              -- JSON: the profile as stored, compiled again when read
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE vault_cards (
    token TEXT PRIMARY KEY,             -- 32 lowercase hex characters
    nonce BLOB NOT NULL,
    ciphertext BLOB NOT NULL,           -- number, holder, expiry
    card_mask TEXT NOT NULL,            -- first 6 and last 4
    card_type TEXT NOT NULL,
    expiration_month INTEGER NOT NULL,
    expiration_year INTEGER NOT NULL,
    profile_name TEXT NOT NULL,
    departure_date TEXT NOT NULL,       -- the guest's departure, else the day the card came in: the purge counts from it
    created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX vault_cards_departure ON vault_cards (departure_date);

CREATE TABLE vault_cvv (
    token TEXT PRIMARY KEY REFERENCES vault_cards(token) ON DELETE CASCADE,
    nonce BLOB NOT NULL,
    ciphertext BLOB NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX vault_cvv_expiry ON vault_cvv (expires_at);

-- Every vault operation, with who (a pci key id, or 'cli'/'console') and what; never card data.
CREATE TABLE vault_audit (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    token TEXT,
    actor TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX vault_audit_token ON vault_audit (token);
