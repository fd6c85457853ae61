-- What the inbox's search looks in, a thread's title and its last message, kept on the thread by a trigger under
-- pg_trgm's index, which finds any part of it (SQLite keeps it in an FTS5 trigram index: its 0027). pg_trgm ships
-- with PostgreSQL and is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE FUNCTION thread_search_text(text, text) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT $1 || chr(10) || coalesce((SELECT message FROM messages WHERE id = $2), '');  -- title, last message
$$;
ALTER TABLE message_threads ADD COLUMN search_text text NOT NULL DEFAULT '';
UPDATE message_threads SET search_text = thread_search_text(title, last_message_id);

CREATE FUNCTION thread_search_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_text := thread_search_text(NEW.title, NEW.last_message_id);
    RETURN NEW;
END;
$$;
CREATE TRIGGER thread_search_text BEFORE INSERT OR UPDATE OF title, last_message_id ON message_threads
    FOR EACH ROW EXECUTE FUNCTION thread_search_follow();
CREATE INDEX message_threads_search ON message_threads USING gin (search_text gin_trgm_ops);
