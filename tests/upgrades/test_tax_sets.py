"""Taxes that rate plans embedded before storage 0033 move into each plan's own tax set, by the data step
`tax_sets`: the schema step on a database of the version before it, then the data step on every store (the plan's
taxes as an earlier version stored them, put back in its details)."""

from __future__ import annotations

import json

from backend.upgrades.steps import run_pending
from backend.upgrades.tax_sets import STEP
from tests.conftest import CONTACT
from tests.old_database import apply, migrated_up_to

EMBEDDED = [{"title": "VAT", "mode": "percent", "rate": "7.7", "inclusive": True, "amount": None},
            {"title": "City tax", "mode": "per_person_per_night", "rate": "2.5", "inclusive": False, "amount": None}]


def test_the_schema_step_applies_to_a_database_with_rate_plans(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", "0033_tax_sets.sql")
    conn.execute("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, updated_at) "
                 "VALUES ('p', 'g', 'P', 'EUR', '{}', '{}', 'now', 'now')")
    conn.execute("INSERT INTO room_types (id, property_id, title, count_of_rooms, occ_adults, occ_children, occ_infants, "
                 "default_occupancy, details, inserted_at, updated_at) VALUES ('r', 'p', 'R', 1, 2, 0, 0, 2, '{}', "
                 "'now', 'now')")
    conn.execute("INSERT INTO rate_plans (id, property_id, room_type_id, title, currency, sell_mode, meal_type, details, "
                 "inserted_at, updated_at) VALUES ('bar', 'p', 'r', 'BAR', 'EUR', 'per_room', 'none', ?, 'now', 'now')",
                 (json.dumps({"taxes": EMBEDDED}),))
    apply(conn, "0033_tax_sets.sql")
    assert conn.execute("SELECT tax_set_id FROM rate_plans").fetchall() == [(None,)]  # the data step moves them


def test_embedded_taxes_become_the_plans_own_set_and_read_as_before(engine):
    actor = engine.identity.operator()
    prop = engine.properties.create(actor, {"title": "Hotel", "currency": "EUR", **CONTACT})["id"]
    room = engine.inventory.room_types.create(actor, {"property_id": prop, "title": "Double", "count_of_rooms": 1,
                                                      "occ_adults": 2})["id"]
    plans = [engine.inventory.rate_plans.create(actor, {"property_id": prop, "room_type_id": room, "title": title,
                                                        "options": [{"occupancy": 2, "rate": "100.00"}]})["id"]
             for title in ("BAR", "Bare")]
    # as an earlier version left the first: its taxes in its details, no tax sets
    with engine.store.transaction() as conn:
        details = json.loads(conn.execute("SELECT details FROM rate_plans WHERE id = ?", (plans[0],)).fetchone()[0])
        conn.execute("UPDATE rate_plans SET details = ? WHERE id = ?",
                     (json.dumps({**details, "taxes": EMBEDDED}), plans[0]))
        conn.execute("DELETE FROM data_steps WHERE name = ?", (STEP.name,))

    assert run_pending(engine, [STEP]) == {"tax_sets": 2}
    moved = engine.inventory.rate_plans.get(actor, plans[0])
    assert [(t["title"], t["mode"], t["rate"], t["inclusive"], t["level"]) for t in moved["taxes"]] == [
        ("VAT", "percent", "7.7", True, 0), ("City tax", "per_person_per_night", "2.50", False, 0)]
    own = engine.inventory.tax_sets.get(actor, moved["tax_set_id"])
    assert own["associated_rate_plan_ids"] == [plans[0]] and own["rate_plan_id"] == plans[0]
    assert not own["is_default"]
    assert "taxes" not in json.loads(engine.store.scalar("SELECT details FROM rate_plans WHERE id = ?", (plans[0],)))
    assert engine.inventory.rate_plans.get(actor, plans[1])["tax_set_id"] is None
    assert run_pending(engine) == {}  # once
