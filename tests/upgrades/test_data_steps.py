"""Data steps run once per database, whoever opens it first, and a failed one is rolled back and tried again."""

from __future__ import annotations

import pytest

from backend.engine import Engine
from backend.upgrades.steps import DataStep, run_pending
from storage import utc_now
from tests.at_once import at_once
from tests.stores import Database


def count_runs(engine, conn) -> int:
    conn.execute("INSERT INTO runs (at) VALUES (?)", (utc_now(),))
    return 3


COUNTING = DataStep("count_runs", "runs counted", count_runs)


def open_and_run(database: Database, barrier) -> None:
    engine = database.engine()
    barrier.wait()
    run_pending(engine, [COUNTING])


@pytest.fixture
def database(new_db) -> Database:
    made = new_db()
    made.engine().store.conn.execute("CREATE TABLE runs (at TEXT)")
    return made


@pytest.fixture
def counted(database) -> Engine:
    return database.engine()


def test_a_step_runs_once_and_records_what_it_changed(counted):
    assert run_pending(counted, [COUNTING]) == {"count_runs": 3}
    assert run_pending(counted, [COUNTING]) == {}
    assert counted.store.scalar("SELECT count(*) FROM runs") == 1
    assert dict(counted.store.one("SELECT name, changed FROM data_steps WHERE name = 'count_runs'")) == {
        "name": "count_runs", "changed": 3}


def test_of_processes_opening_a_database_at_once_one_runs_the_step(database, counted):
    assert at_once(open_and_run, database, timeout=30) == [0, 0, 0, 0]
    assert counted.store.scalar("SELECT count(*) FROM runs") == 1


def test_a_failed_step_leaves_nothing_and_runs_again_at_the_next_open(counted):
    def failing(engine, conn) -> int:
        conn.execute("INSERT INTO runs (at) VALUES ('half done')")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        run_pending(counted, [DataStep("count_runs", "runs counted", failing)])
    assert counted.store.scalar("SELECT count(*) FROM runs") == 0
    assert counted.store.scalar("SELECT count(*) FROM data_steps WHERE name = 'count_runs'") == 0
    assert run_pending(counted, [COUNTING]) == {"count_runs": 3}
