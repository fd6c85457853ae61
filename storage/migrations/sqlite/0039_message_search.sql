-- Every message's words under FTS5's index, for the inbox's search over whole conversations (ranked by bm25, its
-- matching words shown by snippet()). An external-content table: the words are indexed, the text stays in
-- messages (keyed by their rowid), and triggers keep the index in step with every write. unicode61 with
-- remove_diacritics 2 folds case and accents ("Café" is found by "cafe"). PostgreSQL keeps a tsvector on the
-- message under a GIN index (its 0039).
CREATE VIRTUAL TABLE message_search USING fts5(message, content = 'messages', content_rowid = 'rowid',
                                               tokenize = 'unicode61 remove_diacritics 2');

INSERT INTO message_search (message_search) VALUES ('rebuild');  -- the messages written before this step

CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO message_search (rowid, message) VALUES (NEW.rowid, NEW.message);
END;

CREATE TRIGGER message_search_update AFTER UPDATE OF message ON messages BEGIN
    INSERT INTO message_search (message_search, rowid, message) VALUES ('delete', OLD.rowid, OLD.message);
    INSERT INTO message_search (rowid, message) VALUES (NEW.rowid, NEW.message);
END;

CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO message_search (message_search, rowid, message) VALUES ('delete', OLD.rowid, OLD.message);
END;
