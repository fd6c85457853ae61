"""The one rule that prices taxes (backend/inventory/taxes.py `charges`), on its own: levels, inclusive and exclusive,
every logic, and the nights a tax is charged on. Prices in minor units (EUR)."""

from __future__ import annotations

import json

import pytest

from backend.inventory.taxes import TaxSet, charges

NIGHTS = ("2027-03-01", "2027-03-02", "2027-03-03", "2027-03-04")


def tax(logic: str, rate: str, *, level: int = 0, inclusive: bool = False, skip: int | None = None,
        most: int | None = None, ranges: list | None = None) -> dict:
    return {"title": logic, "logic": logic, "type": "tax", "rate": rate, "currency": None if logic == "percent" else "EUR",
            "is_inclusive": inclusive, "skip_nights": skip, "max_nights": most, "level": level, "position": 0,
            "applicable_date_ranges": json.dumps(ranges or [])}


def charged(*taxes: dict, prices=(10000,), nights=NIGHTS[:1], persons: int = 2) -> list[int]:
    rows = [{**t, "position": i} for i, t in enumerate(taxes)]
    return charges(TaxSet.of("s", rows), nights, prices, persons)


def test_the_documented_levels_a_fee_at_level_1_then_vat_at_level_0_on_the_price_and_the_fee():
    assert charged(tax("per_booking", "10.00", level=1), tax("percent", "20", level=0)) == [1000, 2200]


def test_taxes_of_one_level_share_their_base():
    assert charged(tax("per_booking", "10.00"), tax("percent", "20")) == [1000, 2000]


def test_an_inclusive_percent_is_taken_out_of_the_price():
    assert charged(tax("percent", "10", inclusive=True), prices=(10000, 10000), nights=NIGHTS[:2]) == [1818]


def test_inclusive_levels_the_fee_and_the_vat_on_it_inside_the_price():
    # 132.00 holds 100.00, a 10.00 fee, and 20% VAT on 110.00
    assert charged(tax("per_booking", "10.00", level=1, inclusive=True), tax("percent", "20", inclusive=True),
                   prices=(13200,)) == [1000, 2200]


def test_an_exclusive_tax_is_on_the_price_without_the_inclusive_ones():
    # 110.00 holds 10% VAT (10.00); a 5% city tax on top is on 100.00
    assert charged(tax("percent", "10", inclusive=True), tax("percent", "5"), prices=(11000,)) == [1000, 500]


@pytest.mark.parametrize(("logic", "expected"), [
    ("per_room", 300), ("per_room_per_night", 1200), ("per_person", 600), ("per_person_per_night", 2400),
    ("per_night", 1200), ("per_booking", 300), ("percent", 1200)])  # percent: 3% of 400.00
def test_every_logic(logic, expected):
    rate = "3" if logic == "percent" else "3.00"
    assert charged(tax(logic, rate), prices=(10000,) * 4, nights=NIGHTS) == [expected]


def test_skip_nights_and_max_nights_choose_the_nights_charged():
    four = {"prices": (10000,) * 4, "nights": NIGHTS}
    assert charged(tax("per_night", "1.00", skip=1), **four) == [300]
    assert charged(tax("per_night", "1.00", most=2), **four) == [200]
    assert charged(tax("per_night", "1.00", skip=1, most=2), **four) == [200]
    assert charged(tax("percent", "10", skip=3), prices=(10000, 10000, 10000, 5000), nights=NIGHTS) == [500]
    # a short stay: a tax per stay skipping 4 nights is not charged at all
    assert charged(tax("per_booking", "5.00", skip=4), **four) == [0]


def test_applicable_date_ranges_choose_the_nights_charged():
    four = {"prices": (10000, 20000, 30000, 40000), "nights": NIGHTS}
    ranges = [{"after": "2027-03-02", "before": "2027-03-02"}, {"after": "2027-03-04", "before": None}]
    assert charged(tax("percent", "10", ranges=ranges), **four) == [6000]
    assert charged(tax("per_person_per_night", "1.00", ranges=ranges), **four) == [400]
    assert charged(tax("per_person", "1.00", ranges=ranges), **four) == [200]  # once, any night charged
    assert charged(tax("per_room", "1.00", ranges=[{"after": "2028-01-01"}]), **four) == [0]


def test_levels_with_nights_rules_are_priced_night_by_night():
    # the fee only on the first two nights; VAT everywhere, on the price plus the fee where there is one
    fee = tax("per_night", "10.00", level=1, most=2)
    assert charged(fee, tax("percent", "20"), prices=(10000,) * 4, nights=NIGHTS) == [2000, 8400]
