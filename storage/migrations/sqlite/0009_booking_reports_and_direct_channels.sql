-- Issue 12: what staff report to a booking's channel (no-show, invalid card, cancelled for an invalid card),
-- waiting for the channel's adapter until it acknowledges each; and each property's direct channel, which
-- holds the bookings the property takes itself (the CRS create, `OFL-` numbers), made on first use.
CREATE TABLE booking_reports (
    id TEXT PRIMARY KEY,
    booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    channel_id TEXT REFERENCES channels(id) ON DELETE SET NULL,  -- kept on the booking when the channel goes
    kind TEXT NOT NULL,            -- no_show | invalid_card | cancel_due_invalid_card
    waived_fees INTEGER,           -- a no-show's: whether the property waives its fees
    user_id TEXT,                  -- who reported it (the console's operator too)
    inserted_at TEXT NOT NULL,
    delivered_at TEXT,             -- when the channel's adapter acknowledged it
    UNIQUE (booking_id, kind)
);
CREATE INDEX booking_reports_undelivered ON booking_reports(channel_id, inserted_at) WHERE delivered_at IS NULL;

CREATE TABLE direct_channels (
    property_id TEXT PRIMARY KEY REFERENCES properties(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL UNIQUE REFERENCES channels(id) ON DELETE CASCADE
);
-- A direct channel belongs to its property alone: it goes with it.
CREATE TRIGGER direct_channels_gone AFTER DELETE ON direct_channels BEGIN
    DELETE FROM channels WHERE id = OLD.channel_id;
END;
