-- The card form's quota (backend/vault/card_form.py) is counted here, so that it holds across processes and restarts:
-- sessions per client address and per channel and property, with no ceiling for everyone that one stranger can fill.
ALTER TABLE card_form_sessions ADD COLUMN client TEXT;  -- the asking address (IPv4, or IPv6 /64), while it counts
ALTER TABLE card_form_sessions ADD COLUMN property_id TEXT NOT NULL DEFAULT '';  -- the property asked for, or ''
CREATE INDEX card_form_sessions_client ON card_form_sessions(client, inserted_at);
CREATE INDEX card_form_sessions_property ON card_form_sessions(channel_ids, property_id, inserted_at);
