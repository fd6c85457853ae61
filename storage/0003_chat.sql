-- Guest chat: threads (of a booking, or an inquiry without one), messages, attachments.

CREATE TABLE message_threads (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id TEXT REFERENCES channels(id) ON DELETE SET NULL,
    booking_id TEXT UNIQUE REFERENCES bookings(id) ON DELETE SET NULL,
    provider TEXT NOT NULL,
    title TEXT NOT NULL,
    is_closed INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    unread_count INTEGER NOT NULL DEFAULT 0,   -- guest messages staff have not read yet
    last_message_id TEXT,
    last_message_received_at TEXT,
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
-- The inbox order (newest conversation first), per property and overall.
CREATE INDEX message_threads_property_recent ON message_threads(property_id, last_message_received_at DESC, id);
CREATE INDEX message_threads_recent ON message_threads(last_message_received_at DESC, id);
CREATE INDEX message_threads_unread ON message_threads(property_id, last_message_received_at DESC) WHERE unread_count > 0;

CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES message_threads(id) ON DELETE CASCADE,
    sender TEXT NOT NULL,              -- guest, property, system
    message TEXT NOT NULL,
    meta TEXT,                         -- JSON: the inquiry message only
    delivery TEXT,                     -- property replies: pending until the channel's adapter acks, then delivered
    delivered_at TEXT,
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX messages_thread_recent ON messages(thread_id, inserted_at DESC, id);
CREATE INDEX messages_outbox ON messages(thread_id) WHERE delivery = 'pending';

-- An uploaded file; it belongs to who uploaded it (a user, or a channel's adapter) until a message takes it.
CREATE TABLE attachments (
    id TEXT PRIMARY KEY,
    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
    channel_id TEXT REFERENCES channels(id) ON DELETE CASCADE,
    message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    inserted_at TEXT NOT NULL
);
CREATE INDEX attachments_message ON attachments(message_id);
