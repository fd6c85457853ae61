"""Capture never returns a card in clear, whatever the profile: the secure listener reveals cards only in
the answers the profile reads, and the last look refuses anything the profile did not cut out."""

from __future__ import annotations

import httpx
import pytest

from tests.shopping.shop import CARD, booking, check, day, make_shop
from tests.vault.test_pci_api import assert_no_clear_card, key, profile_body, unique, vault  # noqa: F401 — fixtures


@pytest.fixture
def sealed(user, secure) -> tuple:
    shop = make_shop(user, rooms=3)
    with httpx.Client(base_url=secure.url, timeout=10) as client:
        made = check(client.post(f"{shop.meta}/push_booking", json=booking(
            shop, day(2), day(4), guarantee=CARD, reservation_id=unique("LEAK"),
            customer={"surname": "Doe", "phone": "+49 1512 3456001"})), 201)["data"]
    return user, made


def capture(vault: httpx.Client, user, profile: str, url: str) -> httpx.Response:
    return vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"},
                      params={"profile": profile, "method": "get", "url": url})


@pytest.mark.parametrize("profile, path", [("frontdesk_entity", "/api/v1/bookings"),
                                           ("frontdesk", "/api/v1/bookings/{id}"),
                                           ("frontdesk_entity", "/api/v1/booking_revisions/feed")])
def test_a_built_in_profile_on_the_other_shape_gets_no_card_revealed(vault, secure, live, sealed, profile, path):
    user, made = sealed
    before = live[0].store.scalar("SELECT count(*) FROM vault_cards")
    response = capture(vault, user, profile, secure.url + path.format(id=made["id"]))
    assert response.status_code == 200, response.text
    assert "4111111111111111" not in response.text and '"cvv":"123"' not in response.text
    assert "411111******1111" in response.text
    assert live[0].store.scalar("SELECT count(*) FROM vault_cards") == before  # nothing to tokenise
    assert_no_clear_card(live[0])


def test_a_profile_whose_selectors_find_nothing_gets_a_502_quoting_nothing(vault, secure, live, sealed):
    user, made = sealed
    name = unique("blind")
    blind = profile_body(name)
    blind["tokenization_profile"]["schema"]["message_node"]["selector"] = "$.nothing[*]"
    check(vault.post("/api/v1/tokenization_profiles", json=blind), 201)
    before = live[0].store.scalar("SELECT count(*) FROM vault_cards")
    response = capture(vault, user, name, f"{secure.url}/api/v1/bookings/{made['id']}")
    assert response.status_code == 502
    error = response.json()["errors"]
    assert error["code"] == "bad_gateway" and "4111" not in response.text and "123" not in str(error)
    assert live[0].store.scalar("SELECT count(*) FROM vault_cards") == before
    audit = live[0].store.query("SELECT actor FROM vault_audit WHERE action = 'reveal' ORDER BY id DESC LIMIT 1")
    assert audit[0]["actor"] == live[0].pci_keys.authenticate(vault.params["api_key"])  # the capturing key


def test_a_phone_number_that_passes_the_luhn_check_does_not_stop_a_capture(vault, secure, sealed):
    user, made = sealed
    response = capture(vault, user, "frontdesk_entity", f"{secure.url}/api/v1/bookings/{made['id']}")
    assert response.status_code == 200, response.text
    assert response.json()["data"]["attributes"]["customer"]["phone"] == "+49 1512 3456001"
