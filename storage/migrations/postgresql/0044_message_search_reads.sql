-- Messages newest first, for the inbox's search of a word too common to rank (backend/chat/store.py MATCHES): the
-- planner reads this index backwards, testing each message's words (0039's tsvector), and stops at the page, where
-- the GIN index would list every message holding the word first. SQLite reads its FTS5 index in rowid order, and its
-- 0044 is a view of that index's words.
CREATE INDEX messages_recent ON messages(inserted_at, id);
