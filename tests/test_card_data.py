"""The one card-data rule of the engine: which digits are a card, how they are masked, what is left alone."""

from __future__ import annotations

import pytest

from backend.card_data import card_data_left, hide_card_data, json_named_values, mask_cards_in, mask_text


@pytest.mark.parametrize("text, shown", [
    ("card 4111111111111111 please", "card 411111******1111 please"),
    ("4111 1111 1111 1111", "411111******1111"),
    ("4111-1111-1111-1111.", "411111******1111."),
    ("amex 3782 822463 10005", "amex 378282*****0005"),
    ("13 digits 4222222222222", "13 digits 422222***2222"),
    ("19 digits 6011000000000000019", "19 digits 601100*********0019"),
    ("exp after it 4111111111111111 2027", "exp after it 411111******1111 2027"),
    ("cvv: 123 and CVC2=4567", "cvv: *** and CVC2=***"),
])
def test_valid_card_numbers_and_security_codes_are_masked(text, shown):
    assert mask_text(text) == shown


@pytest.mark.parametrize("text", [
    "4111111111111112",  # fails the check digit
    "411111111111",  # 12 digits
    "41111111111111111111",  # 20 digits in a row: an identifier
    "stay 2026-11-20 2026-11-22",  # dates are never part of a card
    "id abcdef12-3456-4abc-8123-123456789012",  # digits inside a UUID
    "id 41111111-1111-4008-a123-123456789012",  # a UUID that starts with 16 digits passing the check
    "token 9f1c4111111111111111a0",  # glued to letters
    "call +44 20 7946 0000",
    "cvv is 123",  # a number beside the word, not a field
])
def test_what_is_not_a_card_is_left_alone(text):
    assert mask_text(text) == text


def test_a_mistyped_card_is_still_hidden_from_a_screen():
    assert hide_card_data("4111111111111112", valid_only=False)[0] == "411111******1112"
    assert hide_card_data("4111111111111112")[0] == "4111111111111112"


def test_structures_are_masked_but_identifiers_and_phone_numbers():
    value = {"notes": "4111 1111 1111 1111", "meta": {"cc": 5555555555554444, "list": ["378282246310005", 7]},
             "reservation_id": "4111111111111111", "unique_id": "OSH-4111111111111111",
             "ota_reservation_code": "4111111111111111", "phone": "+49 1512 3456001", "count": 3, "flag": True}
    assert mask_cards_in(value) == {
        "notes": "411111******1111", "meta": {"cc": "555555******4444", "list": ["378282*****0005", 7]},
        "reservation_id": "4111111111111111", "unique_id": "OSH-4111111111111111",
        "ota_reservation_code": "4111111111111111", "phone": "+49 1512 3456001", "count": 3, "flag": True}


@pytest.mark.parametrize("document, left", [
    ({"a": {"b": ["x 4111111111111111"]}}, "a card number"),
    ({"a": 5555555555554444}, "a card number"),
    ({"guarantee": {"cvv": "737"}}, "a security code"),
    ({"guarantee": {"card_number": "411111******1111", "cvv": "***"}}, None),
    ({"reservation_id": "4111111111111111", "customer": {"phone": "+49 1512 3456001"}}, None),
])
def test_the_last_look_finds_what_was_left_in_clear(document, left):
    import json

    assert card_data_left(json.dumps(document), lambda: json_named_values(document)) == left
