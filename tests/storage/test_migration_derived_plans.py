"""Migration 0010 on a database of the version before it: restriction values that were only the old defaults
become "no value of its own" (so the plan's weekday defaults apply to them), set values stay, and rate plans
get their parent column and the service's name for the meal."""

from __future__ import annotations

from tests.old_database import apply, migrated_up_to


def test_old_default_values_become_the_weekday_defaults_own(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", "0010_derived_rate_plans.sql")
    conn.execute("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, updated_at) "
                 "VALUES ('p', 'g', 'P', 'EUR', '{}', '{}', 'now', 'now')")
    conn.execute("INSERT INTO room_types (id, property_id, title, count_of_rooms, occ_adults, occ_children, occ_infants, "
                 "default_occupancy, details, inserted_at, updated_at) VALUES ('r', 'p', 'R', 1, 2, 0, 0, 2, '{}', "
                 "'now', 'now')")
    conn.execute("INSERT INTO rate_plans (id, property_id, room_type_id, title, currency, sell_mode, meal_plan, details, "
                 "inserted_at, updated_at) VALUES ('bar', 'p', 'r', 'BAR', 'EUR', 'per_room', 'breakfast', '{}', "
                 "'now', 'now')")
    conn.executemany("INSERT INTO restrictions (rate_plan_id, date, rate, min_stay_arrival, min_stay_through, max_stay, "
                     "closed_to_arrival, closed_to_departure, stop_sell) VALUES ('bar', ?, ?, ?, 1, 0, ?, 0, 0)",
                     [("2026-12-01", 10000, 1, 0), ("2026-12-02", 12000, 3, 1), ("2026-12-03", None, 1, 0)])
    apply(conn, "0010_derived_rate_plans.sql")
    rows = conn.execute("SELECT date, rate, min_stay_arrival, min_stay_through, max_stay, closed_to_arrival, "
                        "closed_to_departure, stop_sell FROM restrictions ORDER BY date").fetchall()
    assert rows == [("2026-12-01", 10000, None, None, None, None, None, None),
                    ("2026-12-02", 12000, 3, None, None, 1, None, None)]  # a row of nothing is not kept
    assert conn.execute("SELECT meal_type, parent_rate_plan_id FROM rate_plans").fetchall() == [("breakfast", None)]
