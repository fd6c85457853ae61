"""A `frontdesk serve` with its deliverer running, for the push tests: retries a few hundredths of a second apart,
and `ari_url`s on loopback allowed (the receivers are there)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import Site, User, delivering_site

MAX_ATTEMPTS = 3  # 0.05 + 0.1 s of retries before a channel is marked failing


@pytest.fixture(scope="module")
def site(session_db) -> Iterator[Site]:
    with delivering_site(session_db("distribution"), MAX_ATTEMPTS) as site:
        yield site


@pytest.fixture
def owner(site) -> Iterator[User]:
    made = site.user()
    yield made
    made.client.close()

