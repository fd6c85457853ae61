-- A property's events in outbox position order (SQLite's 0031): a webhook is due only when its own property has an
-- event after its cursor, and reads only those.
CREATE INDEX events_property ON events(property_id, pos);
