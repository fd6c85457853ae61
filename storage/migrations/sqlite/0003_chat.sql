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
-- The inbox order (newest conversation first, read backwards): overall, unread only, and per property.
CREATE INDEX message_threads_recent ON message_threads(last_message_received_at, id);
CREATE INDEX message_threads_unread_recent ON message_threads(last_message_received_at, id) WHERE unread_count > 0;
CREATE INDEX message_threads_property_recent ON message_threads(property_id, last_message_received_at, id);

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
CREATE INDEX messages_thread_recent ON messages(thread_id, inserted_at, id);
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

-- How many threads each property has by provider, state and unread-ness, kept by triggers: the inbox's
-- `meta.total` is then a sum over a few rows instead of a count over every matching thread.
CREATE TABLE thread_counts (
    property_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    is_closed INTEGER NOT NULL,
    unread INTEGER NOT NULL,
    threads INTEGER NOT NULL,
    PRIMARY KEY (property_id, provider, is_closed, unread)
) WITHOUT ROWID;

CREATE TRIGGER thread_counts_insert AFTER INSERT ON message_threads BEGIN
    INSERT INTO thread_counts (property_id, provider, is_closed, unread, threads)
    VALUES (NEW.property_id, NEW.provider, NEW.is_closed, NEW.unread_count > 0, 1)
    ON CONFLICT (property_id, provider, is_closed, unread) DO UPDATE SET threads = threads + 1;
END;

CREATE TRIGGER thread_counts_delete AFTER DELETE ON message_threads BEGIN
    UPDATE thread_counts SET threads = threads - 1
    WHERE property_id = OLD.property_id AND provider = OLD.provider AND is_closed = OLD.is_closed
      AND unread = (OLD.unread_count > 0);
END;

CREATE TRIGGER thread_counts_update AFTER UPDATE OF property_id, provider, is_closed, unread_count ON message_threads
WHEN OLD.property_id <> NEW.property_id OR OLD.provider <> NEW.provider OR OLD.is_closed <> NEW.is_closed
  OR (OLD.unread_count > 0) <> (NEW.unread_count > 0)
BEGIN
    UPDATE thread_counts SET threads = threads - 1
    WHERE property_id = OLD.property_id AND provider = OLD.provider AND is_closed = OLD.is_closed
      AND unread = (OLD.unread_count > 0);
    INSERT INTO thread_counts (property_id, provider, is_closed, unread, threads)
    VALUES (NEW.property_id, NEW.provider, NEW.is_closed, NEW.unread_count > 0, 1)
    ON CONFLICT (property_id, provider, is_closed, unread) DO UPDATE SET threads = threads + 1;
END;
