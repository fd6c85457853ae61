-- Taxes and tax sets, the service's own objects (reference §10): a property's taxes, gathered into tax sets with a
-- level each (the order they are computed in); a rate plan is priced with its tax set (rate_plans.tax_set_id,
-- none: no taxes). A set or tax whose rate_plan_id is set is that rate plan's own, written from its embedded
-- `taxes[]`, and goes with it. The first set a property gets is its default (is_default: at most one a property,
-- held by the unique index whatever writes at once). The embedded taxes stored before are moved into sets by the
-- data step `tax_sets`.
CREATE TABLE taxes (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    rate_plan_id TEXT REFERENCES rate_plans(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    logic TEXT NOT NULL,
    type TEXT NOT NULL,
    rate TEXT NOT NULL,                -- a percentage for logic percent, else an amount of `currency`
    currency TEXT,
    is_inclusive INTEGER NOT NULL,
    skip_nights INTEGER,
    max_nights INTEGER,
    applicable_date_ranges TEXT NOT NULL,  -- JSON: [{"after", "before"}]
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX taxes_property ON taxes(property_id, title);
CREATE INDEX taxes_rate_plan ON taxes(rate_plan_id);
CREATE TABLE tax_sets (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    rate_plan_id TEXT REFERENCES rate_plans(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    currency TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL           -- stamped anew when one of its taxes changes too
);
CREATE INDEX tax_sets_property ON tax_sets(property_id, title);
CREATE UNIQUE INDEX tax_sets_default ON tax_sets(property_id) WHERE is_default = 1;
CREATE UNIQUE INDEX tax_sets_rate_plan ON tax_sets(rate_plan_id) WHERE rate_plan_id IS NOT NULL;
CREATE TABLE tax_set_taxes (
    tax_set_id TEXT NOT NULL REFERENCES tax_sets(id) ON DELETE CASCADE,
    tax_id TEXT NOT NULL REFERENCES taxes(id) ON DELETE CASCADE,
    level INTEGER NOT NULL,
    position INTEGER NOT NULL,         -- the order it was given in, within its level
    PRIMARY KEY (tax_set_id, tax_id)
);
CREATE INDEX tax_set_taxes_tax ON tax_set_taxes(tax_id);
ALTER TABLE rate_plans ADD COLUMN tax_set_id TEXT;
CREATE INDEX rate_plans_tax_set ON rate_plans(tax_set_id);
