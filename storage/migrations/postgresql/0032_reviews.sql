-- Guests' reviews and the property's answers (SQLite's 0032, which says what each column holds). A review
-- is the channel's by its own id (`ota_review_id`, unique per channel: the same review sent twice is one row). The
-- reply and the host's review of the guest wait for the channel's adapter on the review's own row (`*_state`
-- 'pending'), written in the transaction that stores them, until the adapter acknowledges them.
CREATE TABLE reviews (
    id text PRIMARY KEY,
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id text REFERENCES channels(id) ON DELETE SET NULL,
    ota text NOT NULL,                       -- AirBNB | BookingCom
    ota_review_id text NOT NULL,
    ota_reservation_id text,
    booking_id text REFERENCES bookings(id) ON DELETE SET NULL,
    listing_id text,
    guest_name text NOT NULL DEFAULT '',
    content text,
    raw_content text NOT NULL,               -- JSON: the channel's own text and scores, on its own scale
    overall_score double precision,                      -- out of 10
    scores text NOT NULL,                    -- JSON: [{category, score}], out of 10
    tags text NOT NULL,                      -- JSON: the channel's tag codes
    received_at text NOT NULL,
    expired_at text,                         -- after it, the channel takes no reply
    is_hidden integer NOT NULL DEFAULT 0,
    is_replied integer NOT NULL DEFAULT 0,
    reply text,
    reply_state text,                        -- pending | delivered | failed
    reply_user_id text,
    reply_scheduled_at text,
    reply_sent_at text,
    reply_error text,
    guest_review text,                       -- JSON: the host's review of the guest (Airbnb)
    guest_review_state text,
    guest_review_scheduled_at text,
    guest_review_sent_at text,
    guest_review_error text,
    body_hash text NOT NULL,                 -- of what the channel last sent: a repeat changes nothing
    inserted_at text NOT NULL,
    updated_at text NOT NULL
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
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id text NOT NULL,
    ota text NOT NULL,
    reviews integer NOT NULL,
    unreplied integer NOT NULL,
    scored integer NOT NULL,
    score_total integer NOT NULL,
    inserted_at text NOT NULL,
    updated_at text NOT NULL,
    PRIMARY KEY (property_id, channel_id)
);
CREATE TABLE review_scores (
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id text NOT NULL,
    category text NOT NULL,
    count integer NOT NULL,
    total integer NOT NULL,
    PRIMARY KEY (property_id, channel_id, category)
);
