"""Addresses that an HTTP client can't use are a 422 naming the field, never a 500 that logs the request."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings, strategies as st

from backend.core.errors import ValidationFailed
from backend.engine import Engine
from tests.conftest import property_body
from tests.vault.test_pci_api import key, vault  # noqa: F401 — fixtures

CARD_HOST = "4111111111111111"


@pytest.mark.parametrize("url", [
    "http://xn--a.com/logo.png",  # an IDNA label that decodes to nothing valid
    "http://0177.0.0.1/logo.png",  # octal loopback
    "http://2130706433/logo.png",  # decimal loopback
    f"http://xn--{CARD_HOST}.com/logo.png",
    "http://a..b/logo.png",
    "http://example.com:99999/logo.png",
    "http://example.com/\x00logo.png",
])
def test_a_logo_url_no_client_can_fetch_is_a_422(user, live_engine, caplog, url):
    caplog.set_level(logging.DEBUG)
    response = user.client.post("/api/v1/properties", json=property_body(logo_url=url))
    assert response.status_code == 422, response.text
    assert "logo_url" in response.json()["errors"]["details"]
    assert CARD_HOST not in caplog.text and "Traceback" not in caplog.text
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


@pytest.mark.parametrize("tail", ["\r\nX-Injected: 1", "\n", "\x00", " space"])
def test_a_capture_url_with_control_characters_is_refused_naming_it(vault, secure, user, caplog, tail):
    caplog.set_level(logging.DEBUG)
    response = vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"}, params={
        "profile": "frontdesk", "method": "get", "url": f"{secure.url}/api/v1/bookings{tail}"})
    if tail == "\x00":  # refused before any route: a NUL in the address names nothing
        assert response.status_code == 400, response.text
        assert response.json()["errors"]["details"] == ["the parameter 'url' holds a NUL character (%00), which names "
                                                        "nothing here"]
    else:
        assert response.status_code == 422, response.text
        assert "url" in response.json()["errors"]["details"]
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("url", ["http://[::1/a", "http://[zz]/a", "http://a]b/", "http://[::1]:x/api/v1/bookings"])
def test_a_capture_url_that_does_not_parse_is_a_422(vault, user, caplog, url):
    caplog.set_level(logging.DEBUG)
    response = vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"},
                          params={"profile": "frontdesk", "method": "get", "url": url})
    assert response.status_code == 422, response.text
    assert response.json()["errors"]["details"]["url"] == ["is not a valid address"]
    assert "Traceback" not in caplog.text


BROKEN_URLS = st.builds("{}{}".format, st.sampled_from(["http://", "https://", "http://[", "http://[::1", ""]),
                        st.text(alphabet="[]:@/%?#.1aZ-_~v", max_size=24))


@pytest.fixture(scope="module")
def capture_engine(tmp_path_factory) -> Engine:
    return Engine.open(tmp_path_factory.mktemp("capture") / "vault.db")


@settings(max_examples=80, derandomize=True, database=None, deadline=None)
@given(url=BROKEN_URLS)
def test_no_capture_url_is_a_server_error(capture_engine, url):
    """Whatever the URL, capture's checks answer it in the error shape: with method `post` they always refuse
    (so nothing is fetched), naming `url` too when it is not an address under the secure API."""
    with pytest.raises(ValidationFailed) as refused:
        capture_engine.capture.capture(profile="frontdesk", method="post", url=url, headers={}, actor="tests")
    assert refused.value.status == 422 and set(refused.value.body()["errors"]["details"]) <= {"method", "url"}
