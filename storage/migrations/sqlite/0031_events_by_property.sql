-- A property's events in outbox order: a webhook is due only when its own property has an event after its cursor,
-- and reads only those (backend/outbox/store.py `due_destinations`); every webhook used to wake for every write.
CREATE INDEX events_property ON events(property_id, seq);
