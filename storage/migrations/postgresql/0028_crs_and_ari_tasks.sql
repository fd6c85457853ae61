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
ALTER TABLE hotel_policies DROP CONSTRAINT hotel_policies_pkey;
ALTER TABLE hotel_policies ALTER COLUMN property_id DROP NOT NULL;
ALTER TABLE hotel_policies ADD COLUMN group_id text REFERENCES groups(id) ON DELETE CASCADE;
UPDATE hotel_policies h SET group_id = p.group_id FROM properties p WHERE p.id = h.property_id;
ALTER TABLE hotel_policies ALTER COLUMN group_id SET NOT NULL;
DROP INDEX hotel_policies_id;
ALTER TABLE hotel_policies ADD PRIMARY KEY (id);
ALTER TABLE hotel_policies ADD CONSTRAINT hotel_policies_property_id_key UNIQUE (property_id);
CREATE INDEX hotel_policies_group ON hotel_policies(group_id);
