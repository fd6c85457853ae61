"""Data steps: repairs of stored data that need the engine's rules, not just SQL (storage/ knows no domain rule).

Each step runs once per database, when an engine first opens it after the step shipped; `data_steps` records it
with how many values it changed, which is logged for the operator. The name is recorded in the step's own
transaction, so that of several processes opening the database at once exactly one runs it, and a step that fails
is rolled back whole and tried again at the next open. Steps are listed in the order they run; never rename one.
Connections delete securely (storage/sqlite.py), so a value a step replaces is overwritten in the file, and the
write-ahead log is emptied after a step that changed anything.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from backend.upgrades.store import claim_step, record_changed, steps_done
from storage import Connection, utc_now

if TYPE_CHECKING:
    from backend.engine import Engine

log = logging.getLogger("frontdesk.data_steps")


@dataclass(frozen=True)
class DataStep:
    name: str
    what: str  # what it changes, in the operator's words: "card numbers masked"
    # Changes what needs it, inside the open transaction on `conn`; returns how many values it changed.
    run: Callable[[Engine, Connection], int]


def steps() -> list[DataStep]:
    """Every data step, in the order they run (imported here: they import the engine's domains)."""
    from backend.upgrades import folded_cards, sealed_secrets, sellable_nights, stored_cards, tax_sets

    return [stored_cards.STEP, sealed_secrets.STEP, folded_cards.STEP, sellable_nights.STEP, tax_sets.STEP]


def run_pending(engine: Engine, pending: list[DataStep] | None = None) -> dict[str, int]:
    """Run the steps this database has not had yet; returns how many values each one changed."""
    listed = steps() if pending is None else pending
    done = steps_done(engine.store)
    changed: dict[str, int] = {}
    for step in listed:
        if step.name in done:
            continue
        with engine.store.transaction() as conn:
            if not claim_step(conn, step.name, utc_now()):  # another process ran it while this one waited
                continue
            changed[step.name] = step.run(engine, conn)
            record_changed(conn, step.name, changed[step.name])
        log.info("data step %s: %d %s", step.name, changed[step.name], step.what)
    if any(changed.values()):
        engine.store.forget_history()  # what the steps replaced must not stay readable in the write-ahead log
    return changed
