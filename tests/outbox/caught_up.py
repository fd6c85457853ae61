"""Whether destinations have had every event committed so far, for tests that wait for a deliverer."""

from __future__ import annotations

from backend.engine import Engine
from backend.outbox.store import newest_position, stamp_positions


def caught_up(engine: Engine, *destination_ids: str) -> bool:
    """Each destination's cursor at the newest position, once every event committed so far has one."""
    stamp_positions(engine.store)
    head = newest_position(engine.store)
    return all(engine.store.scalar("SELECT cursor FROM destinations WHERE id = ?", (each,)) == head
               for each in destination_ids)
