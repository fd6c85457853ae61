-- Guests' reviews of their stays from Booking.com and Airbnb, and the property's answers (backend/reviews/). A review
-- is the channel's by its own id (`ota_review_id`, unique per channel: the same review sent twice is one row). The
-- reply and the host's review of the guest wait for the channel's adapter on the review's own row (`*_state`
-- 'pending'), written in the transaction that stores them, until the adapter acknowledges them.
CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id TEXT REFERENCES channels(id) ON DELETE SET NULL,
    ota TEXT NOT NULL,                       -- AirBNB | BookingCom
    ota_review_id TEXT NOT NULL,
    ota_reservation_id TEXT,
    booking_id TEXT REFERENCES bookings(id) ON DELETE SET NULL,
    listing_id TEXT,
    guest_name TEXT NOT NULL DEFAULT '',
    content TEXT,
    raw_content TEXT NOT NULL,               -- JSON: the channel's own text and scores, on its own scale
    overall_score REAL,                      -- out of 10
    scores TEXT NOT NULL,                    -- JSON: [{category, score}], out of 10
    tags TEXT NOT NULL,                      -- JSON: the channel's tag codes
    received_at TEXT NOT NULL,
    expired_at TEXT,                         -- after it, the channel takes no reply
    is_hidden INTEGER NOT NULL DEFAULT 0,
    is_replied INTEGER NOT NULL DEFAULT 0,
    reply TEXT,
    reply_state TEXT,                        -- pending | delivered | failed
    reply_user_id TEXT,
    reply_scheduled_at TEXT,
    reply_sent_at TEXT,
    reply_error TEXT,
    guest_review TEXT,                       -- JSON: the host's review of the guest (Airbnb)
    guest_review_state TEXT,
    guest_review_scheduled_at TEXT,
    guest_review_sent_at TEXT,
    guest_review_error TEXT,
    body_hash TEXT NOT NULL,                 -- of what the channel last sent: a repeat changes nothing
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX reviews_channel_review ON reviews(channel_id, ota_review_id);
-- Newest first, overall and per property, so that a page stops at its last row; unanswered ones apart.
CREATE INDEX reviews_newest ON reviews(received_at DESC, id);
CREATE INDEX reviews_property_newest ON reviews(property_id, received_at DESC, id);
CREATE INDEX reviews_unreplied_newest ON reviews(received_at DESC, id) WHERE is_replied = 0;
CREATE INDEX reviews_booking ON reviews(booking_id);
-- The adapters' feeds: what waits for each channel.
CREATE INDEX reviews_reply_pending ON reviews(channel_id, reply_scheduled_at) WHERE reply_state = 'pending';
CREATE INDEX reviews_guest_review_pending ON reviews(channel_id, guest_review_scheduled_at)
    WHERE guest_review_state = 'pending';

-- Per property and channel, kept in the transaction of each write: how many reviews, how many not answered, and the
-- sum of their overall scores (in hundredths, so that adding and taking away is exact); per category the same.
-- Scores and list totals are read from here, never by scanning the reviews. Keyed by the channel a review came from,
-- also once that channel is deleted.
CREATE TABLE review_counts (
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL,
    ota TEXT NOT NULL,
    reviews INTEGER NOT NULL,
    unreplied INTEGER NOT NULL,
    scored INTEGER NOT NULL,
    score_total INTEGER NOT NULL,
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (property_id, channel_id)
);
CREATE TABLE review_scores (
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL,
    category TEXT NOT NULL,
    count INTEGER NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (property_id, channel_id, category)
);
