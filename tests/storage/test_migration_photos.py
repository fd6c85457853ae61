"""Migration 0035 on a database of the version before it, on both stores: the photos kept in a property's `content`
and a room type's `details` become rows of `photos`, in their list's order, numbered from 0, with what each held,
and leave the JSON they were in (whose other keys stay as they were)."""

from __future__ import annotations

import json
import os
import uuid

import psycopg
import pytest

from backend.engine import Engine
from backend.properties.models import Settings
from storage.migrations import STEPS, postgresql_steps, script
from tests.old_database import apply, migrated_up_to
from tests.stores import PORT_ENV, cluster

STEP = "0035_photos.sql"
NOW = "2026-01-01T00:00:00.000000"
SETTINGS = Settings().model_dump_json()
PROPERTY_CONTENT = {"description": "By the sea", "important_information": None, "photos": [
    {"url": "https://img.example.com/cover.jpg", "position": 0, "author": "Ann", "kind": "photo",
     "description": "Cover"},
    {"url": "https://img.example.com/menu.jpg", "position": 1, "author": None, "kind": "menu", "description": None}]}
ROOM_DETAILS = {"description": "Quiet", "bed_options": [], "facilities": [], "room_kind": "room", "photos": [
    {"url": "https://img.example.com/r1.jpg", "title": "Garden side", "author": None, "description": None,
     "kind": "photo", "position": None},
    {"url": "https://img.example.com/r2.jpg", "title": None, "author": "Bo", "description": None, "kind": "ad",
     "position": 7}]}
OLD_ROWS = [
    ("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, updated_at) "
     "VALUES ('p', 'g', 'P', 'EUR', ?, ?, ?, ?)", (SETTINGS, json.dumps(PROPERTY_CONTENT), NOW, NOW)),
    ("INSERT INTO properties (id, group_id, title, currency, settings, content, inserted_at, updated_at) "
     "VALUES ('bare', 'g', 'Bare', 'EUR', ?, ?, ?, ?)",
     (SETTINGS, json.dumps({"description": None, "photos": []}), NOW, NOW)),
    ("INSERT INTO room_types (id, property_id, title, count_of_rooms, occ_adults, occ_children, occ_infants, "
     "default_occupancy, details, inserted_at, updated_at) VALUES ('r', 'p', 'R', 1, 2, 0, 0, 2, ?, ?, ?)",
     (json.dumps(ROOM_DETAILS), NOW, NOW)),
]
PHOTOS = "SELECT property_id, room_type_id, url, kind, position, author, description, title FROM photos " \
         "ORDER BY property_id, COALESCE(room_type_id, ''), position"
EXPECTED = [
    ("p", None, "https://img.example.com/cover.jpg", "photo", 0, "Ann", "Cover", None),
    ("p", None, "https://img.example.com/menu.jpg", "menu", 1, None, None, None),
    ("p", "r", "https://img.example.com/r1.jpg", "photo", 0, None, None, "Garden side"),
    ("p", "r", "https://img.example.com/r2.jpg", "ad", 1, "Bo", None, None),
]


def _check(photos: list[tuple], ids: list[str], content: str, details: str) -> None:
    assert photos == EXPECTED
    assert all(uuid.UUID(photo_id).version == 4 for photo_id in ids) and len(set(ids)) == len(ids)
    assert json.loads(content) == {k: v for k, v in PROPERTY_CONTENT.items() if k != "photos"}
    assert json.loads(details) == {k: v for k, v in ROOM_DETAILS.items() if k != "photos"}


def test_sqlite_moves_content_photos_into_the_photos_table(tmp_path):
    conn = migrated_up_to(tmp_path / "old.db", STEP)
    for statement, params in OLD_ROWS:
        conn.execute(statement, params)

    apply(conn, STEP)

    _check([tuple(row) for row in conn.execute(PHOTOS)], [row[0] for row in conn.execute("SELECT id FROM photos")],
           conn.execute("SELECT content FROM properties WHERE id = 'p'").fetchone()[0],
           conn.execute("SELECT details FROM room_types WHERE id = 'r'").fetchone()[0])


def test_postgresql_moves_content_photos_into_the_photos_table():
    if PORT_ENV not in os.environ:
        pytest.skip("this run has no PostgreSQL")
    url = cluster().empty(f"old_{uuid.uuid4().hex[:16]}")
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            for number, name in postgresql_steps():
                if number <= STEPS.index(STEP):
                    conn.execute(script("postgresql", name))
            conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', %s)", (NOW,))
            for statement, params in OLD_ROWS:
                conn.execute(statement.replace("?", "%s"), params)

            conn.execute(script("postgresql", STEP))

            _check(conn.execute(PHOTOS).fetchall(), [row[0] for row in conn.execute("SELECT id FROM photos")],
                   conn.execute("SELECT content FROM properties WHERE id = 'p'").fetchone()[0],
                   conn.execute("SELECT details FROM room_types WHERE id = 'r'").fetchone()[0])
    finally:
        cluster().drop(url)


def test_the_moved_photos_are_what_the_api_reads(tmp_path):
    """An old database opened by this version: its property's content.photos are the rows the step made."""
    path = tmp_path / "old.db"
    conn = migrated_up_to(path, STEP)
    for statement, params in OLD_ROWS:
        conn.execute(statement, params)
    conn.execute(f"PRAGMA user_version = {STEPS.index(STEP)}")  # as the older version left it
    conn.close()
    engine = Engine.open(path)
    try:
        operator = engine.identity.operator()  # sees every group
        photos = engine.properties.get(operator, "p")["content"]["photos"]
        room = engine.inventory.room_types.get(operator, "r")["content"]["photos"]
        assert [(p["url"], p["position"]) for p in photos] == [(row[2], row[4]) for row in EXPECTED[:2]]
        assert [(p["url"], p["title"]) for p in room] == [(row[2], row[7]) for row in EXPECTED[2:]]
    finally:
        engine.close()
