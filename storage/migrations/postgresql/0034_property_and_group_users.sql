-- Properties in several groups (reference §11.1) and users of a property or of a group with a role (§11.2).

-- A property's groups: the one of `properties.group_id` (the property's `relationships.group`, where it was made) and
-- any it was added to. Access follows every one of them. An existing property is in its one group.
CREATE TABLE group_properties (
    group_id text NOT NULL REFERENCES groups(id),
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    PRIMARY KEY (property_id, group_id)
);
CREATE INDEX group_properties_group ON group_properties(group_id, property_id);  -- a user's properties, by group
INSERT INTO group_properties (group_id, property_id) SELECT group_id, id FROM properties;

-- A user given one property alone: `owner` manages its users and may delete it, `user` does the rest.
CREATE TABLE property_users (
    id text PRIMARY KEY,
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role text NOT NULL,        -- owner | user
    overrides text,            -- a JSON object, kept and shown back; it grants nothing
    UNIQUE (property_id, user_id)
);
CREATE INDEX property_users_user ON property_users(user_id, property_id);

-- Group users are the group's members, each now with an id and a role. A member of before is an owner: they could
-- do everything in the group, managing it included. A row written without id or role (as older code wrote them)
-- gets a new UUID v4 and `owner`.
ALTER TABLE group_members ADD COLUMN id text NOT NULL DEFAULT gen_random_uuid()::text;
ALTER TABLE group_members ADD CONSTRAINT group_members_id_key UNIQUE (id);
ALTER TABLE group_members ADD COLUMN role text NOT NULL DEFAULT 'owner';
ALTER TABLE group_members ADD COLUMN overrides text;
DROP INDEX group_members_user;
CREATE INDEX group_members_user ON group_members(user_id, group_id);
