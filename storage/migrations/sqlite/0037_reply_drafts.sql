-- A reply (or a note) staff began and did not send, kept per user and thread (backend/chat/drafts.py), so that quitting or a
-- crash loses no word. Card numbers are masked before a draft is stored, as in messages.
CREATE TABLE reply_drafts (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    thread_id TEXT NOT NULL REFERENCES message_threads(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'reply',  -- 'reply', or 'note': a note being written comes back as a note
    updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
);
