-- Availability rules (reference §9): per channel and room type, a close out, an offset or a ceiling of the
-- availability a channel is sent and sells (backend/inventory/channel_rules.py). `days` and `affected_room_types` are
-- JSON lists; a rule's channels are rows of their own, so that a channel's rules are found by an index and leave with
-- the channel.
CREATE TABLE channel_availability_rules (
    id text PRIMARY KEY,
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    title text NOT NULL,
    type text NOT NULL,
    value integer,
    days text NOT NULL,
    start_date text NOT NULL,
    end_date text,
    affected_room_types text NOT NULL,
    inserted_at text NOT NULL,
    updated_at text NOT NULL
);
CREATE INDEX channel_availability_rules_property ON channel_availability_rules(property_id, inserted_at);
CREATE TABLE channel_availability_rule_channels (
    rule_id text NOT NULL REFERENCES channel_availability_rules(id) ON DELETE CASCADE,
    channel_id text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    ordinal integer NOT NULL,
    PRIMARY KEY (rule_id, channel_id)
);
CREATE INDEX channel_availability_rule_channels_channel ON channel_availability_rule_channels(channel_id);
