-- The words of 0039's full-text index, one row per place each is found, for the inbox's search to complete the last
-- word typed (backend/chat/store.py `completions`): the index's first words from a start come in a few of its
-- pages, where FTS5's own query of a start merges the messages of every word it starts before the first match. A
-- view of the index (fts5vocab), nothing stored. PostgreSQL's 0044 adds an index on messages instead: its text
-- search finds a start along GIN by itself, and reads a common word's messages newest first along that index.
CREATE VIRTUAL TABLE message_search_words USING fts5vocab(message_search, instance);
