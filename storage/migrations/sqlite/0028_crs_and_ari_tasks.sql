-- `GET /bookings?filter[ota_reservation_code]=` finds a booking by its reservation code in any channel: an index of
-- its own (bookings_channel_reservation starts with the channel).
CREATE INDEX bookings_reservation ON bookings(reservation_id);

-- The task each restrictions write answers with (the service's `{"data":[{"id","type":"task"}]}`): one per property
-- the write touched, written in its transaction, so a PMS's kept id proves the values were stored.
CREATE TABLE ari_tasks (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,            -- restrictions
    user_id TEXT,                  -- who wrote
    value_count INTEGER NOT NULL,  -- the values of the request for this property
    inserted_at TEXT NOT NULL
);
CREATE INDEX ari_tasks_property ON ari_tasks(property_id, inserted_at);
