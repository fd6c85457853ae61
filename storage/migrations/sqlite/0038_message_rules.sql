-- Messages that send themselves: a rule of one property (`property_id`) or of every property of a group (`group_id`)
-- sends a saved reply (`message_template_id`, filled at send time) to a booking's guest on a booking event. `active_from` is stamped on create and on resume: only
-- what falls due from then on is sent, so a new (or resumed) rule never writes to every past booking.
CREATE TABLE message_rules (
    id TEXT PRIMARY KEY,
    group_id TEXT REFERENCES groups(id) ON DELETE CASCADE,
    property_id TEXT REFERENCES properties(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    event TEXT NOT NULL,                    -- booking_confirmed, before_arrival, arrival_day, after_departure
    days INTEGER NOT NULL DEFAULT 0,        -- before arrival / after departure
    send_at TEXT,                           -- HH:MM at the property; NULL for booking_confirmed
    message_template_id TEXT NOT NULL REFERENCES message_templates(id) ON DELETE CASCADE,  -- its text
    is_paused INTEGER NOT NULL DEFAULT 0,
    active_from TEXT NOT NULL,
    user_id TEXT REFERENCES users(id) ON DELETE SET NULL,  -- who wrote it
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK ((group_id IS NULL) <> (property_id IS NULL))
);
CREATE INDEX message_rules_group ON message_rules(group_id, title) WHERE group_id IS NOT NULL;
CREATE INDEX message_rules_property ON message_rules(property_id, title) WHERE property_id IS NOT NULL;

-- What a rule did for a booking, once: the sweep that inserts the row sends (or records why it did not), in the
-- message's own transaction, so two sweeps at once, or a restart, never send it twice. `message_id` names the message
-- sent (no reference: the row is written first, in the same transaction).
CREATE TABLE message_rule_sends (
    rule_id TEXT NOT NULL REFERENCES message_rules(id) ON DELETE CASCADE,
    booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    sent_at TEXT NOT NULL,
    message_id TEXT,
    skipped_reason TEXT,
    PRIMARY KEY (rule_id, booking_id)
);
CREATE INDEX message_rule_sends_booking ON message_rule_sends(booking_id);

-- A message a rule sent: "sent by the rule" in the conversation.
ALTER TABLE messages ADD COLUMN message_rule_id TEXT REFERENCES message_rules(id) ON DELETE SET NULL;

-- The sweep's look for the bookings a rule is due for: those arriving (or leaving) around today, property by property.
CREATE INDEX bookings_arrival ON bookings(property_id, arrival_date);
CREATE INDEX bookings_departure ON bookings(property_id, departure_date);
