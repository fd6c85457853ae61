"""A `frontdesk serve` with its deliverer running, for the webhook tests: retries a few hundredths of a second
apart, and callbacks on loopback allowed (the receivers are there)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import Site, delivering_site

MAX_ATTEMPTS = 6  # about 1.6 s of failures (0.05 s doubled) before a webhook is marked failing


@pytest.fixture(scope="module")
def site(session_db) -> Iterator[Site]:
    with delivering_site(session_db("webhooks"), MAX_ATTEMPTS) as site:
        yield site
