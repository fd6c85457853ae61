"""Migration 0034 on a database of the version before it: each property's one group becomes its group_properties
row, and each group member of before a group user with an id of its own and the role `owner` (a member could do
everything in the group, managing it included). No property users yet."""

from __future__ import annotations

import os
import uuid

import psycopg
import pytest

from storage.migrations import postgresql_steps, script
from tests.old_database import apply, migrated_up_to
from tests.stores import PORT_ENV, cluster

STEP = "0034_property_and_group_users.sql"


def test_groups_and_members_of_before_become_group_properties_and_owners(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", STEP)
    conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('h', 'H', 'now')")
    for user in ("ann", "bob"):
        conn.execute("INSERT INTO users (id, email, default_group_id, inserted_at) VALUES (?, ?, 'g', 'now')",
                     (user, f"{user}@example.com"))
    conn.executemany("INSERT INTO group_members (group_id, user_id) VALUES (?, ?)",
                     [("g", "ann"), ("g", "bob"), ("h", "bob")])
    for pid, group in (("p1", "g"), ("p2", "g"), ("p3", "h")):
        conn.execute("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, "
                     "updated_at) VALUES (?, ?, 'P', 'EUR', '{}', '{}', 'now', 'now')", (pid, group))

    apply(conn, STEP)

    assert sorted(conn.execute("SELECT property_id, group_id FROM group_properties")) == [
        ("p1", "g"), ("p2", "g"), ("p3", "h")]
    members = conn.execute("SELECT id, group_id, user_id, role, overrides FROM group_members").fetchall()
    assert sorted(m[1:] for m in members) == [("g", "ann", "owner", None), ("g", "bob", "owner", None),
                                              ("h", "bob", "owner", None)]
    ids = [m[0] for m in members]
    assert len(set(ids)) == 3 and all(uuid.UUID(i).version == 4 for i in ids)
    assert conn.execute("SELECT count(*) FROM property_users").fetchone() == (0,)
    # A row written as older code wrote it still gets an id and a role.
    conn.execute("INSERT INTO group_members (group_id, user_id) VALUES ('h', 'ann')")
    assert conn.execute("SELECT role, length(id) FROM group_members WHERE user_id = 'ann' AND group_id = 'h'"
                        ).fetchone() == ("owner", 36)


def test_postgresql_makes_the_same_of_the_same_rows():
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    url = cluster().empty(f"m{uuid.uuid4().hex[:16]}")
    try:
        _same_rows(url)
    finally:
        cluster().drop(url)


def _same_rows(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for _, name in postgresql_steps():
            if name == STEP:
                break
            conn.execute(script("postgresql", name))
        conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', 'now'), ('h', 'H', 'now')")
        conn.execute("INSERT INTO users (id, email, default_group_id, inserted_at) VALUES "
                     "('ann', 'ann@example.com', 'g', 'now'), ('bob', 'bob@example.com', 'g', 'now')")
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES ('g', 'ann'), ('g', 'bob'), ('h', 'bob')")
        conn.execute("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, "
                     "updated_at) VALUES ('p1', 'g', 'P', 'EUR', '{}', '{}', 'now', 'now'), "
                     "('p3', 'h', 'P', 'EUR', '{}', '{}', 'now', 'now')")

        conn.execute(script("postgresql", STEP))

        assert sorted(conn.execute("SELECT property_id, group_id FROM group_properties")) == [("p1", "g"), ("p3", "h")]
        members = conn.execute("SELECT id, group_id, user_id, role FROM group_members").fetchall()
        assert sorted(m[1:] for m in members) == [("g", "ann", "owner"), ("g", "bob", "owner"), ("h", "bob", "owner")]
        assert len({m[0] for m in members}) == 3 and all(uuid.UUID(m[0]).version == 4 for m in members)
