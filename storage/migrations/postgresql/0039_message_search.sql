-- Every message's words as a tsvector kept on the message (a stored generated column, so every write keeps it)
-- under a GIN index, for the inbox's search over whole conversations (ranked by ts_rank, its matching words shown
-- by ts_headline). The configuration message_search is 'simple' (no language's stemming: guests write in any)
-- after the unaccent dictionary, so case and accents fold as on SQLite (FTS5's unicode61, its 0039); a
-- configuration, unlike the unaccent() function, may stand in a generated column. unaccent ships with PostgreSQL
-- and is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TEXT SEARCH CONFIGURATION message_search (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION message_search
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, simple;

ALTER TABLE messages ADD COLUMN search_words tsvector
    GENERATED ALWAYS AS (to_tsvector('message_search', message)) STORED;
CREATE INDEX messages_search ON messages USING gin (search_words);
