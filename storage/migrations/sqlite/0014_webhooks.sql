-- Webhooks for integrators (backend/webhooks/): a property's events POSTed to a callback URL, signed with the
-- webhook's secret. Each webhook is a destination of the outbox (destinations.id = webhooks.id).
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id),  -- who made it
    callback_url TEXT NOT NULL,
    event_mask TEXT NOT NULL,               -- as sent: `*`, `booking,message`, `ari:rate:*:<rate_plan_id>`, ...
    headers TEXT,                           -- JSON object or null: added to every request
    request_params TEXT,                    -- JSON object or null: added to the callback URL's query
    is_active INTEGER NOT NULL DEFAULT 1,
    send_data INTEGER NOT NULL DEFAULT 1,
    secret TEXT NOT NULL,                   -- the signing secret (whsec_...): in clear, since signing needs it
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX webhooks_property ON webhooks(property_id);

-- A webhook's place in the outbox and its delivery log go with it, however it goes (deleted, or its property).
CREATE TRIGGER webhooks_gone AFTER DELETE ON webhooks BEGIN
    DELETE FROM deliveries WHERE destination_id = OLD.id;
    DELETE FROM redeliveries WHERE destination_id = OLD.id;
    DELETE FROM destinations WHERE id = OLD.id;
END;
