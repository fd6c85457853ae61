"""OpenTravel (2015B) ARI messages, built with lxml in the namespace http://www.opentravel.org/OTA/2003/05, each
root with `EchoToken` (the call's id), `TimeStamp` and `Version`; one message per property (`HotelCode`: the
channel's code of it), at most `PER_CALL` messages of a kind in one.

`OTA_HotelAvailNotifRQ` / `AvailStatusMessages HotelCode`:
- a room type's availability: `AvailStatusMessage BookingLimit BookingLimitMessageType="SetLimit"` with
  `StatusApplicationControl Start End InvTypeCode`;
- a rate plan's restrictions: three `AvailStatusMessage`s per range, since each holds one `RestrictionStatus`, all
  with `StatusApplicationControl Start End InvTypeCode RatePlanCode`. The first has `LengthsOfStay` —
  `LengthOfStay MinMaxMessageType Time TimeUnit="Day"`: `SetMinLOS` (min stay on arrival), `SetForwardMinStay`
  (min stay through), `SetMaxLOS` (max stay; `RemoveMaxLOS` when there is none) — and `RestrictionStatus
  Restriction="Master" Status="Close"|"Open"` (stop sell; a night without a rate, which Frontdesk does not sell, is
  closed too); the others `Restriction="Arrival"` and `"Departure"`.

`OTA_HotelRateAmountNotifRQ` / `RateAmountMessages HotelCode` / `RateAmountMessage`: `StatusApplicationControl
Start End InvTypeCode RatePlanCode` and `Rates/Rate/BaseByGuestAmts/BaseByGuestAmt AmountAfterTax CurrencyCode
NumberOfGuests`: the nightly rate as ARI holds it, for the plan's primary occupancy. Nights without a rate have none.

Nights the channel must stop selling (backend/distribution/reading.py) follow in `OTA_HotelAvailNotifRQ`: a room
type's as `BookingLimit="0"`, a plan's as one `AvailStatusMessage` with `RestrictionStatus Restriction="Master"
Status="Close"`, each under the codes the channel knows them by.

The answer is an OTA `…RS`, bare or in a SOAP envelope: `Errors` is a failed call with their text, `Success` is
delivered (its `Warnings` are kept in the delivery log, and logged), an answer with neither is a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

from lxml import etree
from lxml.builder import ElementMaker

from backend.core.errors import FrontdeskError
from backend.core.money import format_minor
from backend.distribution.collapse import Span
from backend.distribution.mapped import Mapped
from backend.distribution.message import Call, accepted, chunks, excerpt
from backend.distribution.reading import Closed, Read
from backend.inventory.stays import Plan
from backend.outbox.sending import READ_CAP, Answer, SendFailed
from backend.vault.xmlsafe import read_xml

NS = "http://www.opentravel.org/OTA/2003/05"
VERSION = "1.000"
CONTENT_TYPE = "application/xml"
E = ElementMaker(namespace=NS, nsmap={None: NS})


def calls(read: Read, mapped: Mapped, ids: Iterator[str]) -> list[Call]:
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    by_property: dict[str, tuple[list[Span], list[Span], list[Closed]]] = {}
    for span in read.rooms:
        by_property.setdefault(mapped.rooms[span.target_id].property_id, ([], [], []))[0].append(span)
    for span in read.plans:
        by_property.setdefault(mapped.plans[span.target_id].property_id, ([], [], []))[1].append(span)
    for closed in read.closed:
        by_property.setdefault(closed.closing.property_id, ([], [], []))[2].append(closed)
    result = []
    for property_id, (rooms, plans, shut) in by_property.items():
        hotel = mapped.hotel_code(property_id)
        statuses = [*(_availability(span, mapped) for span in rooms),
                    *(message for span in plans for message in _restrictions(span, mapped)),
                    *(_closed(closed) for closed in shut)]
        rates = [_rate(span, read.plan_of[span.target_id], mapped) for span in plans if span.values[0] is not None]
        for root, container, messages in (("OTA_HotelAvailNotifRQ", "AvailStatusMessages", statuses),
                                           ("OTA_HotelRateAmountNotifRQ", "RateAmountMessages", rates)):
            for chunk in chunks(messages):
                echo = next(ids)
                document = E(root, E(container, *chunk, HotelCode=hotel), EchoToken=echo, TimeStamp=stamp,
                             Version=VERSION)
                result.append(Call(echo, CONTENT_TYPE, etree.tostring(document, xml_declaration=True,
                                                                      encoding="UTF-8").decode()))
    return result


def check(answer: Answer) -> list[str]:
    """The answer's warnings; SendFailed for anything but an OTA Success."""
    accepted(answer)
    try:
        root = read_xml(answer.text.encode(), READ_CAP * 3)  # read leniently: a bad byte became a 3-byte "�"
    except FrontdeskError:
        raise SendFailed(f"the answer is not OTA XML: {excerpt(answer.text)}", answer.status) from None
    errors = _named(root, "Errors", "Error")
    if errors:
        raise SendFailed("the channel answered Errors: " + "; ".join(errors), answer.status)
    if not root.xpath("//*[local-name()='Success']"):
        raise SendFailed(f"the answer has neither Success nor Errors: {excerpt(answer.text)}", answer.status)
    return _named(root, "Warnings", "Warning")


def _named(root: etree._Element, parent: str, child: str) -> list[str]:
    """Each error or warning as `Code: text` (its text, else its ShortText)."""
    said = []
    for node in root.xpath(f"//*[local-name()='{parent}']/*[local-name()='{child}']"):
        text = excerpt((node.text or node.get("ShortText") or "").strip(), 200)
        said.append(f"{node.get('Code')}: {text}" if node.get("Code") else text)
    return said


def _closed(closed: Closed) -> etree._Element:
    closing = closed.closing
    if closing.kind == "room":
        return E.AvailStatusMessage(_control(closed, closing.code), BookingLimit="0",
                                    BookingLimitMessageType="SetLimit")
    return E.AvailStatusMessage(_control(closed, closing.room_code, closing.code), _status("Master", True))


def _control(span: Span | Closed, room_code: str, plan_code: str | None = None) -> etree._Element:
    codes = {"InvTypeCode": room_code, **({"RatePlanCode": plan_code} if plan_code else {})}
    return E.StatusApplicationControl(Start=span.date_from.isoformat(), End=span.date_to.isoformat(), **codes)


def _availability(span: Span, mapped: Mapped) -> etree._Element:
    return E.AvailStatusMessage(_control(span, mapped.rooms[span.target_id].code),
                                BookingLimit=str(span.values), BookingLimitMessageType="SetLimit")


def _restrictions(span: Span, mapped: Mapped) -> list[etree._Element]:
    rate, arrival, through, longest, cta, ctd, stop = span.values
    codes = (mapped.room_of(span.target_id).code, mapped.plans[span.target_id].code)
    stays = E.LengthsOfStay(_stay("SetMinLOS", arrival), _stay("SetForwardMinStay", through),
                            _stay("SetMaxLOS", longest) if longest else _stay("RemoveMaxLOS", 0))
    return [E.AvailStatusMessage(_control(span, *codes), stays, _status("Master", bool(stop) or rate is None)),
            E.AvailStatusMessage(_control(span, *codes), _status("Arrival", bool(cta))),
            E.AvailStatusMessage(_control(span, *codes), _status("Departure", bool(ctd)))]


def _stay(kind: str, nights: int) -> etree._Element:
    return E.LengthOfStay(MinMaxMessageType=kind, Time=str(nights), TimeUnit="Day")


def _status(restriction: str, closed: bool) -> etree._Element:
    return E.RestrictionStatus(Status="Close" if closed else "Open", Restriction=restriction)


def _rate(span: Span, plan: Plan, mapped: Mapped) -> etree._Element:
    occupancy = next(option["occupancy"] for option in plan.details["options"] if option["is_primary"])
    amount = E.BaseByGuestAmt(AmountAfterTax=format_minor(span.values[0], plan.currency), CurrencyCode=plan.currency,
                              NumberOfGuests=str(occupancy))
    return E.RateAmountMessage(_control(span, mapped.room_of(plan.id).code, mapped.plans[plan.id].code),
                               E.Rates(E.Rate(E.BaseByGuestAmts(amount))))
