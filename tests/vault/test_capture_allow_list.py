"""Capture from a host the operator allow-listed (a channel's own API): tokenised like the secure
listener's answers, but the internal credential never goes there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from backend.core.config import Config
from backend.core.errors import FrontdeskError, ValidationFailed
from backend.core.keys import ACTOR_HEADER, INTERNAL_HEADER, REVEAL_HEADER
from backend.vault import samples
from tests.loopback import LoopbackSite


@pytest.fixture
def channel_api() -> Iterator[LoopbackSite]:
    """A third party's booking feed, which remembers the headers it was sent."""
    site = LoopbackSite(lambda: samples.message("bookings"), "application/json")
    yield site
    site.close()


def test_an_allow_listed_feed_is_tokenised_without_the_internal_credential(new_db, channel_api):
    engine = new_db("vault").engine(Config(capture_allow_list=(f"{channel_api.url}/feed/",),
                                                       fetch_private_addresses=True))  # the feed is on loopback
    captured = engine.capture.capture(profile="frontdesk", method="get", url=f"{channel_api.url}/feed/bookings",
                                      headers={"Authorization": "Bearer channel-token", "Cookie": "x"}, actor="tests")
    assert captured.status == 200 and b"4111111111111111" not in captured.body
    assert len([t for t in captured.tokenised.tokens if t]) == 2
    headers = {name.lower(): value for name, value in channel_api.seen[0].items()}
    assert headers["authorization"] == "Bearer channel-token"
    assert not {INTERNAL_HEADER.lower(), REVEAL_HEADER.lower(), ACTOR_HEADER.lower(), "cookie"} & set(headers)
    # Outside the allowed prefix, on the same host: refused before any request.
    with pytest.raises(ValidationFailed):
        engine.capture.capture(profile="frontdesk", method="get", url=f"{channel_api.url}/admin", headers={},
                               actor="tests")
    assert len(channel_api.seen) == 1


@pytest.mark.parametrize("leak", [
    {"notes": "card 4111 1111 1111 1111"},  # outside the card node the profile reads
    {"attributes": {"guarantee": {"card_number": {"pan": "5555555555554444"}}}},  # where no text is expected
    {"payment": {"cvv": "737"}},
])
def test_an_allow_listed_feed_that_leaves_a_card_in_clear_is_refused_quoting_nothing(new_db, leak):
    message = {"data": [{"id": "b-1", "attributes": {"guarantee": None}}, leak]}
    site = LoopbackSite(lambda: __import__("json").dumps(message).encode(), "application/json")
    try:
        engine = new_db("vault").engine(Config(capture_allow_list=(f"{site.url}/",),
                                                           fetch_private_addresses=True))
        with pytest.raises(FrontdeskError) as refused:
            engine.capture.capture(profile="frontdesk", method="get", url=f"{site.url}/bookings", headers={},
                                   actor="tests")
    finally:
        site.close()
    assert refused.value.status == 502 and refused.value.code == "bad_gateway"
    said = str(refused.value.body())
    assert not any(digits in said for digits in ("4111", "5555", "737"))
    assert engine.store.scalar("SELECT count(*) FROM vault_cards") == 0


def test_an_allow_listed_host_on_a_private_address_is_refused_unless_allowed(new_db, channel_api):
    """The operator trusted a name, not wherever it may resolve: the address guard of every call out holds here too."""
    engine = new_db("vault").engine(Config(capture_allow_list=(f"{channel_api.url}/feed/",)))
    with pytest.raises(ValidationFailed) as refused:
        engine.capture.capture(profile="frontdesk", method="get", url=f"{channel_api.url}/feed/bookings", headers={},
                               actor="tests")
    assert "private or local address" in refused.value.details["url"][0]
    assert channel_api.seen == []
