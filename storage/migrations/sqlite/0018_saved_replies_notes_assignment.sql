-- The inbox as a team uses it (issue 15, items 14-16): saved replies, internal notes, and who answers a thread.

-- A saved reply: for one property (`property_id`), or for every property of a group (`group_id`, property_id null).
CREATE TABLE message_templates (
    id TEXT PRIMARY KEY,
    group_id TEXT REFERENCES groups(id) ON DELETE CASCADE,
    property_id TEXT REFERENCES properties(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    message TEXT NOT NULL,                  -- with {placeholders}; card numbers masked before it is stored
    user_id TEXT REFERENCES users(id) ON DELETE SET NULL,  -- who wrote it
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK ((group_id IS NULL) <> (property_id IS NULL))
);
CREATE INDEX message_templates_group ON message_templates(group_id, title) WHERE group_id IS NOT NULL;
CREATE INDEX message_templates_property ON message_templates(property_id, title) WHERE property_id IS NOT NULL;

-- A note on a thread that staff write for each other: never a message, so never counted, listed as a message,
-- sent to a channel or told to a webhook.
CREATE TABLE thread_notes (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES message_threads(id) ON DELETE CASCADE,
    user_id TEXT REFERENCES users(id) ON DELETE SET NULL,  -- its author
    note TEXT NOT NULL,                     -- card numbers masked before it is stored
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX thread_notes_thread ON thread_notes(thread_id, inserted_at, id);

-- Who answers the thread: a user of its property's group, or nobody.
ALTER TABLE message_threads ADD COLUMN assignee_id TEXT REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX message_threads_assignee_recent ON message_threads(assignee_id, last_message_received_at, id);
