-- Issue 12: rate plans as the service shapes them. A derived plan follows its parent (rate_mode is "derived"
-- exactly when it has one); the column keeps a parent from being deleted under its children. The meal column
-- takes the service's name. Restrictions keep only the values a night has of its own: NULL reads the plan's
-- weekday default, so the old defaults (min stay 1, max stay 0, flags off) become NULL, as every plan's
-- weekday defaults start out equal to them.
ALTER TABLE rate_plans ADD COLUMN parent_rate_plan_id TEXT REFERENCES rate_plans(id);
CREATE INDEX rate_plans_parent ON rate_plans(parent_rate_plan_id) WHERE parent_rate_plan_id IS NOT NULL;
ALTER TABLE rate_plans RENAME COLUMN meal_plan TO meal_type;

CREATE TABLE restrictions_own (
    rate_plan_id TEXT NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    rate INTEGER,  -- minor units; NULL: no rate
    min_stay_arrival INTEGER,  -- NULL in these six: the plan's default for the weekday
    min_stay_through INTEGER,
    max_stay INTEGER,
    closed_to_arrival INTEGER,
    closed_to_departure INTEGER,
    stop_sell INTEGER,
    PRIMARY KEY (rate_plan_id, date)
) WITHOUT ROWID;
INSERT INTO restrictions_own
    SELECT rate_plan_id, date, rate, NULLIF(min_stay_arrival, 1), NULLIF(min_stay_through, 1), NULLIF(max_stay, 0),
           NULLIF(closed_to_arrival, 0), NULLIF(closed_to_departure, 0), NULLIF(stop_sell, 0)
    FROM restrictions
    WHERE rate IS NOT NULL OR min_stay_arrival != 1 OR min_stay_through != 1 OR max_stay != 0
       OR closed_to_arrival != 0 OR closed_to_departure != 0 OR stop_sell != 0;
DROP TABLE restrictions;
ALTER TABLE restrictions_own RENAME TO restrictions;
