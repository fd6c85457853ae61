-- The keys a database was first opened with, as a fingerprint (backend/keys.py): an engine given other keys is
-- refused. And e-mail addresses lower-cased, as the engine now keeps them (PostgreSQL has no NOCASE column).
CREATE TABLE keys_fingerprint (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    fingerprint TEXT NOT NULL,
    inserted_at TEXT NOT NULL
);
UPDATE users SET email = lower(email) WHERE email <> lower(email);
