-- Messages newest first, for the inbox's search of a word too common to rank (backend/chat/store.py MATCHES): the
-- planner reads this index backwards, testing each message's words (0039's tsvector), and stops at the page, where
-- the GIN index would list every message holding the word first. SQLite reads its FTS5 index in rowid order, and its
-- 0044 is a view of that index's words.
CREATE INDEX messages_recent ON messages(inserted_at, id);
-- Messages are read a page or a search at a time, never scanned whole by a report: the workers of a parallel plan
-- cost more to start than they save (the search of a word of 10,000 of 1,000,000 messages: 36 ms with them, 21 ms
-- without).
ALTER TABLE messages SET (parallel_workers = 0);
-- The planner's estimate of a word's messages comes from the words ANALYZE lists as most common: with the default
-- 100 (about 1,000 words) a word it does not list is taken for 4,000 of 1,000,000 messages, and its 10 joined to
-- every thread by hash (a rare word's search 35–39 ms); with 1,000 (about 10,000 words) for 38: 8–10 ms.
ALTER TABLE messages ALTER COLUMN search_words SET STATISTICS 1000;
