"""Migration 0012 on a database of the version before it: a hotel policy's older parking type `nearby` becomes the
service's `location_nearby`; other values stay."""

from __future__ import annotations

import json

from tests.old_database import apply, migrated_up_to


def test_nearby_parking_becomes_location_nearby(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", "0012_parking_location_nearby.sql")
    for pid, parking in (("near", "nearby"), ("site", "on_site")):
        conn.execute("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, "
                     "updated_at) VALUES (?, 'g', 'P', 'EUR', '{}', '{}', 'now', 'now')", (pid,))
        conn.execute("INSERT INTO hotel_policies (id, property_id, policy, updated_at) VALUES (?, ?, ?, 'now')",
                     (f"h-{pid}", pid, json.dumps({"parking_type": parking, "pets_policy": "allowed"})))
    apply(conn, "0012_parking_location_nearby.sql")
    policies = {pid: json.loads(policy) for pid, policy in conn.execute("SELECT property_id, policy FROM hotel_policies")}
    assert policies == {"near": {"parking_type": "location_nearby", "pets_policy": "allowed"},
                        "site": {"parking_type": "on_site", "pets_policy": "allowed"}}
