"""Reports about a booking to its channel (reference §4.5 "Reporting"; the service's bookings-collection page,
"Reporting API"): `POST /bookings/:id/no_show` with `{"no_show_report": {"waived_fees"}}`, `/invalid_card` and
`/cancel_due_invalid_card`, each answering `{"meta": {"message": "Success"}}`, under Booking.com's rules in the
property's own time; recorded on the booking and waiting in the channel's report feed until its adapter acks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest

from backend.core.config import Config
from backend.core.errors import ValidationFailed
from backend.core.listing import ListQuery
from tests.conftest import CONTACT
from tests.shopping.shop import CARD, Shop, booking, check, day, make_shop
from tests.stores import Database

SUCCESS = {"meta": {"message": "Success"}}


@dataclass
class Channel:
    """A hotel on Booking.com, and the channel's adapter."""

    shop: Shop
    adapter: httpx.Client

    def book(self, reservation_id: str, arrival: str, departure: str, **fields) -> str:
        body = booking(self.shop, arrival, departure, reservation_id=reservation_id, property_id=self.shop.property_id,
                       **fields)
        return check(self.adapter.post(f"/api/v1/inbound/{self.shop.channel_id}/bookings", json=body), 201)["data"]["id"]

    def reports(self) -> list[dict]:
        return check(self.adapter.get(f"/api/v1/inbound/{self.shop.channel_id}/reports"))["data"]


@pytest.fixture
def bdc(user, live) -> Iterator[Channel]:
    shop = make_shop(user, rooms=3, channel_code="BookingCom")
    with httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": shop.inbound_key}) as adapter:
        yield Channel(shop, adapter)


def report(client: httpx.Client, booking_id: str, kind: str, **body) -> httpx.Response:
    return client.post(f"/api/v1/bookings/{booking_id}/{kind}", json=body or None)


def test_a_no_show_is_kept_on_the_booking_and_waits_for_the_channel(bdc, user):
    booking_id = bdc.book("NS-1", day(0), day(2), guarantee=CARD)  # arriving today
    assert check(report(user.client, booking_id, "no_show", no_show_report={"waived_fees": True})) == SUCCESS
    shown = check(user.client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]
    assert shown["status"] == "new"  # the channel answers with its own revision, if any
    [kept] = shown["reports"]
    assert (kept["report"], kept["waived_fees"], kept["delivered_at"]) == ("no_show", True, None)

    [told] = bdc.reports()
    assert told["type"] == "booking_report" and told["id"] == kept["id"]
    assert told["attributes"]["booking_id"] == booking_id and told["attributes"]["unique_id"] == "BDC-NS-1"
    assert (told["attributes"]["report"], told["attributes"]["ota_reservation_code"]) == ("no_show", "NS-1")
    assert check(bdc.adapter.post(f"/api/v1/inbound/{bdc.shop.channel_id}/reports/{told['id']}/ack")) == SUCCESS
    assert bdc.reports() == []
    assert check(user.client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]["reports"][0]["delivered_at"]

    again = check(report(user.client, booking_id, "no_show", no_show_report={"waived_fees": False}), 422)
    assert list(again["errors"]["details"]) == ["no_show"]


def test_an_invalid_card_comes_before_a_cancellation_for_it(bdc, user):
    later = bdc.book("IC-1", day(3), day(5), guarantee=CARD)
    refused = check(report(user.client, later, "no_show", no_show_report={"waived_fees": False}), 422)
    assert refused["errors"]["details"] == {"arrival_date": [f"({day(3)}) allows a no-show from its 00:00 for 48 hours"]}
    first = check(report(user.client, later, "cancel_due_invalid_card"), 422)["errors"]["details"]["invalid_card"]
    assert first == ["must be reported first, and the guest given time to send another card"]
    assert check(report(user.client, later, "invalid_card")) == SUCCESS
    too_soon = check(report(user.client, later, "cancel_due_invalid_card"), 422)["errors"]["details"]["invalid_card"]
    assert too_soon[0].startswith("was reported: the guest may send another card until ")
    assert check(user.client.get(f"/api/v1/bookings/{later}"))["data"]["attributes"]["status"] == "new"
    assert [r["attributes"]["report"] for r in bdc.reports()] == ["invalid_card"]

    no_card = bdc.book("IC-2", day(3), day(5))
    assert list(check(report(user.client, no_card, "invalid_card"), 422)["errors"]["details"]) == ["guarantee"]
    gone = bdc.book("IC-3", day(3), day(5), guarantee=CARD)
    bdc.adapter.post(f"/api/v1/inbound/{bdc.shop.channel_id}/bookings", json={"booking": {
        "status": "cancelled", "reservation_id": "IC-3", "property_id": bdc.shop.property_id}})
    assert list(check(report(user.client, gone, "invalid_card"), 422)["errors"]["details"]) == ["status"]


def test_only_booking_com_bookings_take_reports(user, anonymous):
    shop = make_shop(user)
    pushed = check(anonymous.post(f"{shop.meta}/push_booking", json=booking(shop, day(0), day(1), guarantee=CARD)),
                   201)["data"]["id"]
    for kind, body in (("no_show", {"no_show_report": {"waived_fees": False}}), ("invalid_card", {}),
                       ("cancel_due_invalid_card", {})):
        refused = check(report(user.client, pushed, kind, **body), 422)["errors"]
        assert refused["code"] == "not_supported" and "Booking.com" in refused["details"]


def test_report_routes_refuse_what_they_must(bdc, user, make_user, anonymous):
    booking_id = bdc.book("RR-1", day(0), day(2), guarantee=CARD)
    stranger = make_user()
    for kind in ("no_show", "invalid_card", "cancel_due_invalid_card"):
        body = {"no_show_report": {"waived_fees": False}} if kind == "no_show" else {}
        assert report(anonymous, booking_id, kind, **body).status_code == 401
        assert report(stranger.client, booking_id, kind, **body).status_code == 401
        assert check(report(user.client, "no-such-booking", kind, **body), 404)["errors"]["code"] == "not_found"
        huge = {"content": b"{" + b" " * (2 * 1024 * 1024) + b"}", "headers": {"Content-Type": "application/json"}}
        assert check(user.client.post(f"/api/v1/bookings/{booking_id}/{kind}", **huge), 413)["errors"]["code"] == \
            "payload_too_large"
        assert anonymous.post(f"/api/v1/bookings/{booking_id}/{kind}", **huge).status_code == 401  # before the body
    wrong = check(report(user.client, booking_id, "no_show", no_show_report={"waived_fees": "yes"}), 422)
    assert list(wrong["errors"]["details"]) == ["waived_fees"]
    assert check(report(user.client, booking_id, "no_show"), 400)["errors"]["code"] == "bad_request"
    typed = report(user.client, booking_id, "no_show", no_show_report={"waived_fees": False, "note": "4111111111111111"})
    assert check(typed, 422)["errors"]["details"] == {"note": ["is not a known field"]}
    assert "4111111111111111" not in typed.text
    assert check(user.client.get(f"/api/v1/bookings/{booking_id}"))["data"]["attributes"]["reports"] == []
    wrong_key = httpx.post(f"{bdc.adapter.base_url}/api/v1/inbound/{bdc.shop.channel_id}/reports/x/ack",
                           headers={"api-key": "wrong-key-wrong-key"})
    assert wrong_key.status_code == 401
    unknown = bdc.adapter.post(f"/api/v1/inbound/{bdc.shop.channel_id}/reports/no-such-report/ack")
    assert check(unknown, 404)["errors"]["code"] == "not_found"


# --- the rules in time, on an engine whose clock the test moves ----------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)  # bookings are stamped with the real time: the clock starts there

    def __call__(self) -> datetime:
        return self.now


class Hotel:
    """A hotel in Tokyo on Booking.com, driven through the engine: the rules read the property's own time."""

    ZONE = ZoneInfo("Asia/Tokyo")

    def __init__(self, database: Database) -> None:
        self.clock = Clock()
        self.engine = engine = database.engine(Config(clock=self.clock))
        self.op = op = engine.identity.operator()
        self.property_id = engine.properties.create(op, {"title": "Hotel Sakura", "currency": "JPY", **CONTACT,
                                                         "timezone": "Asia/Tokyo"})["id"]
        self.room = engine.inventory.room_types.create(op, {"property_id": self.property_id, "title": "Twin",
                                                            "count_of_rooms": 4, "occ_adults": 2})["id"]
        self.plan = engine.inventory.rate_plans.create(op, {"property_id": self.property_id, "room_type_id": self.room,
                                                            "title": "Flex", "options": [{"occupancy": 2, "rate": "9000"}]})["id"]
        made = engine.channels.create(op, {"title": "Booking.com", "channel_code": "BookingCom",
                                           "property_ids": [self.property_id], "rate_plan_ids": [self.plan]})
        self.channel = engine.bookings.channel_by_key(made["id"], made["inbound_key"])
        dates = {"property_id": self.property_id, "date_from": self.day(0).isoformat(),
                 "date_to": self.day(30).isoformat()}
        engine.inventory.ari.set_availability(op, [{**dates, "room_type_id": self.room, "availability": 4}])
        engine.inventory.ari.set_restrictions(op, [{**dates, "rate_plan_id": self.plan, "rate": "9000"}])

    def day(self, offset: int) -> date:
        return self.clock.now.astimezone(self.ZONE).date() + timedelta(days=offset)

    def at(self, day: date, hour: int, minute: int = 0) -> None:
        """Move the clock to a time of the property's day."""
        self.clock.now = datetime.combine(day, time(hour, minute), self.ZONE)

    def book(self, arrival: date, nights: int, rooms: int = 1) -> dict:
        body = {"status": "new", "reservation_id": f"T-{arrival}-{nights}-{rooms}", "property_id": self.property_id,
                "arrival_date": arrival.isoformat(), "departure_date": (arrival + timedelta(days=nights)).isoformat(),
                "currency": "JPY", "customer": {"surname": "Sato"}, "guarantee": CARD,
                "rooms": [{"room_type_code": self.room, "rate_plan_code": self.plan, "occupancy": {"adults": 2}}] * rooms}
        return self.engine.bookings.inbound(self.channel, body, secure=False)[0]

    def availability(self, arrival: date) -> int:
        return self.engine.store.scalar("SELECT availability FROM availability WHERE room_type_id = ? AND date = ?",
                                        (self.room, arrival.isoformat()))


@pytest.fixture
def hotel(new_db) -> Hotel:
    return Hotel(new_db("reports"))


def refused(call, field: str) -> None:
    with pytest.raises(ValidationFailed) as caught:
        call()
    assert list(caught.value.details) == [field], caught.value.details


def test_a_no_show_is_reported_from_midnight_of_the_arrival_date_for_48_hours(hotel):
    reports, arrival = hotel.engine.bookings.reports, hotel.day(2)
    booking = hotel.book(arrival, 3)
    hotel.at(arrival - timedelta(days=1), 23, 59)
    refused(lambda: reports.no_show(hotel.op, booking["id"], {}), "arrival_date")
    hotel.at(arrival + timedelta(days=2), 0, 0)
    refused(lambda: reports.no_show(hotel.op, booking["id"], {}), "arrival_date")
    hotel.at(arrival + timedelta(days=1), 23, 59)
    assert reports.no_show(hotel.op, booking["id"], {})["reports"][0]["waived_fees"] is False


def test_a_card_declined_long_before_arrival_gives_the_guest_24_hours(hotel):
    reports, arrival = hotel.engine.bookings.reports, hotel.day(10)
    booking = hotel.book(arrival, 2)
    taken = hotel.availability(arrival)
    reports.invalid_card(hotel.op, booking["id"])
    start = hotel.clock.now
    hotel.clock.now = start + timedelta(hours=23, minutes=59)
    refused(lambda: reports.cancel_due_invalid_card(hotel.op, booking["id"]), "invalid_card")
    hotel.clock.now = start + timedelta(hours=24)
    cancelled = reports.cancel_due_invalid_card(hotel.op, booking["id"])
    assert cancelled["status"] == "cancelled" and hotel.availability(arrival) == taken + 1  # its room is free again
    assert [r["report"] for r in cancelled["reports"]] == ["invalid_card", "cancel_due_invalid_card"]
    feed = hotel.engine.bookings.revisions(hotel.op, ListQuery(), feed=True)[0]
    assert [(r["status"], r["booking_id"]) for r in feed] == [("new", booking["id"]), ("cancelled", booking["id"])]
    refused(lambda: reports.invalid_card(hotel.op, booking["id"]), "invalid_card")


def test_a_card_declined_on_a_late_booking_gives_until_15_00_of_the_arrival_date_but_at_least_2_hours(hotel):
    reports, arrival = hotel.engine.bookings.reports, hotel.day(1)  # booked within 48 hours of arrival
    booking = hotel.book(arrival, 2)
    hotel.at(arrival, 10)
    reports.invalid_card(hotel.op, booking["id"])
    hotel.at(arrival, 14, 59)
    refused(lambda: reports.cancel_due_invalid_card(hotel.op, booking["id"]), "invalid_card")
    hotel.at(arrival, 15)
    assert reports.cancel_due_invalid_card(hotel.op, booking["id"])["status"] == "cancelled"

    afternoon = hotel.book(arrival, 1)
    hotel.at(arrival, 14)
    reports.invalid_card(hotel.op, afternoon["id"])
    hotel.at(arrival, 15, 59)
    refused(lambda: reports.cancel_due_invalid_card(hotel.op, afternoon["id"]), "invalid_card")
    hotel.at(arrival, 16)
    assert reports.cancel_due_invalid_card(hotel.op, afternoon["id"])["status"] == "cancelled"
    hotel.at(arrival + timedelta(days=1), 0)
    refused(lambda: reports.invalid_card(hotel.op, hotel.book(arrival, 1, rooms=2)["id"]), "arrival_date")


def test_ten_room_nights_booked_late_may_be_cancelled_2_hours_after_the_card_is_declined(hotel):
    reports, arrival = hotel.engine.bookings.reports, hotel.day(1)
    booking = hotel.book(arrival, 5, rooms=2)
    hotel.at(arrival - timedelta(days=1), 20)
    reports.invalid_card(hotel.op, booking["id"])
    hotel.at(arrival - timedelta(days=1), 21, 59)
    refused(lambda: reports.cancel_due_invalid_card(hotel.op, booking["id"]), "invalid_card")
    hotel.at(arrival - timedelta(days=1), 22)
    assert reports.cancel_due_invalid_card(hotel.op, booking["id"])["status"] == "cancelled"


def test_an_overbooked_booking_is_no_no_show(hotel):
    reports, arrival = hotel.engine.bookings.reports, hotel.day(0)
    full = hotel.book(arrival, 1, rooms=5)  # four rooms to sell: taken anyway, flagged
    assert full["is_overbooked"]
    refused(lambda: reports.no_show(hotel.op, full["id"], {"waived_fees": True}), "is_overbooked")
