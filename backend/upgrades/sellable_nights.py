"""The sellable index of the shopping property list (backend/inventory/sellable.py) filled for a database made
before it: a data step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from backend.inventory import sellable
from backend.upgrades.steps import DataStep
from storage import Connection

if TYPE_CHECKING:
    from backend.engine import Engine


def index(engine: Engine, conn: Connection) -> int:
    """How many properties were indexed."""
    return sellable.rebuild(engine.store)


STEP = DataStep("sellable_nights", "properties indexed for the shopping property list", index)
