-- Users, groups and API tokens.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    default_group_id TEXT,
    inserted_at TEXT NOT NULL
);

CREATE TABLE groups (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    inserted_at TEXT NOT NULL
);

CREATE TABLE group_members (
    group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_members_user ON group_members(user_id);

-- Only the SHA-256 of a token is kept; `prefix` lets people tell their tokens apart.
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    inserted_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

-- Media store: property logos now, attachments later.
CREATE TABLE media (
    id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    source_url TEXT,
    data BLOB NOT NULL,
    inserted_at TEXT NOT NULL
);

CREATE TABLE facilities (
    id TEXT PRIMARY KEY,
    category TEXT NOT NULL,
    title TEXT NOT NULL
);

CREATE TABLE properties (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups(id),
    title TEXT NOT NULL,
    currency TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    zip_code TEXT,
    country TEXT,
    state TEXT,
    city TEXT,
    address TEXT,
    longitude TEXT,
    latitude TEXT,
    timezone TEXT,
    property_type TEXT,
    website TEXT,
    logo_media_id TEXT REFERENCES media(id),
    is_active INTEGER NOT NULL DEFAULT 1,
    settings TEXT NOT NULL,   -- JSON object, every field filled in
    content TEXT NOT NULL,    -- JSON object: description, important_information, photos
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX properties_group_title ON properties(group_id, title, id);  -- the list order, so a page stops early

CREATE TABLE property_facilities (
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    facility_id TEXT NOT NULL REFERENCES facilities(id),
    position INTEGER NOT NULL,
    PRIMARY KEY (property_id, facility_id)
);

CREATE TABLE channels (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups(id),
    title TEXT NOT NULL,
    channel_code TEXT NOT NULL,
    inbound_key_hash TEXT NOT NULL,
    provider_api_key_hash TEXT,
    is_active INTEGER NOT NULL DEFAULT 1,
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX channels_group ON channels(group_id);

CREATE TABLE channel_properties (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, property_id)
);
CREATE INDEX channel_properties_property ON channel_properties(property_id);

CREATE TABLE application_installations (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    application_code TEXT NOT NULL,
    inserted_at TEXT NOT NULL,
    UNIQUE (property_id, application_code)
);
