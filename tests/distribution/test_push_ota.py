"""ARI pushed as OpenTravel XML over real HTTP on loopback: OTA_HotelAvailNotifRQ and OTA_HotelRateAmountNotifRQ
in the OpenTravel namespace, carrying exactly the changed ranges, element by element (no schema file is at hand);
the channel's answer read as OTA: Success delivers (its Warnings logged), Errors is a failure retried until the
channel is marked failing, with sync_error events (which a webhook hears of), until it is resumed."""

from __future__ import annotations

import json
from datetime import datetime

from lxml import etree
from standardwebhooks.webhooks import Webhook

from tests.distribution.conftest import MAX_ATTEMPTS
from tests.distribution.hotel import make_hotel, settled
from tests.receiver import Receiver
from tests.shopping.shop import check, day
from tests.webhooks.hooks import eventually, make_hook

NS = "http://www.opentravel.org/OTA/2003/05"
SUCCESS = f'<OTA_HotelAvailNotifRS xmlns="{NS}" Version="1.000"><Success/></OTA_HotelAvailNotifRS>'.encode()
ERRORS = (f'<OTA_HotelAvailNotifRS xmlns="{NS}" Version="1.000"><Errors><Error Type="6" Code="392">Hotel not '
          f'found for HotelCode=H-77</Error></Errors></OTA_HotelAvailNotifRS>').encode()
WARNINGS = (f'<OTA_HotelRateAmountNotifRS xmlns="{NS}"><Success/><Warnings><Warning Type="3" Code="97" '
            f'ShortText="rate plan inactive"/></Warnings></OTA_HotelRateAmountNotifRS>').encode()


def ota(receiver) -> dict:
    return {"ari_distribution": "push", "ari_url": f"{receiver.url}/ota", "ari_format": "ota"}


def tag(name: str) -> str:
    return f"{{{NS}}}{name}"


def attributes(element) -> dict[str, str]:
    return dict(element.attrib)


def test_ota_messages_carry_exactly_the_changed_ranges(site, owner, receiver):
    receiver.body, receiver.content_type = SUCCESS, "application/xml"
    hotel = make_hotel(owner.client, settings=ota(receiver), codes=True)
    hotel.update(settings={**ota(receiver), "hotel_codes": {hotel.property_id: "H-77"}})
    with hotel.paused():
        hotel.available(day(2), day(4), 3)
        hotel.restrict({"date_from": day(2), "date_to": day(6), "rate": "110.00", "min_stay_arrival": 2,
                        "max_stay": 7}, {"date": day(3), "closed_to_arrival": True})
    settled(site.engine, hotel.channel_id)

    messages = [etree.fromstring(r.body) for r in receiver.received]
    for arrival, message in zip(receiver.received, messages, strict=True):
        Webhook(hotel.channel["ari_secret"]).verify(arrival.body, arrival.headers, json_parse=False)  # XML body
        assert arrival.headers["content-type"] == "application/xml"
        assert message.get("EchoToken") == arrival.headers["webhook-id"] and message.get("Version") == "1.000"
        assert datetime.fromisoformat(message.get("TimeStamp"))
    avail, rates = messages  # one change, one message of each kind
    assert avail.tag == tag("OTA_HotelAvailNotifRQ") and rates.tag == tag("OTA_HotelRateAmountNotifRQ")

    [container] = avail
    assert container.tag == tag("AvailStatusMessages") and attributes(container) == {"HotelCode": "H-77"}
    room, *plan = container
    assert attributes(room) == {"BookingLimit": "3", "BookingLimitMessageType": "SetLimit"}
    [control] = room
    assert control.tag == tag("StatusApplicationControl")
    assert attributes(control) == {"Start": day(2), "End": day(4), "InvTypeCode": "R1"}
    # The plan: its three ranges (closed to arrival on day 3 only), each as three AvailStatusMessages.
    ranges = [(day(2), day(2), "Open"), (day(3), day(3), "Close"), (day(4), day(6), "Open")]
    assert len(plan) == 3 * len(ranges)
    for (start, end, arrival), (first, second, third) in zip(ranges, zip(*[iter(plan)] * 3), strict=True):
        for message in (first, second, third):
            assert message.tag == tag("AvailStatusMessage") and attributes(message) == {}
            assert message[0].tag == tag("StatusApplicationControl")
            assert attributes(message[0]) == {"Start": start, "End": end, "InvTypeCode": "R1", "RatePlanCode": "P1"}
        stays, master = first[1], first[2]
        assert stays.tag == tag("LengthsOfStay") and [(s.tag, attributes(s)) for s in stays] == [
            (tag("LengthOfStay"), {"MinMaxMessageType": "SetMinLOS", "Time": "2", "TimeUnit": "Day"}),
            (tag("LengthOfStay"), {"MinMaxMessageType": "SetForwardMinStay", "Time": "1", "TimeUnit": "Day"}),
            (tag("LengthOfStay"), {"MinMaxMessageType": "SetMaxLOS", "Time": "7", "TimeUnit": "Day"})]
        assert master.tag == tag("RestrictionStatus")
        assert attributes(master) == {"Status": "Open", "Restriction": "Master"}
        assert [(len(m), attributes(m[1])) for m in (second, third)] == [
            (2, {"Status": arrival, "Restriction": "Arrival"}), (2, {"Status": "Open", "Restriction": "Departure"})]

    [container] = rates
    assert container.tag == tag("RateAmountMessages") and attributes(container) == {"HotelCode": "H-77"}
    assert len(container) == len(ranges)
    for (start, end, _), message in zip(ranges, container, strict=True):
        assert message.tag == tag("RateAmountMessage")
        control, rates_element = message
        assert attributes(control) == {"Start": start, "End": end, "InvTypeCode": "R1", "RatePlanCode": "P1"}
        [rate] = rates_element
        [amounts] = rate
        [amount] = amounts
        assert [rates_element.tag, rate.tag, amounts.tag, amount.tag] == [
            tag("Rates"), tag("Rate"), tag("BaseByGuestAmts"), tag("BaseByGuestAmt")]
        assert attributes(amount) == {"AmountAfterTax": "110.00", "CurrencyCode": "EUR", "NumberOfGuests": "2"}


def test_an_errors_answer_is_retried_then_failing_with_sync_errors_until_resumed(site, owner, receiver):
    receiver.body, receiver.content_type = ERRORS, "application/xml"
    hotel = make_hotel(owner.client, settings=ota(receiver))
    start = site.engine.store.scalar("SELECT max(seq) FROM events")
    hotel.restrict({"date": day(1), "rate": "80.00"})

    eventually(lambda: hotel.sync()["failing_since"])
    sync = hotel.sync()
    assert "392: Hotel not found for HotelCode=H-77" in sync["last_error"] and sync["attempts"] == MAX_ATTEMPTS
    first = receiver.received[0].headers["webhook-id"]
    assert [call.headers["webhook-id"] for call in receiver.received] == [first] * MAX_ATTEMPTS  # each try alike
    errors = [json.loads(r["payload"]) for r in site.engine.store.query(
        "SELECT payload FROM events WHERE seq > ? AND event = 'sync_error' AND channel_id = ?",
        (start, hotel.channel_id))]
    assert [(e["attempts"], e["failing"]) for e in errors] == [(1, False), (MAX_ATTEMPTS, True)]  # not one per retry
    assert errors[0]["channel_title"] == hotel.channel["title"] and errors[0]["property_ids"] == [hotel.property_id]
    assert "Hotel not found" in errors[0]["error"]
    assert check(owner.client.get(f"/api/v1/channels/{hotel.channel_id}/deliveries"))["data"][0]["attributes"][
        "status"] == "failed"

    receiver.body = SUCCESS
    assert check(owner.client.post(f"/api/v1/channels/{hotel.channel_id}/resume_sync")) == {
        "meta": {"message": "Success"}}
    settled(site.engine, hotel.channel_id)
    sync = hotel.sync()
    assert sync["failing_since"] is None and sync["last_error"] is None and sync["attempts"] == 0


def test_a_success_with_warnings_is_delivered_and_its_warnings_kept_in_the_delivery_log(site, owner, receiver,
                                                                                        caplog):
    receiver.body, receiver.content_type = WARNINGS, "application/xml"
    hotel = make_hotel(owner.client, settings=ota(receiver))
    hotel.restrict({"date": day(1), "rate": "80.00"})
    settled(site.engine, hotel.channel_id)

    sync = hotel.sync()
    assert sync["last_error"] is None and sync["last_delivered_at"] is not None
    assert any("97: rate plan inactive" in r.getMessage() for r in caplog.records)
    [delivery] = check(owner.client.get(f"/api/v1/channels/{hotel.channel_id}/deliveries"))["data"]
    # Each of the delivery's calls (availability, then rates) said it: both are kept, in the order they came.
    assert {k: delivery["attributes"][k] for k in ("status", "response_status", "last_error", "warnings")} == {
        "status": "delivered", "response_status": 200, "last_error": None,
        "warnings": ["97: rate plan inactive", "97: rate plan inactive"]}

    receiver.body = SUCCESS  # the next delivery, taken without a warning, says none
    hotel.restrict({"date": day(2), "rate": "85.00"})
    settled(site.engine, hotel.channel_id)
    latest = check(owner.client.get(f"/api/v1/channels/{hotel.channel_id}/deliveries"))["data"][0]["attributes"]
    assert latest["payload"]["date_from"] == day(2) and latest["warnings"] is None


def test_a_plan_unmapped_and_its_room_type_are_closed_in_ota(site, owner, receiver):
    """A channel keeps what it was last sent: the plan no longer sold there is closed (Master Close) and its room
    type, which no mapped plan sells any more, gets no availability, over the window, under the channel's codes."""
    receiver.body, receiver.content_type = SUCCESS, "application/xml"
    hotel = make_hotel(owner.client, settings=ota(receiver), codes=True, state_length=100)
    hotel.update(settings={**ota(receiver), "hotel_codes": {hotel.property_id: "H-77"}})
    settled(site.engine, hotel.channel_id)
    before = len(receiver.received)

    hotel.update(rate_plans=[])
    settled(site.engine, hotel.channel_id)

    [message] = [etree.fromstring(r.body) for r in receiver.received[before:]]  # no rates: no RateAmount message
    assert message.tag == tag("OTA_HotelAvailNotifRQ")
    [container] = message
    assert attributes(container) == {"HotelCode": "H-77"}
    room, plan = container
    assert attributes(room) == {"BookingLimit": "0", "BookingLimitMessageType": "SetLimit"}
    assert [(c.tag, attributes(c)) for c in room] == [
        (tag("StatusApplicationControl"), {"Start": day(0), "End": day(99), "InvTypeCode": "R1"})]
    assert attributes(plan) == {}
    assert [(c.tag, attributes(c)) for c in plan] == [
        (tag("StatusApplicationControl"), {"Start": day(0), "End": day(99), "InvTypeCode": "R1", "RatePlanCode": "P1"}),
        (tag("RestrictionStatus"), {"Status": "Close", "Restriction": "Master"})]


def test_a_webhook_hears_of_a_channels_sync_errors(site, owner, receiver):
    receiver.body, receiver.content_type = ERRORS, "application/xml"
    hotel = make_hotel(owner.client, settings=ota(receiver))
    hooked = Receiver()
    try:
        hook = make_hook(owner.client, hotel.property_id, hooked.url, "sync_error")
        hotel.restrict({"date": day(1), "rate": "80.00"})
        arrived = hooked.wait_for(2)
        for each in arrived:
            Webhook(hook["secret"]).verify(each.body, each.headers)
        first, last = (each.json() for each in arrived)
        assert (first["event"], first["property_id"]) == ("sync_error", hotel.property_id)
        assert first["payload"] == {"channel_id": hotel.channel_id, "channel_title": hotel.channel["title"],
                                    "property_ids": [hotel.property_id],
                                    "error": "the channel answered Errors: 392: Hotel not found for HotelCode=H-77",
                                    "attempts": 1, "failing": False}
        assert (last["payload"]["attempts"], last["payload"]["failing"]) == (MAX_ATTEMPTS, True)
    finally:
        hooked.close()
