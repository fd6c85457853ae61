"""Tax sets made at once for a property that has none: exactly one becomes its default, on every store (the
conditional claim in the set's transaction, and the unique index behind it)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from tests.conftest import CONTACT

COUNT = 6


def test_of_first_tax_sets_made_at_once_exactly_one_is_the_default(engine):
    actor = engine.identity.operator()
    property_id = engine.properties.create(actor, {"title": "Hotel", "currency": "EUR", **CONTACT})["id"]
    start = threading.Barrier(COUNT)

    def make(n: int) -> dict:
        start.wait(10)
        return engine.inventory.tax_sets.create(actor, {"title": f"Set {n}", "property_id": property_id,
                                                        "currency": "EUR", "taxes": []})

    with ThreadPoolExecutor(COUNT) as pool:
        made = list(pool.map(make, range(COUNT)))

    assert sum(s["is_default"] for s in made) == 1
    assert engine.store.scalar("SELECT count(*) FROM tax_sets WHERE property_id = ? AND is_default = 1",
                               (property_id,)) == 1
    assert engine.store.scalar("SELECT count(*) FROM tax_sets WHERE property_id = ?", (property_id,)) == COUNT
