-- The service's shapes (issue 12): a channel's `settings`, and per mapped rate plan an `id` and `settings`;
-- hotel policies get an `id` of their own (/hotel_policies/:id) and the service's `by_arrangements`.
ALTER TABLE channels ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';  -- JSON object, the channel's own

ALTER TABLE channel_rate_plans ADD COLUMN id TEXT;
ALTER TABLE channel_rate_plans ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';  -- JSON object, the mapping's
UPDATE channel_rate_plans SET id = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
    substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1) ||
    substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)));
CREATE UNIQUE INDEX channel_rate_plans_id ON channel_rate_plans(id);

ALTER TABLE hotel_policies ADD COLUMN id TEXT;
UPDATE hotel_policies SET id = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
    substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1) ||
    substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)));
CREATE UNIQUE INDEX hotel_policies_id ON hotel_policies(id);
UPDATE hotel_policies SET policy = json_set(policy, '$.pets_policy', 'by_arrangements')
    WHERE json_extract(policy, '$.pets_policy') = 'by_arrangement';
