"""The restriction rules of DESIGN.md §5, each with a case, read through the shopping API's rooms call."""

from __future__ import annotations

import pytest

from tests.shopping.shop import check, day, make_shop


@pytest.fixture
def shop(user):
    return make_shop(user, rate="100.00")


def sellable(shop, anonymous, arrival: int, departure: int) -> bool:
    return bool(shop.prices(anonymous, day(arrival), day(departure)))


def test_open_stay_is_priced_as_the_sum_of_its_nights(shop, anonymous):
    shop.restrict(day(4), rate="150.00")
    assert shop.prices(anonymous, day(3), day(6)) == ["350.00"]


def test_closed_to_arrival_applies_to_the_arrival_date_only(shop, anonymous):
    shop.restrict(day(5), closed_to_arrival=True)
    assert not sellable(shop, anonymous, 5, 7)
    assert sellable(shop, anonymous, 4, 7)  # staying through day 5 is fine


def test_closed_to_departure_applies_to_the_departure_date_only(shop, anonymous):
    shop.restrict(day(5), closed_to_departure=True)
    assert not sellable(shop, anonymous, 3, 5)
    assert sellable(shop, anonymous, 3, 6)
    assert sellable(shop, anonymous, 5, 6)  # arriving on it is fine


def test_stop_sell_closes_every_night_it_covers_but_not_the_departure(shop, anonymous):
    shop.restrict(day(5), stop_sell=True)
    assert not sellable(shop, anonymous, 4, 6)
    assert sellable(shop, anonymous, 3, 5)
    assert sellable(shop, anonymous, 6, 8)


def test_min_stay_arrival_is_the_arrival_dates_value(shop, anonymous):
    shop.restrict(day(5), min_stay_arrival=3)
    assert not sellable(shop, anonymous, 5, 7)
    assert sellable(shop, anonymous, 5, 8)
    assert sellable(shop, anonymous, 4, 6)  # only arrivals on day 5 are bound


def test_min_stay_through_binds_every_stay_over_the_night(shop, anonymous):
    shop.restrict(day(6), min_stay_through=4)
    assert not sellable(shop, anonymous, 5, 7)  # through day 6 with 2 nights
    assert sellable(shop, anonymous, 4, 8)
    assert sellable(shop, anonymous, 3, 6)  # leaves before the night of day 6


def test_highest_min_stay_through_wins(shop, anonymous):
    shop.restrict(day(5), min_stay_through=2)
    shop.restrict(day(6), min_stay_through=3)
    assert not sellable(shop, anonymous, 5, 7)
    assert sellable(shop, anonymous, 5, 8)


def test_min_stay_type_enforces_only_its_kind(shop, anonymous):
    shop.restrict(day(5), min_stay_arrival=3)
    shop.restrict(day(10), min_stay_through=3)
    shop.settings(min_stay_type="through")
    assert sellable(shop, anonymous, 5, 7)  # arrival min stay ignored
    assert not sellable(shop, anonymous, 10, 12)
    shop.settings(min_stay_type="arrival")
    assert not sellable(shop, anonymous, 5, 7)
    assert sellable(shop, anonymous, 10, 12)


def test_min_stay_key_follows_the_min_stay_type(shop, anonymous):
    shop.settings(min_stay_type="through")
    shop.restrict(day(5), min_stay=3)
    cell = check(shop.user.client.get("/api/v1/restrictions", params={
        "filter[property_id]": shop.property_id, "filter[date][gte]": day(5), "filter[date][lte]": day(5)}))
    assert cell["data"][shop.plan_id][day(5)]["min_stay_through"] == 3
    assert cell["data"][shop.plan_id][day(5)]["min_stay_arrival"] == 1


def test_max_stay_is_the_arrival_dates_value(shop, anonymous):
    shop.restrict(day(5), max_stay=2)
    assert not sellable(shop, anonymous, 5, 8)
    assert sellable(shop, anonymous, 5, 7)
    assert sellable(shop, anonymous, 4, 8)


def test_a_missing_rate_makes_the_plan_unavailable(shop, anonymous):
    assert not sellable(shop, anonymous, 28, 31)  # rates were set for 30 days only


def test_no_availability_closes_the_night(shop, anonymous):
    shop.available(day(5), day(5), 0)
    assert not sellable(shop, anonymous, 4, 6)
    assert sellable(shop, anonymous, 6, 7)


def test_nights_beyond_state_length_are_closed(user, anonymous):
    shop = make_shop(user, settings={"state_length": 100}, days=0)
    shop.available(day(95), day(110), 2)
    warnings = shop.restrict(day(95), day(110), rate="100.00")["meta"]["warnings"]
    assert warnings and "state_length" in warnings[0]["message"]
    assert sellable(shop, anonymous, 95, 99)
    response = shop.rooms(anonymous, day(98), day(102))
    assert response.status_code == 422
    assert "checkout_date" in response.json()["errors"]["details"]


def test_occupancy_picks_the_smallest_option_that_holds_the_guests(user, anonymous):
    shop = make_shop(user, capacity=3, days=0)
    check(user.client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {"options": [
        {"occupancy": 1, "rate": "70.00"}, {"occupancy": 2, "rate": "90.00", "is_primary": True}]}}))
    shop.available(day(0), day(9), 2)
    shop.restrict(day(0), day(9), rate="100.00")
    assert shop.prices(anonymous, day(2), day(4), adults="1") == ["160.00"]  # (100 - 20) × 2
    assert shop.prices(anonymous, day(2), day(4), adults="2") == ["200.00"]
    assert shop.prices(anonymous, day(2), day(4), adults="3") == []  # above the largest option: not sold
    assert shop.prices(anonymous, day(2), day(4), adults="1", children="1") == ["200.00"]
    assert sorted(shop.prices(anonymous, day(2), day(4))) == ["160.00", "200.00"]  # one per option


def test_per_person_plans_multiply_by_the_guests(user, anonymous):
    shop = make_shop(user, rate="40.00")
    check(user.client.put(f"/api/v1/rate_plans/{shop.plan_id}", json={"rate_plan": {"sell_mode": "per_person"}}))
    assert shop.prices(anonymous, day(2), day(4), adults="2") == ["160.00"]


def test_published_week_of_stop_sell_cta_and_ctd(user, anonymous):
    """A week as a channel manager would publish it: Mon open, Tue CTA, Wed stop sell, Thu CTD, Fri-Sun open."""
    shop = make_shop(user)
    base = 7  # a week from today, whatever weekday that is
    shop.restrict(day(base + 1), closed_to_arrival=True)
    shop.restrict(day(base + 2), stop_sell=True)
    shop.restrict(day(base + 3), closed_to_departure=True)
    closed = check(anonymous.get(f"{shop.meta}/closed_dates"))["data"]["attributes"]
    assert day(base + 2) in closed["closed"] and day(base + 1) not in closed["closed"]
    assert day(base + 1) in closed["closed_to_arrival"]
    assert day(base + 3) in closed["closed_to_departure"]
    assert day(base) not in closed["closed_to_arrival"] + closed["closed_to_departure"]
    expected = {(0, 1): True, (0, 2): True, (0, 3): False, (1, 2): False, (2, 3): False, (3, 4): True,
                (3, 5): True, (4, 6): True, (0, 4): False, (4, 7): True}
    found = {(a, d): sellable(shop, anonymous, base + a, base + d) for a, d in expected}
    assert found == expected
    # Mon-Thu needs the Wed night (stop sell); Tue arrivals are closed; leaving on Thu is closed.
