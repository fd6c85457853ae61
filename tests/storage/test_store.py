"""What the engine relies on from a store, on SQLite and PostgreSQL alike: rows, transactions that are one writer at
a time and roll back whole, migrations, a newer schema refused, and the change stamp."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from storage import Store, StoreError, open_store
from storage.migrations import STEPS
from storage.store import WriterQueue

GROUP = "INSERT INTO groups (id, title, inserted_at) VALUES (?, ?, ?)"


def test_rows_read_by_position_by_name_and_as_a_dict(store: Store):
    with store.transaction() as conn:
        conn.execute(GROUP, ("g", "Hotels: 100% ours? Yes", "2026-01-01T00:00:00.000000"))
    row = store.one("SELECT id, title AS name FROM groups WHERE title LIKE '%100\\%%' ESCAPE '\\'")
    assert (row[0], row["name"], dict(row)) == ("g", "Hotels: 100% ours? Yes", {"id": "g", "name": "Hotels: 100% ours? Yes"})
    assert row.keys() == ["id", "name"]
    assert list(store.tuples("SELECT id, title FROM groups WHERE id = ?", ("g",))) == [("g", "Hotels: 100% ours? Yes")]
    assert store.scalar("SELECT count(*) FROM groups WHERE title = '?'") == 0  # a ? inside quotes is no placeholder
    assert store.one("SELECT id FROM groups WHERE id = ?", ("nobody",)) is None


def test_flags_and_truths_are_integers(store: Store):
    with store.transaction() as conn:
        conn.execute("INSERT INTO groups (id, title, inserted_at) VALUES ('g', 'G', 'now')")
        conn.execute("INSERT INTO properties (id, group_id, title, currency, is_active, settings, content, "
                     "inserted_at, updated_at) VALUES ('p', 'g', 'P', 'EUR', ?, '{}', '{}', 'now', 'now')", (False,))
    assert store.scalar("SELECT EXISTS (SELECT 1 FROM groups)") == 1
    assert store.scalar("SELECT is_active FROM properties") == 0
    assert store.scalar("SELECT count(*) FROM properties WHERE is_active = ?", (False,)) == 1


def test_a_failed_transaction_leaves_nothing(store: Store):
    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute(GROUP, ("g", "G", "now"))
        raise RuntimeError("half way")
    assert store.scalar("SELECT count(*) FROM groups") == 0


def test_a_nested_transaction_joins_the_outer_one(store: Store):
    with pytest.raises(RuntimeError), store.transaction():
        with store.transaction() as inner:
            inner.execute(GROUP, ("g", "G", "now"))
        assert store.scalar("SELECT count(*) FROM groups") == 1  # seen inside the outer one
        raise RuntimeError("the outer one fails")
    assert store.scalar("SELECT count(*) FROM groups") == 0


def test_foreign_keys_are_enforced(store: Store):
    with pytest.raises(Exception) as refused, store.transaction() as conn:
        conn.execute("INSERT INTO group_members (group_id, user_id) VALUES ('nope', 'nobody')")
    assert "foreign key" in str(refused.value).lower()
    assert store.scalar("SELECT count(*) FROM group_members") == 0


def test_writers_go_one_at_a_time(store: Store):
    """What a writer reads in its transaction still holds when it writes: a second writer waits for the first."""
    entered, release = threading.Event(), threading.Event()
    seen: list[int] = []

    def writer(first: bool) -> None:
        if not first:
            entered.wait(5)
        with store.transaction() as conn:
            if first:
                entered.set()
                release.wait(5)
            count = conn.execute("SELECT count(*) FROM groups").fetchone()[0]
            seen.append(count)
            conn.execute(GROUP, (f"g{count}", "G", "now"))

    threads = [threading.Thread(target=writer, args=(first,)) for first in (True, False)]
    for thread in threads:
        thread.start()
    entered.wait(5)
    release.set()
    for thread in threads:
        thread.join(10)
    assert seen == [0, 1]  # the second read after the first wrote: never both 0 (one key twice, one write lost)
    assert store.scalar("SELECT count(*) FROM groups") == 2


def _held(store: Store, *scope: str):
    """A writer of `scope` that has begun and waits to be let go: (it began, let it go, its thread)."""
    began, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store.transaction(*scope) as conn:
            conn.execute(GROUP, (f"held-{'-'.join(scope) or 'all'}", "G", "now"))
            began.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    assert began.wait(10)
    return release, thread


def _writes_while_held(store: Store, held: tuple[str, ...], scope: tuple[str, ...]) -> bool:
    """Whether a writer of `scope` commits while one of `held` is in progress."""
    release, holder = _held(store, *held)
    done = threading.Event()

    def write() -> None:
        with store.transaction(*scope) as conn:
            conn.execute(GROUP, (f"w-{'-'.join(scope) or 'all'}", "G", "now"))
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    went = done.wait(1.0)
    release.set()
    holder.join(10)
    writer.join(10)
    assert store.scalar("SELECT count(*) FROM groups") == 2  # both wrote in the end
    return went


def test_writers_of_other_scopes_go_at_once_where_the_database_can(store: Store):
    assert _writes_while_held(store, ("property:a",), ("property:b",)) == (store.dialect.name == "postgresql")


@pytest.mark.parametrize(("held", "scope"), [(("property:a",), ("property:a",)), (("property:a",), ()),
                                             ((), ("property:a",)), (("property:a", "property:b"), ("property:b",))])
def test_a_writer_waits_for_one_of_its_scope_and_for_one_of_every_scope(store: Store, held, scope):
    assert not _writes_while_held(store, held, scope)


def test_a_nested_transaction_must_be_covered_by_the_outer_ones_scope(store: Store):
    with store.transaction():
        with store.transaction("property:a"):  # everything covers any scope
            pass
    with store.transaction("property:a", "property:b"):
        with store.transaction("property:b"):
            pass
        with pytest.raises(RuntimeError, match="nested"):
            with store.transaction("property:c"):
                pass
        with pytest.raises(RuntimeError, match="nested"):
            with store.transaction():
                pass


def test_opening_again_migrates_nothing_and_keeps_the_data(new_db):
    database = new_db()
    first = open_store(database.target)
    with first.transaction() as conn:
        conn.execute(GROUP, ("g", "G", "now"))
    first.close()
    again = open_store(database.target)
    assert not again.created
    assert again.scalar("SELECT count(*) FROM groups") == 1
    again.close()


def test_a_database_of_a_newer_frontdesk_is_refused(store: Store, new_db):
    if store.dialect.name == "sqlite":
        store.conn.execute(f"PRAGMA user_version = {len(STEPS) + 1}")
    else:
        store.conn.execute("UPDATE schema_version SET version = ?", (len(STEPS) + 1,))
    store.close()
    with pytest.raises(StoreError, match=f"schema version {len(STEPS) + 1}; this version knows {len(STEPS)}"):
        open_store(store.location)


def test_the_change_stamp_moves_when_another_process_commits(store: Store):
    before = store.change_stamp()
    subprocess.run([sys.executable, "-c", "import sys\nfrom storage import open_store\n"
                    "s = open_store(sys.argv[1])\nwith s.transaction() as c:\n"
                    "    c.execute(\"INSERT INTO groups (id, title, inserted_at) VALUES ('o', 'O', 'now')\")\n",
                    store.location], check=True)
    assert store.change_stamp() != before


def test_writers_of_a_process_take_their_turns_in_the_order_they_came():
    line, order = WriterQueue(), []
    line.__enter__()  # one writing

    def writer(number: int) -> None:
        with line:
            order.append(number)

    threads = []
    for number in range(6):
        threads.append(threading.Thread(target=writer, args=(number,)))
        threads[-1].start()
        while len(line._waiting) < number + 1:  # in line before the next one comes
            threading.Event().wait(0.001)
    line.__exit__()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4, 5]
