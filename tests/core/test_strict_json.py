"""One strict JSON reader for every body, on every listener: what it refuses is the same 400 everywhere."""

from __future__ import annotations

import pytest

from tests.shopping.shop import booking, day, make_shop
from tests.vault.test_pci_api import key, vault  # noqa: F401 — fixtures

JSON = {"Content-Type": "application/json"}
DUPLICATE = ["the body has an object with a duplicate key"]


def test_a_duplicate_key_is_the_same_400_on_the_main_api_and_in_the_vault(user, vault, live_engine):
    main = user.client.post("/api/v1/properties", headers=JSON,
                            content=b'{"property": {"title": "First", "title": "Second", "currency": "EUR"}}')
    pci = vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, headers=JSON,
                     content=b'{"data": [{"attributes": {"guarantee": {"card_number": "1", "card_number": "2"}}}]}')
    for response in (main, pci):
        assert response.status_code == 400
        assert response.json()["errors"] == {"code": "bad_request", "title": "Bad Request", "details": DUPLICATE}
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


def test_a_second_card_number_never_wins(user, anonymous, live_engine):
    shop = make_shop(user, rooms=2)
    body = booking(shop, day(2), day(3), reservation_id="DUP-1")
    raw = body_with_guarantee(body, '"card_number": "4111111111111111", "card_number": "5555555555554444"')
    response = anonymous.post(f"{shop.meta}/push_booking", content=raw, headers=JSON)
    assert response.status_code == 400 and response.json()["errors"]["details"] == DUPLICATE
    assert live_engine.store.scalar("SELECT count(*) FROM bookings WHERE property_id = ?", (shop.property_id,)) == 0


def body_with_guarantee(body: dict, card_fields: str) -> bytes:
    import json

    text = json.dumps(body)
    guarantee = ('"guarantee": {' + card_fields + ', "cvv": "123", "expiration_date": "12/2031", '
                 '"cardholder_name": "J Doe", "card_type": "visa"}')
    return text.replace('"status": "new"', guarantee + ', "status": "new"').encode()


@pytest.mark.parametrize("number", [b"9" * 4301, b"-" + b"1" * 5000, b"1e999999", b"-1e999999"])
def test_numbers_too_large_to_read_or_write_back_are_a_400(vault, number):
    response = vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, headers=JSON,
                          content=b'{"data": [], "n": ' + number + b"}")
    assert response.status_code == 400, response.text
    assert response.json()["errors"]["details"] == ["the body holds a number too large to read"]
    assert b"Infinity" not in response.content


def test_nan_is_not_json_on_the_main_api_either(user):
    response = user.client.post("/api/v1/properties", headers=JSON,
                                content=b'{"property": {"title": "T", "currency": "EUR", "settings": {"min_price": NaN}}}')
    assert response.status_code == 400 and response.json()["errors"]["details"] == ["the body holds NaN, which is not JSON"]
