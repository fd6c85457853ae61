"""Addresses that an HTTP client can't use are a 422 naming the field, never a 500 that logs the request."""

from __future__ import annotations

import logging

import pytest

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
def test_a_capture_url_with_control_characters_is_a_422(vault, secure, user, caplog, tail):
    caplog.set_level(logging.DEBUG)
    response = vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"}, params={
        "profile": "frontdesk", "method": "get", "url": f"{secure.url}/api/v1/bookings{tail}"})
    assert response.status_code == 422, response.text
    assert "url" in response.json()["errors"]["details"]
    assert "Traceback" not in caplog.text
