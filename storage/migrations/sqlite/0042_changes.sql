-- The changes feed (backend/outbox/changes.py): the kind of each change that the outbox's events do not already
-- carry (a property edited, a thread assigned, a note), so that a console of another process reloads what that
-- kind shows and nothing else. A hint, pruned after minutes; the data itself is in its own tables.
CREATE TABLE changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,           -- the event bus's kind: property.changed, thread.changed, ...
    inserted_at TEXT NOT NULL
);
CREATE INDEX changes_inserted ON changes(inserted_at);
