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

-- A hotel policy made on its own (the service's POST /hotel_policies without property_id), then named by a
-- property's `hotel_policy_id`: a policy belongs to its group, and to at most one property (null: none yet).
CREATE TABLE hotel_policies_new (
    id TEXT PRIMARY KEY,
    property_id TEXT UNIQUE REFERENCES properties(id) ON DELETE CASCADE,
    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
    policy TEXT NOT NULL,  -- JSON object, every field filled in
    updated_at TEXT NOT NULL
);
INSERT INTO hotel_policies_new (id, property_id, group_id, policy, updated_at)
    SELECT h.id, h.property_id, p.group_id, h.policy, h.updated_at FROM hotel_policies h
    JOIN properties p ON p.id = h.property_id;
DROP TABLE hotel_policies;
ALTER TABLE hotel_policies_new RENAME TO hotel_policies;
CREATE INDEX hotel_policies_group ON hotel_policies(group_id);
