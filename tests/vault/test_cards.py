"""Card data as extracted: every rule of CardData.problems, normalising, masking."""

from __future__ import annotations

from datetime import date

import pytest

from backend.vault.cards import CardData, masked_number

GOOD = CardData("4111111111111111", "Ana Silva", "9", "27", "123")


def test_a_good_card_has_no_problems_and_normalises():
    assert GOOD.problems() == []
    assert GOOD.normalised() == CardData("4111111111111111", "Ana Silva", "09", "2027", "123")


def test_separators_and_four_digit_years_are_accepted():
    card = CardData("4111-1111 1111-1111", None, "12", "2031", None)
    assert card.problems() == []
    assert card.normalised() == CardData("4111111111111111", None, "12", "2031", None)


@pytest.mark.parametrize(("card", "problem"), [
    (CardData(None, None, "1", "30"), "card_number is missing"),
    (CardData("4111 1111", None, "1", "30"), "card_number must have 12 to 19 digits"),
    (CardData("41111111111111111111", None, "1", "30"), "card_number must have 12 to 19 digits"),
    (CardData("4111x11111111111", None, "1", "30"), "card_number must have 12 to 19 digits"),
    (CardData("４１１１１１１１１１１１１１１１", None, "1", "30"), "card_number must have 12 to 19 digits"),
    (CardData("4111111111111112", None, "1", "30"), "card_number fails the check digit (Luhn)"),
    (CardData("4111111111111111", None, None, "30"), "expiration_month is missing"),
    (CardData("4111111111111111", None, "13", "30"), "expiration_month must be a month from 1 to 12"),
    (CardData("4111111111111111", None, "0", "30"), "expiration_month must be a month from 1 to 12"),
    (CardData("4111111111111111", None, "/1", "30"), "expiration_month must be a month from 1 to 12"),
    (CardData("4111111111111111", None, "1", None), "expiration_year is missing"),
    (CardData("4111111111111111", None, "1", "202"), "expiration_year must have 2 or 4 digits"),
    (CardData("4111111111111111", None, "1", "/202"), "expiration_year must have 2 or 4 digits"),
    (CardData("4111111111111111", None, "1", "30", "12"), "service_code must have 3 or 4 digits"),
    (CardData("4111111111111111", None, "1", "30", "12345"), "service_code must have 3 or 4 digits"),
    (CardData("4111111111111111", "x" * 256, "1", "30"), "cardholder_name is longer than 255 characters"),
])
def test_each_problem_is_named_without_the_number(card, problem):
    assert card.problems() == [problem]
    assert "4111" not in problem and "," not in problem


def test_all_problems_at_once():
    assert len(CardData("1234", None, "13", "1", "1").problems()) == 4


def test_expired_at_the_end_of_its_month():
    card = GOOD.normalised()
    assert not card.expired(date(2027, 9, 30))
    assert card.expired(date(2027, 10, 1))


@pytest.mark.parametrize(("value", "shown"), [
    ("4111111111111111", "411111******1111"),
    ("378282246310005", "378282*****0005"),
    ("4111 1111 1111 1111", "411111******1111"),
    ("4111111", "*******"),  # too short to show first 6 and last 4 of it
    ("n/a", "***"),
])
def test_masked_number(value, shown):
    assert masked_number(value) == shown


def test_masked_and_repr_never_show_the_number_or_cvv():
    assert GOOD.masked() == {"card_number": "411111******1111", "cardholder_name": "Ana Silva",
                             "expiration_month": "9", "expiration_year": "27", "service_code": "***"}
    assert "4111111111111111" not in repr(GOOD) and "123" not in repr(GOOD)
