"""The Layout guide (docs/layout.md) is true: every table of the schema is listed once, under the domain whose
store writes it, and each domain has its package, its `store.py` and its tests' folder."""

from __future__ import annotations

import re
from pathlib import Path

from storage import open_store
from storage.copy import TEXT_INDEXES
from tests.test_sql_homes import writers

ROOT = Path(__file__).resolve().parents[1]
# Kept by triggers of the schema, not by a statement of a store.
TRIGGERS = {"thread_counts", "booking_counts", "thread_search", "message_search"}


def _documented() -> dict[str, str]:
    """table -> domain, from the Layout guide's table of tables."""
    guide = (ROOT / "docs" / "layout.md").read_text()
    header = "| domain | tables |\n|---|---|\n"
    section = guide[guide.index(header) + len(header):].split("\n\n")[0]
    rows = re.findall(r"^\| (\w+) \| ([\w, ]+) \|$", section, re.M)
    listed = [(table.strip(), domain) for domain, tables in rows for table in tables.split(",")]
    assert len(listed) == len(dict(listed)), "a table listed twice"
    return dict(listed)


def test_every_table_is_listed_once(tmp_path):
    store = open_store(tmp_path / "schema.db")
    try:
        tables = {row[0] for row in store.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            if not any(row[0].startswith(f"{index}_") for index in TEXT_INDEXES)}  # an FTS5 table's own tables
    finally:
        store.close()

    assert set(_documented()) == tables


def test_each_table_is_written_by_the_domain_it_is_listed_under():
    documented, written = _documented(), writers()
    for table, domain in documented.items():
        store = ROOT / "backend" / domain / "store.py"
        assert re.search(rf"\b{table}\b", store.read_text()), f"{table} is not in {store}"
        assert written.get(table, {domain}) <= {domain}, f"{table} is written by {written[table]}"
        if table not in TRIGGERS:
            assert table in written or "{table" in store.read_text(), f"nothing writes {table}"


def test_each_domain_has_its_tests_folder():
    for domain in set(_documented().values()):
        assert (ROOT / "tests" / domain).is_dir(), f"tests/{domain}/"
