-- The outbox (backend/outbox/): every change that matters outside is an event, written in the transaction of the
-- change itself; one deliverer per database sends each to the destinations that want it, at least once, in order.
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order of delivery, and the cursor of every destination
    id TEXT NOT NULL UNIQUE,                -- the event's id: the de-duplication key consumers keep
    event TEXT NOT NULL,                    -- ari, booking_new, booking_modification, booking_cancellation, ...
    property_id TEXT,                       -- no foreign key: a property's last events outlive it
    channel_id TEXT,                        -- set when meant for that channel alone (its full sync, its sync errors)
    payload TEXT NOT NULL,                  -- JSON
    inserted_at TEXT NOT NULL
);
CREATE INDEX events_inserted ON events(inserted_at);

-- Where events go: a webhook, or a channel that takes ARI by push or pull. `cursor` is the last event handled;
-- the head event after it is retried with backoff until it goes or the attempts run out (then `failing_since`).
CREATE TABLE destinations (
    id TEXT PRIMARY KEY,                    -- the webhook's or the channel's id
    kind TEXT NOT NULL,                     -- webhook | channel
    cursor INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,    -- failed attempts at the head event
    next_attempt_at TEXT,                   -- null: now
    last_error TEXT,
    failing_since TEXT,                     -- set when the attempts ran out: nothing goes until resumed
    last_delivered_at TEXT
);

-- What was sent where (the delivery log): one row per destination and event, updated on each attempt.
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    destination_id TEXT NOT NULL,
    event_seq INTEGER NOT NULL,
    status TEXT NOT NULL,                   -- delivered | retrying | failed
    attempts INTEGER NOT NULL,
    response_status INTEGER,
    last_error TEXT,
    next_retry_at TEXT,
    updated_at TEXT NOT NULL,
    UNIQUE (destination_id, event_seq)
);
CREATE INDEX deliveries_recent ON deliveries(destination_id, updated_at);

-- Events to send again on demand, outside the cursor's order.
CREATE TABLE redeliveries (
    destination_id TEXT NOT NULL,
    event_seq INTEGER NOT NULL,
    PRIMARY KEY (destination_id, event_seq)
);

-- A revision not acknowledged in 30 minutes is told once (non_acked_booking).
ALTER TABLE booking_revisions ADD COLUMN non_acked_told_at TEXT;
