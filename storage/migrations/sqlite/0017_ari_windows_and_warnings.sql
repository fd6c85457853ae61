-- ARI to channels (backend/distribution/window_moves.py): the nights each property's channels were last told are
-- open, from `opens` (today, or later once the cut-off has passed) up to, not including, `ends` (today +
-- state_length). When the window moves (a day passes, the cut-off passes, state_length, the cut-off or the time zone
-- changes), the nights that entered it or left it are recorded as `ari` events and the row moves, in one transaction:
-- a move is told once, whichever process sees it first.
CREATE TABLE ari_windows (
    property_id TEXT PRIMARY KEY REFERENCES properties(id) ON DELETE CASCADE,
    opens TEXT NOT NULL,
    ends TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- What a destination said while taking a delivery (an OTA answer's Warnings): a JSON list of strings, or null.
ALTER TABLE deliveries ADD COLUMN warnings TEXT;
