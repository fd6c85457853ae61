-- What the inbox's search looks in, a thread's title and its last message, kept by triggers in a trigram index
-- (FTS5's): any part of it is found by the index instead of a look at every thread through a subquery for its last
-- message (a search over 100,000 threads took 100-400 ms). PostgreSQL keeps the same text on the thread, under
-- pg_trgm's index (its 0027).
CREATE VIRTUAL TABLE thread_search USING fts5(search_text, tokenize = 'trigram');

INSERT INTO thread_search (rowid, search_text)
    SELECT rowid, title || char(10) || coalesce((SELECT message FROM messages WHERE id = t.last_message_id), '')
    FROM message_threads t;

CREATE TRIGGER thread_search_insert AFTER INSERT ON message_threads BEGIN
    INSERT INTO thread_search (rowid, search_text) VALUES (NEW.rowid, NEW.title || char(10)
        || coalesce((SELECT message FROM messages WHERE id = NEW.last_message_id), ''));
END;

CREATE TRIGGER thread_search_update AFTER UPDATE OF title, last_message_id ON message_threads BEGIN
    UPDATE thread_search SET search_text = NEW.title || char(10)
        || coalesce((SELECT message FROM messages WHERE id = NEW.last_message_id), '') WHERE rowid = NEW.rowid;
END;

CREATE TRIGGER thread_search_delete AFTER DELETE ON message_threads BEGIN
    DELETE FROM thread_search WHERE rowid = OLD.rowid;
END;
