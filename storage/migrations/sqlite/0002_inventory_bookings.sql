-- Rooms, rates, availability and restrictions, hotel policies, channel rate-plan mappings, bookings.

CREATE TABLE room_types (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    count_of_rooms INTEGER NOT NULL,
    occ_adults INTEGER NOT NULL,
    occ_children INTEGER NOT NULL,
    occ_infants INTEGER NOT NULL,
    default_occupancy INTEGER NOT NULL,
    details TEXT NOT NULL,  -- JSON: description, bed_options, facilities, photos
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX room_types_property ON room_types(property_id, title, id);

CREATE TABLE rate_plans (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    room_type_id TEXT NOT NULL REFERENCES room_types(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    currency TEXT NOT NULL,
    sell_mode TEXT NOT NULL,
    meal_plan TEXT NOT NULL,
    details TEXT NOT NULL,  -- JSON: options, cancellation_policy, taxes
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX rate_plans_property ON rate_plans(property_id, title, id);
CREATE INDEX rate_plans_room_type ON rate_plans(room_type_id);

CREATE TABLE hotel_policies (
    property_id TEXT PRIMARY KEY REFERENCES properties(id) ON DELETE CASCADE,
    policy TEXT NOT NULL,  -- JSON object, every field filled in
    updated_at TEXT NOT NULL
);

-- One row per room type and night; a missing row means no availability.
CREATE TABLE availability (
    room_type_id TEXT NOT NULL REFERENCES room_types(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    availability INTEGER NOT NULL,
    PRIMARY KEY (room_type_id, date)
) WITHOUT ROWID;

-- One row per rate plan and night. rate is in the currency's minor units; NULL means no rate (not sold).
CREATE TABLE restrictions (
    rate_plan_id TEXT NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    rate INTEGER,
    min_stay_arrival INTEGER NOT NULL DEFAULT 1,
    min_stay_through INTEGER NOT NULL DEFAULT 1,
    max_stay INTEGER NOT NULL DEFAULT 0,
    closed_to_arrival INTEGER NOT NULL DEFAULT 0,
    closed_to_departure INTEGER NOT NULL DEFAULT 0,
    stop_sell INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (rate_plan_id, date)
) WITHOUT ROWID;

CREATE TABLE channel_rate_plans (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    rate_plan_id TEXT NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, rate_plan_id)
);
CREATE INDEX channel_rate_plans_rate_plan ON channel_rate_plans(rate_plan_id);

CREATE TABLE bookings (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    channel_id TEXT REFERENCES channels(id) ON DELETE SET NULL,
    unique_id TEXT NOT NULL,       -- <channel prefix>-<reservation_id>: unique within a channel
    reservation_id TEXT NOT NULL,
    ota_name TEXT NOT NULL,
    status TEXT NOT NULL,
    arrival_date TEXT NOT NULL,
    departure_date TEXT NOT NULL,
    amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    revision_id TEXT NOT NULL,
    body_hash TEXT NOT NULL,       -- SHA-256 of the masked request of the last revision: idempotent repeats
    taken TEXT NOT NULL,           -- JSON [[room_type_id, date], ...]: units this booking holds
    is_overbooked INTEGER NOT NULL DEFAULT 0,
    is_unmapped INTEGER NOT NULL DEFAULT 0,
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX bookings_property ON bookings(property_id, inserted_at);
CREATE UNIQUE INDEX bookings_channel_reservation ON bookings(channel_id, reservation_id);

CREATE TABLE booking_revisions (
    id TEXT PRIMARY KEY,
    booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    attributes TEXT NOT NULL,      -- JSON: the booking as of this revision, card data masked
    acked_at TEXT,
    inserted_at TEXT NOT NULL
);
CREATE INDEX booking_revisions_property ON booking_revisions(property_id, inserted_at);
CREATE INDEX booking_revisions_unacked ON booking_revisions(property_id, inserted_at) WHERE acked_at IS NULL;
CREATE INDEX booking_revisions_booking ON booking_revisions(booking_id, inserted_at);

-- Card data that arrived on the secure listener: AES-GCM ciphertext under a key kept outside this file.
CREATE TABLE booking_cards (
    revision_id TEXT PRIMARY KEY REFERENCES booking_revisions(id) ON DELETE CASCADE,
    nonce BLOB NOT NULL,
    ciphertext BLOB NOT NULL
);
