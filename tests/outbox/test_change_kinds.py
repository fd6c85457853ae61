"""What another process changed, by kind (backend/outbox/changes.py): a console learns that a property was edited, ARI
written, a saved reply or a message rule made elsewhere, and reloads only what shows it. Two engines over one
database stand for two processes: each has its own event bus, so what one learns of the other's writes comes
through the database alone."""

from __future__ import annotations

import os
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path

from backend.core.changes import note_after
from backend.core.events import Change
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.outbox.changes import EVERYTHING, Mark
from backend.tools.demo import load_demo
from tests.at_once import at_once
from tests.inventory.test_range_edits import build
from tests.stores import Database

NOTED = 25  # changes each process notes at once


def _kinds(engine: Engine, mark: Mark) -> tuple[Mark, set[str]]:
    mark, changes = engine.changes_since(mark)
    return mark, {change.kind for change in changes}


def _feed_rows(engine: Engine) -> int:
    return engine.store.scalar("SELECT count(*) FROM changes")


def test_another_process_s_writes_are_told_by_their_kinds(new_db) -> None:
    database = new_db()
    here, there = database.engine(), database.engine()
    mark = here.changes_mark()

    hotel = build(there)  # a property, its room type and rate plans, its ARI
    mark, kinds = _kinds(here, mark)
    assert {"property.changed", "inventory.changed", "ari.changed"} <= kinds and EVERYTHING not in kinds

    # A busy path costs no extra write: ARI is told by its outbox event alone.
    before = _feed_rows(there)
    there.inventory.ari.set_availability(hotel.actor, [hotel.rooms(0, 2, availability=3)])
    assert _feed_rows(there) == before
    mark, kinds = _kinds(here, mark)
    assert kinds == {"ari.changed"}

    # A saved reply, written in a transaction that tells no bus: its kind is noted with it.
    there.message_templates.create(hotel.actor, {"title": "Welcome", "message": "Welcome!",
                                                 "property_id": hotel.property_id})
    mark, kinds = _kinds(here, mark)
    assert kinds == {"saved_reply.changed"}

    # A message rule likewise: the rules screen reloads for it.
    template_id = there.message_templates.list(hotel.actor, ListQuery())[0][0]["id"]
    there.message_rules.create(hotel.actor, {"title": "Welcome", "trigger": "arrival_day", "send_at": "08:00",
                                             "message_template_id": template_id, "property_id": hotel.property_id})
    mark, kinds = _kinds(here, mark)
    assert kinds == {"message_rule.changed"}

    assert here.changes_since(mark) == (mark, frozenset())  # nothing since: nothing to reload


def _note_or_read(database: Database, barrier: Barrier, folder: str) -> None:
    """The first process to claim it reads, as a console polls, as fast as it goes; the others each note `NOTED`
    changes. The reader writes down every kind it was told."""
    engine = database.engine()
    reads = not _claimed(Path(folder) / "reader")
    mark = engine.changes_mark()
    barrier.wait()
    if not reads:
        for n in range(NOTED):
            note_after(engine.store, f"{os.getpid()}.{n}")
        return
    seen: set[str] = set()
    give_up = time.monotonic() + 30  # the writers' 75 changes take well under a second
    while len(seen) < 3 * NOTED and time.monotonic() < give_up:
        mark, kinds = _kinds(engine, mark)
        seen |= kinds
    (Path(folder) / "seen.txt").write_text("\n".join(sorted(seen)))


def _claimed(path: Path) -> bool:
    """Whether another process claimed `path` first."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL))
        return False
    except FileExistsError:
        return True


def test_a_reader_misses_no_change_noted_by_writers_at_once(new_db, tmp_path) -> None:
    """Three processes note changes at once while a fourth reads the feed as it grows: it is told every one. On
    PostgreSQL the feed's writers take its scope, so that no change commits below a sequence already read."""
    database = new_db()
    database.engine()  # migrated before the processes start
    assert at_once(_note_or_read, database, str(tmp_path), count=4) == [0, 0, 0, 0]
    engine = database.engine()
    written = {kind for (kind,) in engine.store.query("SELECT kind FROM changes")}
    assert len(written) == 3 * NOTED
    assert set((tmp_path / "seen.txt").read_text().split("\n")) == written


def test_a_chat_change_elsewhere_names_its_thread(new_db) -> None:
    """A reply, a note, a thread read (the changes feed) and a guest's message (the outbox's event) each name their
    thread: a console elsewhere reloads that thread alone."""
    database = new_db()
    here, there = database.engine(), database.engine()
    load_demo(there)
    operator = there.identity.operator()
    thread = there.chat.threads(operator, ListQuery(limit=1))[0][0]
    channel = there.store.one("SELECT * FROM channels WHERE id = ?", (thread["channel_id"],))
    mark = here.changes_mark()
    there.chat.reply(operator, thread["id"], {"message": "Noted, thank you."})
    there.chat.receive(channel, {"thread_id": thread["id"], "message": "Thanks!"})
    there.notes.add(operator, thread["id"], {"message": "Late arrival"})
    _, changes = here.changes_since(mark)
    assert {Change(kind, thread["id"]) for kind in ("message.sent", "message.received", "thread.changed")} <= changes
