"""The one card-data rule of the engine: which digits are a card, how they are masked, what is left alone."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from backend.core.card_data import card_data_left, hide_card_data, json_named_values, luhn_ok, mask_cards_in, mask_text


@pytest.mark.parametrize("text, shown", [
    ("card 4111111111111111 please", "card 411111******1111 please"),
    ("4111 1111 1111 1111", "411111******1111"),
    ("4111-1111-1111-1111.", "411111******1111."),
    ("amex 3782 822463 10005", "amex 378282*****0005"),
    ("13 digits 4222222222222", "13 digits 422222***2222"),
    ("19 digits 6011000000000000019", "19 digits 601100*********0019"),
    ("exp after it 4111111111111111 2027", "exp after it 411111******1111 2027"),
    ("cvv: 123 and CVC2=4567", "cvv: *** and CVC2=***"),
    # Written any way people write one: the forms.
    ("dots 4111.1111.1111.1111", "dots 411111******1111"),
    ("lines 4111\n1111\n1111\n1111", "lines 411111******1111"),
    ("tabs 4111\t1111\t1111\t1111", "tabs 411111******1111"),
    ("slashes 4111/1111/1111/1111", "slashes 411111******1111"),
    ("underscores 4111_1111_1111_1111", "underscores 411111******1111"),
    ("en dash 4111–1111–1111–1111", "en dash 411111******1111"),
    ("nbsp 4111\u00a01111\u00a01111\u00a01111", "nbsp 411111******1111"),
    ("double 4111  1111  1111  1111", "double 411111******1111"),
    ("spaced dash 4111 - 1111 - 1111 - 1111", "spaced dash 411111******1111"),
    ("full width ４１１１ １１１１ １１１１ １１１１", "full width 411111******1111"),
    ("VISA4929000000006exp 12/27", "VISA492900***0006exp 12/27"),
    ("card:4111111111111111", "card:411111******1111"),
    ("OSH-4111111111111111", "OSH-411111******1111"),
    # A card among other digits of the same run is still masked whole.
    ("room 12 4111 1111 1111 1111", "room 12 411111******1111"),
    ("paid 100. 4111 1111 1111 1111 thanks", "paid 100. 411111******1111 thanks"),
    ("4111 1111 1111 1111.50", "411111******1111.50"),
    # Security codes under the names payment pages use.
    ('{"cardCvv": "123", "cvvNumber": 4567, "ccv": "111", "cid": "2222"}',
     '{"cardCvv": "***", "cvvNumber": ***, "ccv": "***", "cid": "***"}'),
    ("cvn=333 cv2=444 card_code: 555 cardcvv 666", "cvn=*** cv2=*** card_code: *** cardcvv ***"),
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
    "acid: 123",  # a word that ends in a security code's name
    "stay 20.11.2026 - 22.11.2026, or 11/20/2026 to 11/22/2026",  # dates with dots and slashes
    "at 2026-11-21T10:03:29.335485 2026-11-22T10:03:29.335485",  # timestamps
    "prices 120.00 135.50 99.00 1000.00",  # amounts
    "booking BDC-1556013801 and ABB-HMABCD1234",  # booking numbers
])
def test_what_is_not_a_card_is_left_alone(text):
    assert mask_text(text) == text


def luhn_valid(generator: random.Random, length: int = 16) -> str:
    while True:
        number = "".join(generator.choice("0123456789") for _ in range(length))
        if luhn_ok(number):
            return number


def test_uuids_hex_tokens_and_ibans_are_never_cards():
    """Thousands of each, drawn from a fixed seed, some built to hold a Luhn-valid 16-digit run: none is masked."""
    generator = random.Random(22)
    for _ in range(1000):
        uid = str(uuid.UUID(int=generator.getrandbits(128), version=4))
        token = f"{generator.getrandbits(128):032x}"
        glued = f"{generator.getrandbits(16):04x}".replace("0", "a") + luhn_valid(generator) + "ab"
        digits_first = str(uuid.UUID(luhn_valid(generator)[:8] + "-" + luhn_valid(generator)[:4] + "-4008-a123-"
                                     + f"{generator.getrandbits(48):012x}"))
        for text in (uid, token, glued, digits_first, _iban(generator, spaced=True), _iban(generator, spaced=False)):
            assert mask_text(f"id {text}.") == f"id {text}.", text


def _iban(generator: random.Random, *, spaced: bool) -> str:
    """A German IBAN with valid check digits: DE, 2 check digits, 18 digits."""
    bban = "".join(generator.choice("0123456789") for _ in range(18))
    check = 98 - int(bban + "1314" + "00") % 97  # D=13, E=14
    iban = f"DE{check:02d}{bban}"
    return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4)) if spaced else iban


def test_lists_of_prices_dates_and_phone_numbers_stay_as_written():
    generator = random.Random(7)
    for _ in range(1000):
        prices = " ".join(f"{generator.randrange(10, 100000)}.{generator.randrange(100):02d}" for _ in range(5))
        dates = " - ".join(f"{generator.randrange(1, 29):02d}.{generator.randrange(1, 13):02d}."
                           f"20{generator.randrange(20, 40)}" for _ in range(3))
        assert mask_text(prices) == prices
        assert mask_text(dates) == dates
        phone = "+49 " + " ".join(str(generator.randrange(10 ** 3, 10 ** 4)) for _ in range(3)) + "0"  # 15 digits
        assert mask_cards_in({"phone": phone, "meta": {"mobilePhone": phone}}) == {
            "phone": phone, "meta": {"mobilePhone": phone}}


def test_a_mistyped_card_is_still_hidden_from_a_screen():
    assert hide_card_data("4111111111111112", valid_only=False)[0] == "411111******1112"
    assert hide_card_data("4111111111111112")[0] == "4111111111111112"


def test_structures_are_masked_everywhere_but_a_phone_in_a_phone_field():
    value = {"notes": "4111 1111 1111 1111", "meta": {"cc": 5555555555554444, "list": ["378282246310005", 7],
                                                     "4111111111111111": "a key", "uniqueid": "4111111111111111",
                                                     "cardCvv": "737", "cid": 1234},
             "reservation_id": "4111111111111111", "unique_id": "OSH-4111111111111111",
             "ota_reservation_code": "4111111111111111", "phone": "+49 1512 3456001", "count": 3, "flag": True,
             "agent": {"phone": "4111 1111 1111 1111"}, "customer": {"meta": {"mobilePhone": 4111111111111111,
                                                                               "phone2": "+3782 822463 10005"}}}
    assert mask_cards_in(value) == {
        "notes": "411111******1111", "meta": {"cc": "555555******4444", "list": ["378282*****0005", 7],
                                             "411111******1111": "a key", "uniqueid": "411111******1111",
                                             "cardCvv": "***", "cid": "***"},
        "reservation_id": "411111******1111", "unique_id": "OSH-411111******1111",
        "ota_reservation_code": "411111******1111", "phone": "+49 1512 3456001", "count": 3, "flag": True,
        "agent": {"phone": "411111******1111"}, "customer": {"meta": {"mobilePhone": "411111******1111",
                                                                      "phone2": "+378282*****0005"}}}


@pytest.mark.parametrize("document, left", [
    ({"a": {"b": ["x 4111111111111111"]}}, "a card number"),
    ({"a": 5555555555554444}, "a card number"),
    ({"guarantee": {"cvv": "737"}}, "a security code"),
    ({"guarantee": {"card_number": "411111******1111", "cvv": "***"}}, None),
    ({"reservation_id": "4111111111111111"}, "a card number"),  # no field is exempt
    ({"meta": {"4111111111111111": "in a key"}}, "a card number"),
    ({"customer": {"phone": "4111 1111 1111 1111"}}, "a card number"),  # 16 digits are not a phone
    ({"customer": {"phone": "+49 1512 3456001"}}, None),
    ({"notes": "4111\n1111\n1111\n1111"}, "a card number"),  # escaped as \n in the text
    ({"notes": "４１１１１１１１１１１１１１１１"}, "a card number"),  # escaped as \uff14 with ensure_ascii
    ({"meta": {"cvvNumber": "737"}}, "a security code"),
])
def test_the_last_look_finds_what_was_left_in_clear(document, left):
    for ascii_only in (True, False):
        text = json.dumps(document, ensure_ascii=ascii_only)
        assert card_data_left(text, lambda: json_named_values(document)) == left
