"""Python's cycle collector, set for a console that holds one large heap for as long as it runs.

Opening a form mounts a few hundred widgets of tens of objects each. With the collector's defaults that is a pass
over the young objects every 700 allocations and, once the survivors have grown by a quarter, a pass over every
object the console holds (its modules, the app, the areas' screens): 100–200 ms each on a loaded machine, in the
middle of an opening. While the console runs, the objects alive when it started are frozen (no pass looks at them
again) and the young generation is collected every 10,000 allocations. Both are undone when it stops, so that a
process that runs console after console (the tests) still frees each one.
"""

from __future__ import annotations

import gc

YOUNG = 10_000  # allocations between passes over the young generation (Python's default: 700)


def hold() -> tuple[int, int, int]:
    """Freeze what is alive now and space out the young passes; returns the thresholds to restore."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG, *thresholds[1:])
    return thresholds


def release(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(*thresholds)
    gc.unfreeze()
