"""Each store, opened on a database of its own, for the tests every store passes alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from storage import Store, open_store


@pytest.fixture
def store(new_db) -> Iterator[Store]:
    opened = open_store(new_db().target)
    yield opened
    opened.close()
