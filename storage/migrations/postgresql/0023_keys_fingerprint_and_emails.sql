-- The keys a database was first opened with, as a fingerprint (backend/keys.py): an engine given other keys is
-- refused. (E-mail addresses are lower-cased in SQLite's step; the baseline never held others.)
CREATE TABLE keys_fingerprint (
    id integer PRIMARY KEY CHECK (id = 1),
    fingerprint text NOT NULL,
    inserted_at text NOT NULL
);
