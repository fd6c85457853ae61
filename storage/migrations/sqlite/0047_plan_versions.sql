-- A property's rate plans by title, with their version: the shopping reads and the property list ask (id,
-- updated_at) of a property's plans before every read of their nights (backend/inventory/calendar.py), and a plan's
-- row is long (its details), its updated_at read past them; from the index alone, that row is not read at all.
DROP INDEX rate_plans_property;
CREATE INDEX rate_plans_property ON rate_plans(property_id, title, id, updated_at);
