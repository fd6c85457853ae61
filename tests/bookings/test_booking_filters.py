"""`GET /api/v1/bookings` finds bookings by a guest's name and by where their stay stands on each property's own
today, over real HTTP (`frontdesk serve`'s listeners on loopback, a frozen clock). The service documents no such
filters (reference §3: arrival_date, departure_date, inserted_at); ours keep its `filter[field]=value` shape and its
error shape: a value that can't be used is a 422 naming the filter."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest

from backend.engine import Engine
from tests.conftest import CONTACT, User, serve_site

# 11:00 in UTC: the 23rd has begun in Auckland (UTC+13), Honolulu (UTC−10) is still on the 22nd.
NOW = datetime(2026, 11, 22, 11, 0, tzinfo=UTC)
CARD = "4111 1111 1111 1111"


def check(response: httpx.Response, status: int = 200) -> dict:
    assert response.status_code == status, response.text
    return response.json()


@dataclass
class Hotels:
    """Two hotels on Booking.com, in Auckland and Honolulu, and the channel's adapter sending their bookings."""

    user: User
    adapter: httpx.Client
    channel_id: str
    rooms: dict[str, tuple[str, str, str]]  # hotel → property, room type and rate plan IDs

    def book(self, hotel: str, number: str, arrival: str, departure: str, *, status: str = "new",
             customer: dict | None = None, guests: list[dict] | None = None) -> str:
        property_id, room, plan = self.rooms[hotel]
        body = {"booking": {
            "status": status, "reservation_id": number, "property_id": property_id, "currency": "EUR",
            "arrival_date": arrival, "departure_date": departure,
            "customer": customer or {"name": "Jane", "surname": "Doe"},
            "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2},
                       "guests": guests or []}]}}
        answer = check(self.adapter.post(f"/api/v1/inbound/{self.channel_id}/bookings", json=body),
                       201 if status == "new" else 200)
        return answer["data"]["attributes"]["unique_id"]

    def numbers(self, client: httpx.Client | None = None, **filters: str) -> list[str]:
        body = check((client or self.user.client).get("/api/v1/bookings", params={
            **{f"filter[{name}]": value for name, value in filters.items()}, "pagination[limit]": "100"}))
        return sorted(booking["attributes"]["unique_id"] for booking in body["data"])


@pytest.fixture
def site(new_db) -> Iterator:
    with serve_site(new_db(), clock=lambda: NOW) as made:
        yield made


@pytest.fixture
def hotels(site) -> Iterator[Hotels]:
    user = site.user()
    rooms, plans = {}, []
    for hotel, zone in (("auckland", "Pacific/Auckland"), ("honolulu", "Pacific/Honolulu")):
        property_id = check(user.client.post("/api/v1/properties", json={"property": {
            "title": hotel.title(), "currency": "EUR", "timezone": zone, **CONTACT}}), 201)["data"]["id"]
        room = check(user.client.post("/api/v1/room_types", json={"room_type": {
            "property_id": property_id, "title": "Double", "count_of_rooms": 5, "occ_adults": 2}}), 201)["data"]["id"]
        plan = check(user.client.post("/api/v1/rate_plans", json={"rate_plan": {
            "property_id": property_id, "room_type_id": room, "title": "Flexible", "currency": "EUR",
            "options": [{"occupancy": 2, "is_primary": True, "rate": "100.00"}]}}), 201)["data"]["id"]
        rooms[hotel] = (property_id, room, plan)
        plans.append(plan)
    channel = check(user.client.post("/api/v1/channels", json={"channel": {
        "title": "Booking.com", "channel": "BookingCom", "properties": [r[0] for r in rooms.values()],
        "rate_plans": [{"rate_plan_id": plan} for plan in plans]}}), 201)["data"]["attributes"]
    with httpx.Client(base_url=site.main.url, timeout=10, headers={"api-key": channel["inbound_key"]}) as adapter:
        yield Hotels(user, adapter, channel["id"], rooms)
    user.client.close()


@pytest.fixture
def stays(hotels: Hotels) -> Hotels:
    """Bookings around each hotel's today: the 23rd in Auckland, the 22nd in Honolulu."""
    hotels.book("auckland", "A-ARRIVES", "2026-11-23", "2026-11-25")
    hotels.book("auckland", "A-LEAVES", "2026-11-20", "2026-11-23")
    hotels.book("auckland", "A-STAYS", "2026-11-21", "2026-11-25")
    hotels.book("auckland", "A-CAME-YESTERDAY", "2026-11-22", "2026-11-24")  # arriving today, by UTC's date
    hotels.book("auckland", "A-CANCELLED", "2026-11-23", "2026-11-24")
    hotels.book("auckland", "A-CANCELLED", "2026-11-23", "2026-11-24", status="cancelled")
    hotels.book("auckland", "A-LEFT", "2026-11-19", "2026-11-22")
    hotels.book("honolulu", "H-ARRIVES", "2026-11-22", "2026-11-24")
    hotels.book("honolulu", "H-TOMORROW", "2026-11-23", "2026-11-24")  # Auckland's today, not Honolulu's
    hotels.book("honolulu", "H-LEAVES", "2026-11-21", "2026-11-22")
    return hotels


def test_arrivals_departures_and_in_house_by_each_propertys_today(stays: Hotels) -> None:
    assert stays.numbers(stay="arriving_today") == ["BDC-A-ARRIVES", "BDC-H-ARRIVES"]
    assert stays.numbers(stay="departing_today") == ["BDC-A-LEAVES", "BDC-H-LEAVES"]
    assert stays.numbers(stay="in_house") == ["BDC-A-ARRIVES", "BDC-A-CAME-YESTERDAY", "BDC-A-STAYS",
                                              "BDC-H-ARRIVES"]
    assert stays.numbers(stay="arriving_today,departing_today") == ["BDC-A-ARRIVES", "BDC-A-LEAVES",
                                                                    "BDC-H-ARRIVES", "BDC-H-LEAVES"]
    honolulu = stays.rooms["honolulu"][0]
    assert stays.numbers(stay="arriving_today", property_id=honolulu) == ["BDC-H-ARRIVES"]


def test_a_stay_filter_that_is_not_one_is_a_422_naming_it(stays: Hotels) -> None:
    for params, key in (({"filter[stay]": "tomorrow"}, "filter[stay]"),
                        ({"filter[stay]": "in_house,"}, "filter[stay]"),
                        ({"filter[stay][not]": "in_house"}, "filter[stay][not]"),
                        ({"order[stay]": "asc"}, "order[stay]")):
        error = check(stays.user.client.get("/api/v1/bookings", params=params), 422)["errors"]
        assert error["code"] == "validation_error" and list(error["details"]) == [key]
    said = check(stays.user.client.get("/api/v1/bookings", params={"filter[stay]": "x"}), 422)
    assert said["errors"]["details"]["filter[stay]"] == [
        "must be arriving_today, departing_today or in_house (or several, with commas), as filter[stay]=…"]


def test_guests_are_found_by_part_of_a_name_whatever_its_case_or_accents(hotels: Hotels) -> None:
    hotels.book("auckland", "ZOE", "2026-12-01", "2026-12-03", customer={"name": "Zoë", "surname": "Ångström"},
                guests=[{"name": "Pierre", "surname": "Lefèvre"}])
    hotels.book("honolulu", "KAI", "2026-12-01", "2026-12-03", customer={"name": "Kai", "surname": "Kealoha"})
    for words in ("angstrom", "ZOË ÅNG", "zoe  angstrom", "lefevre", "Pierre Lef", "ÈVRE"):
        assert hotels.numbers(guest_name=words) == ["BDC-ZOE"], words
    assert check(hotels.user.client.get("/api/v1/bookings", params={"filter[guest_name][has]": "KEAL"}))["meta"][
        "total"] == 1
    assert hotels.numbers(guest_name="zoe kai") == []  # two people are not one name
    assert hotels.numbers(guest_name="%") == [] and hotels.numbers(guest_name="_") == []  # no wildcards
    assert hotels.numbers(search="bdc-k") == ["BDC-KAI"]  # the number, or a guest's name
    assert hotels.numbers(search="pierre") == ["BDC-ZOE"]


def test_a_modified_booking_is_found_by_its_new_guest_only(hotels: Hotels) -> None:
    hotels.book("auckland", "M-1", "2026-12-01", "2026-12-03", customer={"name": "Ana", "surname": "Costa"})
    hotels.book("auckland", "M-1", "2026-12-01", "2026-12-03", status="modified",
                customer={"name": "Rui", "surname": "Costa"})
    assert hotels.numbers(guest_name="rui") == ["BDC-M-1"] and hotels.numbers(guest_name="ana") == []


def test_a_search_that_is_not_one_is_a_422_naming_it(hotels: Hotels) -> None:
    for params, key in (({"filter[guest_name][gt]": "a"}, "filter[guest_name][gt]"),
                        ({"filter[guest_name]": "x" * 201}, "filter[guest_name]"),
                        ({"filter[search][not]": "a"}, "filter[search][not]"),
                        ({"filter[is_unmapped]": "maybe"}, "filter[is_unmapped]")):
        error = check(hotels.user.client.get("/api/v1/bookings", params=params), 422)["errors"]
        assert list(error["details"]) == [key]
    assert check(hotels.user.client.get("/api/v1/bookings", params={"filter[guest_name]": "x" * 200}))["data"] == []


def test_names_and_stays_reach_only_ones_own_bookings(site, stays: Hotels) -> None:
    stranger = site.user()
    assert stays.numbers(stranger.client, stay="in_house") == []
    assert stays.numbers(stranger.client, guest_name="doe") == []
    assert stays.numbers(guest_name="doe")  # the hotels' own users find them
    stranger.client.close()


def test_a_card_number_typed_as_a_name_is_never_found_or_kept(site, hotels: Hotels) -> None:
    hotels.book("auckland", "CARD", "2026-12-01", "2026-12-03", customer={"name": "Jo", "surname": CARD})
    assert hotels.numbers(guest_name="4111111111111111") == []
    assert hotels.numbers(guest_name=CARD) == []
    assert hotels.numbers(guest_name="jo") == ["BDC-CARD"]
    names = site.engine.store.scalar("SELECT guest_names FROM bookings WHERE unique_id = 'BDC-CARD'")
    assert "1111 1111" not in names and "4111111111111111" not in names.replace(" ", "")


def test_flags_filter_overbooked_and_unmapped_bookings(hotels: Hotels) -> None:
    property_id, room, _ = hotels.rooms["auckland"]
    body = {"booking": {"status": "new", "reservation_id": "UNMAPPED", "property_id": property_id,
                        "currency": "EUR", "arrival_date": "2026-12-01", "departure_date": "2026-12-02",
                        "customer": {"surname": "Doe"},
                        "rooms": [{"room_type_code": room, "rate_plan_code": "NO-SUCH-RATE", "occupancy": {"adults": 1},
                                   "days": {"2026-12-01": "90.00"}}]}}
    check(hotels.adapter.post(f"/api/v1/inbound/{hotels.channel_id}/bookings", json=body), 201)
    hotels.book("auckland", "NO-ROOMS", "2026-12-05", "2026-12-06")  # no availability was ever set
    assert hotels.numbers(is_unmapped="true") == ["BDC-UNMAPPED"]
    assert hotels.numbers(is_overbooked="true") == ["BDC-NO-ROOMS"]


def test_bookings_stored_before_names_were_kept_are_found_once_an_engine_opens(hotels: Hotels, site) -> None:
    hotels.book("auckland", "OLD", "2026-12-01", "2026-12-03", customer={"name": "Émile", "surname": "Zola"})
    with site.engine.store.transaction() as conn:
        conn.execute("UPDATE bookings SET guest_names = NULL")  # as migration 0019 leaves them
    assert hotels.numbers(guest_name="zola") == []
    Engine.open(site.engine.store.location, site.engine.config).close()  # what any frontdesk command does first
    assert hotels.numbers(guest_name="emile zola") == ["BDC-OLD"]


def test_a_full_pages_total_follows_bookings_made_modified_and_cancelled(hotels: Hotels) -> None:
    """A page that is full tells the total from counts kept beside the bookings (by status and property), never by
    counting every booking: those counts follow each new booking, modification and cancellation."""
    for number in ("T-1", "T-2", "T-3"):
        hotels.book("auckland", number, "2026-12-01", "2026-12-03")
    hotels.book("honolulu", "T-4", "2026-12-01", "2026-12-03")
    hotels.book("auckland", "T-2", "2026-12-01", "2026-12-04", status="modified")
    hotels.book("auckland", "T-3", "2026-12-01", "2026-12-03", status="cancelled")

    def total(**filters: str) -> int:
        return check(hotels.user.client.get("/api/v1/bookings", params={
            **{f"filter[{name}]": value for name, value in filters.items()}, "pagination[limit]": "1"}))["meta"]["total"]

    auckland, honolulu = hotels.rooms["auckland"][0], hotels.rooms["honolulu"][0]
    assert total() == 4
    assert (total(status="new"), total(status="modified"), total(status="cancelled")) == (2, 1, 1)
    assert total(status="new,cancelled") == 3
    assert total(property_id=auckland) == 3 and total(property_id=f"{auckland},{honolulu}", status="new") == 2
    assert total(property_id=auckland, status="modified") == 1
    assert total(guest_name="doe") == 4  # a filter the counts don't hold is counted the long way
