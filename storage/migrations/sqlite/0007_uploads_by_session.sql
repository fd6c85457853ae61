-- An upload made through a web chat session belongs to that session: another session of the same API user
-- (for another property), or the user's own API token, can neither see it nor send it before it is sent.
ALTER TABLE attachments ADD COLUMN session_id TEXT;
