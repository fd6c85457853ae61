-- The reviews that can be answered now (backend/reviews/store.py `answerable_count`, the Reviews tab's count): no
-- reply yet nor one waiting, not hidden, the channel still there; by when they expire, so that a count reads only
-- those not expired yet (and those that never do), and by property, for the actor's reach.
CREATE INDEX reviews_to_answer ON reviews(expired_at, property_id)
    WHERE is_replied = 0 AND is_hidden = 0 AND channel_id IS NOT NULL;
