"""The shopping API of meta channels: the spec's five endpoints, and those that Channex's booking engine calls
beside them (best_offer, card_capture_form_url). No user token: a channel with a provider API key needs it in the
header `api-key`; one without is public."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.concurrency import run_in_threadpool

from backend.bookings.models import BookingEnvelope
from backend.http.deps import ApiKeyDep, EngineDep, SecureDep, body_doc, envelope
from backend.http.responses import FastJSON, entity, many, one
from backend.http.serialise import booking_entity

router = APIRouter(prefix="/api/v1/meta/{channel_name}", tags=["shopping"])
Booking = Depends(envelope("booking"))
STAY = [{"name": n, "in": "query", "schema": {"type": "string", "format": "date"}} for n in ("checkin_date", "checkout_date")]
GUESTS = [{"name": n, "in": "query", "schema": {"type": "integer", "minimum": 0}} for n in ("adults", "children", "infants")]
# What a booking engine sends beside (backend/shopping/stay_query.py): the camelCase spellings, the children's ages (a
# comma-separated list, or repeated with []), and the currency of the rate plans wanted.
AGES = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 17}}
SEARCH = [*({"name": n, "in": "query", "schema": {"type": "string", "format": "date"}, "description": f"= {ours}"}
            for n, ours in (("checkinDate", "checkin_date"), ("checkoutDate", "checkout_date"))),
          *({"name": n, "in": "query", "schema": AGES, "style": "form", "explode": n.endswith("[]"),
             "description": "the children's ages, 0 to 17: they count as infants, children or adults by the "
                            "property's hotel policy"} for n in ("children_age", "childrenAge", "children_age[]",
                                                                 "childrenAge[]")),
          {"name": "currency", "in": "query", "schema": {"type": "string", "pattern": "^[A-Z]{3}$"},
           "description": "only the rate plans sold in this currency (nothing is converted)"}]
LENGTH = [{"name": n, "in": "query", "schema": {"type": "integer", "minimum": 1}} for n in ("length_of_stay", "lengthOfStay")]
LIST_FILTERS = [{"name": f"filter[{f}]", "in": "query", "schema": {"type": "string"}}
                for f in ("title", "city", "country", "zip_code", "state", "address", "latitude", "longitude",
                          "is_available")]


@router.get("/property_list", openapi_extra={"parameters": [*STAY, *GUESTS, *SEARCH, *LIST_FILTERS]})
async def property_list(channel_name: str, request: Request, engine: EngineDep, api_key: ApiKeyDep) -> FastJSON:
    """Properties on the channel; with checkin_date and checkout_date each has `best_offer`, and
    `filter[is_available]=true` keeps those that can sell the stay. Read in a worker thread: a list priced plan by
    plan (children's ages, long stays) takes seconds of CPU over thousands of properties, which must not hold up
    the event loop's other requests."""
    channels = engine.shopping.channels(channel_name, api_key)
    items, meta = await run_in_threadpool(engine.shopping.property_list, channels, request.query_params.multi_items())
    return many([entity("property", p) for p in items], meta)


@router.get("/card_capture_form_url")
def card_capture_form_url(channel_name: str, request: Request, engine: EngineDep, api_key: ApiKeyDep,
                          property_id: str | None = None) -> FastJSON:
    """The address of a card form for a booking engine's page to frame: the pci listener serves it behind a
    single-use session token (30 minutes). The card goes from the form to the vault only; the page gets its token
    to send as `guarantee.token` in push_booking. `card_capture_form_url` as the service's booking engine reads it.
    One client address may open 30 forms in 30 minutes (an IPv6 /64 counts as one address), and one property 1,000
    (`property_id`, a property the channel sells; without it, the channel's forms are counted together): then a 429."""
    client = request.client.host if request.client else ""  # a trusted proxy's client (--forwarded-allow-ips)
    channel_ids = engine.shopping.form_channels(channel_name, property_id, api_key)
    session = engine.card_form.session(channel_ids, client, property_id)
    return one({"id": session["id"], "type": "card_capture_form_url",
                "attributes": {"card_capture_form_url": session["card_capture_form_url"],
                               "expires_at": session["expires_at"]}})


async def get_channel(channel_name: str, property_id: str, engine: EngineDep, api_key: ApiKeyDep) -> Any:
    """The channel, if it sells the property and the provider API key fits: checked before any body is read."""
    return engine.shopping.channel_for(channel_name, property_id, api_key)


Channel = Depends(get_channel)


async def get_booking_channel(channel_name: str, property_id: str, engine: EngineDep, api_key: ApiKeyDep) -> Any:
    """`get_channel` read on the primary, where the booking will be written."""
    return engine.shopping.booking_channel(channel_name, property_id, api_key)


BookingChannel = Depends(get_booking_channel)


@router.get("/{property_id}/property_info")
async def property_info(property_id: str, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    return one(entity("property_info", engine.shopping.property_info(channel, property_id)))


@router.get("/{property_id}/closed_dates")
async def closed_dates(property_id: str, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    return one({"id": property_id, "type": "closed_dates_list",
                "attributes": engine.shopping.closed_dates(channel, property_id)})


@router.get("/{property_id}/rooms", openapi_extra={"parameters": [*STAY, *LENGTH, *GUESTS, *SEARCH]})
async def rooms(property_id: str, request: Request, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    """Rooms with the stay's rate plans and prices (each with `total_price`, `net_price`, `length_of_stay` and
    `availability`); without dates, the rooms alone."""
    found = engine.shopping.rooms(channel, property_id, request.query_params.multi_items())
    return FastJSON({"data": [entity("room_with_rates", r) for r in found]})


@router.get("/{property_id}/best_offer", openapi_extra={"parameters": [*STAY, *GUESTS, *SEARCH]})
async def best_offer(property_id: str, request: Request, engine: EngineDep, channel: Any = Channel) -> FastJSON:
    """The lowest price of the stay for the party (`offer`, also as `best_offer`), with its currency; none
    without dates or when nothing sells."""
    found = engine.shopping.best_offer(channel, property_id, request.query_params.multi_items())
    return one({"id": property_id, "type": "best_offer", "attributes": found})


@router.post("/{property_id}/push_booking", openapi_extra=body_doc(BookingEnvelope))
def push_booking(property_id: str, engine: EngineDep, secure: SecureDep, channel: Any = BookingChannel,
                 data: Any = Booking) -> FastJSON:
    """new (201), modified or cancelled (200). Send card data to the secure listener: on the main one it
    is masked at once and can't be restored."""
    booking, created = engine.bookings.push(channel, property_id, data, secure=secure)
    return one(booking_entity(booking), 201 if created else 200)
