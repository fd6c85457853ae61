"""The real-time shopping API of meta channels: what a channel may sell, read live, never cached.

A shopping channel is named in the path by its title or code ("OpenShopping"); a name reaches the channels of one
group (backend/channels/store.py, `named`). Only properties connected to it and rate plans mapped to it are sold, and
only the rooms its availability rules leave it (backend/inventory/channel_rules.py). A
channel with a provider API key answers only calls that carry it in the header `api-key`; a channel without one is
public.

`channels`/`channel_for` resolve a name and key as the HTTP API does; `own_channel` lets a user
(the console's operator) preview a channel of theirs without its key. The reads take channel ids.

Its reads may go to a hot standby (`frontdesk serve --read-db`, storage/reads.py): each call's on one database, a
replica no more than the lag bound behind or else the primary. What a write relies on is read on the primary: the
channel a booking is pushed to (`booking_channel`) and those a card form is opened for (`form_channels`); the booking
itself is checked in its own transaction there (backend/bookings/service.py).

The answers carry what Channex's own booking engine reads besides the spec's fields (ChannexIO/instant_booking_page:
src/utils/calculate_summary_params.js reads a rate plan's `total_price` and `net_price`, rate_plan.js and
room_info.js its and its room's `availability`, rate_plan_policies.js `meal_type` and `length_of_stay`,
cancellation_policy.js `after_reservation_cancellation_logic`, min_price_panel.js best_offer's `offer` and
`currency`, payment_form.js property_info's `request_credit_card`; daviesevan-svg/channex-booking-page,
app/lib/channex/types.ts, the same per rate plan and `email`, `phone`). The search parameters are read by
backend/shopping/stay_query.py.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from pydantic_core import from_json

from backend.channels.service import ShoppingSettings
from backend.core.dates import days, local_now
from backend.core.errors import NotFound, NotSupported, Unauthorized, ValidationFailed
from backend.core.listing import ListQuery, parse_bool
from backend.core.money import format_minor
from backend.identity.models import Actor
from backend.identity.service import hash_secret
from backend.inventory.age_bands import SPEC_BANDS, Bands, bands_of
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.channel_rules import Availability, ChannelRules
from backend.inventory.models import MEAL_TYPES
from backend.inventory.photos import of_properties, of_rooms
from backend.inventory.rooms import policy_of, with_service_names
from backend.inventory.sellable import MAX_NIGHTS, SHOPPING_CODES
from backend.inventory.stays import (
    R_CTA,
    R_CTD,
    R_MSA,
    R_MST,
    R_RATE,
    R_STOP,
    Guests,
    Nights,
    NotSellable,
    Plan,
    Room,
    StayFacts,
    facts_of,
    open_rates,
    option_prices,
)
from backend.inventory.taxes import TaxSet, offered
from backend.inventory.window import Window, window_of
from backend.properties.facilities import CATALOGUE
from backend.shopping.stay_query import Stay, parse_stay
from backend.shopping.store import (
    Sellable,
    active_channels_named,
    channel_group_and_code,
    channel_settings,
    channels_named_selling,
    property_contexts,
    property_currency,
    property_facilities,
    property_page,
    property_row,
    sellable_page,
    sells_property,
    sold_properties,
    unsafe_zones,
)
from storage import Row, Store
from storage.reads import ReadStore, on_primary, one_source

# A facility category's code in the grouped facilities: its name in snake case ("Food & drink" → food_and_drink).
CATEGORY_CODES = str.maketrans({" ": "_", "&": "and", "-": "_"})
CATEGORY_OF = {title: category for category, titles in CATALOGUE.items() for title in titles}
ROOM_PHOTO_FIELDS = ("url", "title", "author", "description", "kind", "position")  # a room's photo, as it always was
Params = Mapping[str, str] | Iterable[tuple[str, str]]  # a query's parameters, as a dict or as (name, value) pairs
Method = TypeVar("Method", bound=Callable[..., Any])
# An offer's own keys, after those it shares with its plan's other offers: `_plan_item` places them, `_rate_items` sets them.
OFFER_KEYS = dict.fromkeys(("occupancy", "price", "net_price", "total_price", "days", "taxes"))


def _one_source(method: Method) -> Method:
    """A call whose reads all go to one database, a replica or the primary, chosen as it begins."""

    @functools.wraps(method)
    def call(self: Shopping, *args: Any, **kwargs: Any) -> Any:
        with one_source(self.store):
            return method(self, *args, **kwargs)

    return call  # type: ignore[return-value]  # functools.wraps: the method's own signature


@dataclass(frozen=True)
class Context:
    """What selling at a property depends on besides the plan: its window, min stay rule and age bands."""

    window: Window
    min_stay_type: str
    bands: Bands


class Shopping:
    def __init__(self, store: Store | ReadStore, clock: Callable[[], datetime]) -> None:
        """`store`: where its reads go (the engine's `reads`); Shopping writes nothing."""
        self.store = store
        self.calendar = Calendar(store)
        self.clock = clock

    # --- channels ----------------------------------------------------------------------------

    @_one_source
    def channels(self, name: str, api_key: str | None) -> list[str]:
        """The active shopping channels called `name` (all of one group: backend/channels/service.py) that this caller may
        use: those whose provider key it presents, or, without a key, the public ones."""
        rows = active_channels_named(self.store, name, SHOPPING_CODES)
        if not rows:
            raise NotFound(f"there is no shopping channel called {name!r}")
        wanted = hash_secret(api_key) if api_key else None
        usable = [r["id"] for r in rows if r["provider_api_key_hash"] == wanted]
        if not usable:
            raise Unauthorized("this channel needs its provider API key in the header api-key" if wanted is None
                               else "the api-key is not the key of a channel by this name")
        return usable

    @_one_source
    def own_channel(self, actor: Actor, channel_id: str) -> str:
        """A shopping channel of the actor's, for previews (401 someone else's, 404 unknown)."""
        row = actor.owned(channel_group_and_code(self.store, channel_id), "channel", channel_id)
        if row["channel_code"] not in SHOPPING_CODES:
            raise NotSupported(f"{row['channel_code']} is not a shopping channel")
        return channel_id

    @_one_source
    def channel_for(self, name: str, property_id: str, api_key: str | None) -> str:
        """The one channel called `name` that sells the property, its key checked."""
        rows = channels_named_selling(self.store, name, SHOPPING_CODES, property_id)
        if not rows:
            raise NotFound(f"property {property_id} is not sold on a channel called {name!r}")
        wanted = hash_secret(api_key) if api_key else None
        for row in rows:
            if row["provider_api_key_hash"] in (None, wanted):
                return cast(str, row["id"])
        raise Unauthorized("this channel needs its provider API key in the header api-key")

    def booking_channel(self, name: str, property_id: str, api_key: str | None) -> str:
        """`channel_for` read on the primary: the channel a booking is about to be pushed to."""
        with on_primary(self.store):
            return self.channel_for(name, property_id, api_key)

    def form_channels(self, name: str, property_id: str | None, api_key: str | None) -> list[str]:
        """The channels a card form is opened for, read on the primary: the one selling the property, if given,
        else every channel by the name."""
        with on_primary(self.store):
            return [self.channel_for(name, property_id, api_key)] if property_id else self.channels(name, api_key)

    def _require_connected(self, channel_id: str, property_id: str) -> None:
        if not sells_property(self.store, channel_id, property_id):
            raise NotFound(f"property {property_id} is not sold on this channel")

    # --- property list -----------------------------------------------------------------------

    @_one_source
    def property_list(self, channel_ids: list[str], params: list[tuple[str, str]]) -> tuple[list[Any], dict[str, Any]]:
        stay = parse_stay(params)
        query = ListQuery.from_params(params)
        available = [f for f in query.filters if f.field == "is_available"]
        query.filters = [f for f in query.filters if f.field != "is_available"]
        wanted = _is_available(available, stay)
        if wanted is None:
            rows, meta = property_page(self.store, query, channel_ids)
            offers = self.best_offers(channel_ids, stay, [r["id"] for r in rows]) if stay else {}
        elif (ask := self._sellable(channel_ids, dated := cast(Stay, stay), now := self.clock())) is not None:
            # dated: _is_available refuses is_available without the stay's dates
            rows, meta = sellable_page(self.store, query, ask, self._zones(ask, now), wanted)
            offers = self.best_offers(channel_ids, dated, [r["id"] for r in rows]) if wanted else {}
        else:
            every = sold_properties(self.store, query, channel_ids)
            offers = self.best_offers(channel_ids, dated, None)
            matching = [r for r in every if (r["id"] in offers) == wanted]
            rows, meta = matching[query.offset:query.offset + query.limit], query.meta(len(matching))
        photos = of_properties(self.store, [r["id"] for r in rows])
        return [_list_item(r, offers[r["id"]][0] if r["id"] in offers else None, photos[r["id"]]) for r in rows], meta

    def _sellable(self, channel_ids: list[str], stay: Stay, now: datetime) -> Sellable | None:
        """What to ask the sellable index (backend/inventory/sellable.py), or None where it can't tell and every
        plan is priced: children's ages, which count by each property's age bands, and stays beyond its longest."""
        nights = len(stay.nights.keys)
        if nights > MAX_NIGHTS or (stay.party and stay.party.ages):
            return None
        today = now.astimezone(UTC).date()
        party = (stay.party.adults, stay.party.children, stay.party.infants) if stay.party else None
        return Sellable(channel_ids, stay.arrival.isoformat(), 1 << (nights - 1), party, stay.currency,
                        (stay.arrival - today).days, (stay.departure - today).days)

    def _zones(self, ask: Sellable, now: datetime) -> dict[str, tuple[int, str]]:
        """The date (in days from today in UTC) and time now in each time zone whose properties' windows may not hold
        the stay, as `window_of` reads the clock."""
        today = now.astimezone(UTC).date()
        zones = {}
        for zone in unsafe_zones(self.store, ask):
            local = local_now(zone or None, now)
            zones[zone] = ((local.date() - today).days, local.strftime("%H:%M:%S"))
        return zones

    @_one_source
    def best_offers(self, channel_ids: list[str], stay: Stay,
                    property_ids: list[str] | None) -> dict[str, tuple[str, str]]:
        """The lowest price of the stay per property that can sell it, as a decimal string with its currency."""
        if property_ids == []:
            return {}
        plans = self.calendar.mapped_plans(channel_ids, property_ids)
        scope = Scope(channel_ids=tuple(channel_ids)) if property_ids is None else Scope(tuple(p.id for p in plans))
        first, last = stay.arrival.isoformat(), stay.departure.isoformat()
        restrictions = self.calendar.restrictions(scope, first, last, plans)
        rooms_scope = scope if property_ids is None else Scope(tuple({p.room_type_id for p in plans}))
        availability = self._seen(channel_ids, self.calendar.availability(rooms_scope, first, last), first, last)
        rooms = self.calendar.rooms({p.room_type_id for p in plans})
        contexts = self._contexts({p.property_id for p in plans}, bands=bool(stay.party and stay.party.ages))
        parties = {pid: stay.party.guests(context.bands) if stay.party else None for pid, context in contexts.items()}
        best: dict[str, tuple[int, str]] = {}
        for plan in plans:
            if stay.currency not in (None, plan.currency):
                continue
            context = contexts[plan.property_id]
            facts = facts_of(stay.nights, restrictions[plan.id], availability.get(plan.room_type_id, {}))
            for _, prices in _quotes(plan, rooms[plan.room_type_id], stay.nights, parties[plan.property_id], context,
                                     facts):
                current, price = best.get(plan.property_id), sum(prices)
                if current is None or price < current[0]:
                    best[plan.property_id] = (price, plan.currency)
        return {pid: (format_minor(price, currency), currency) for pid, (price, currency) in best.items()}

    def _seen(self, channel_ids: list[str], availability: Availability, first: str, last: str) -> Availability:
        """The rooms' availability as the channels see it, under their availability rules (read once per call:
        backend/inventory/channel_rules.py)."""
        return ChannelRules.of(self.store, channel_ids, first, last).apply(channel_ids, availability)

    def _contexts(self, property_ids: Iterable[str], *, bands: bool = False) -> dict[str, Context]:
        """Each property's context; its age bands only with `bands` (children's ages were sent), else the spec's."""
        ids = list(property_ids)
        now = self.clock()
        rows = property_contexts(self.store, ids) if ids else []
        policies = bands_of(self.store, ids) if bands else {}
        return {r["id"]: Context(window_of(r, now), from_json(r["settings"])["min_stay_type"],
                                 policies.get(r["id"], SPEC_BANDS)) for r in rows}

    # --- one property ------------------------------------------------------------------------

    @_one_source
    def property_info(self, channel_id: str, property_id: str) -> dict[str, Any]:
        """The spec's fields, with the property's `email` and `phone`, and the channel's word to a booking engine on
        asking for a card (`request_credit_card`) and on the form of `facilities` (ShoppingSettings)."""
        self._require_connected(channel_id, property_id)
        settings = ShoppingSettings.model_validate(from_json(cast(str, channel_settings(self.store, channel_id))))
        row = cast(Row, property_row(self.store, property_id))  # connected: there
        facilities = property_facilities(self.store, property_id)
        item = _list_item(row, None, of_properties(self.store, [property_id])[property_id])
        del item["best_offer"]
        location = {"latitude": item.pop("latitude"), "longitude": item.pop("longitude")}
        policy = policy_of(self.store, property_id)
        if policy is not None:  # the spec's policy fields, and the documented check-in and check-out times
            del policy["id"], policy["property_id"]
            policy = with_service_names(policy)
        return {**item, "email": row["email"], "phone": row["phone"], "location": location,
                "facilities": _grouped(facilities) if settings.facilities_format == "grouped" else
                [f["title"] for f in facilities],
                "request_credit_card": settings.request_credit_card, "hotel_policy": policy}

    @_one_source
    def closed_dates(self, channel_id: str, property_id: str) -> dict[str, Any]:
        """Property-level: a night is closed when no mapped plan can sell it; an open date is closed to
        arrival when every plan open on it is; a date is closed to departure when every plan is."""
        self._require_connected(channel_id, property_id)
        plans = self.calendar.mapped_plans([channel_id], [property_id])
        context = self._contexts([property_id])[property_id]
        window, min_stay_type = context.window, context.min_stay_type
        first, last = window.today.isoformat(), window.end.isoformat()
        restrictions = self.calendar.restrictions(Scope(tuple(p.id for p in plans)), first, last, plans)
        availability = self._seen([channel_id], self.calendar.availability(
            Scope(tuple({p.room_type_id for p in plans})), first, last), first, last)
        result: dict[str, Any] = {"closed": [], "closed_to_arrival": [], "closed_to_departure": [],
                                  "min_stay_arrival": {}, "min_stay_through": {}}
        for day in days(window.today, window.end):
            key = day.isoformat()
            rows = {p.id: restrictions[p.id][key] for p in plans}
            open_now = [p for p in plans
                        if day >= window.first and _sellable(rows[p.id], availability.get(p.room_type_id, {}).get(key, 0))]
            if plans and all(rows[p.id][R_CTD] for p in plans):
                result["closed_to_departure"].append(key)
            if not open_now:
                result["closed"].append(key)
            else:
                if all(rows[p.id][R_CTA] for p in open_now):
                    result["closed_to_arrival"].append(key)
                arrival = min(rows[p.id][R_MSA] for p in open_now)
                through = min(rows[p.id][R_MST] for p in open_now)
                if arrival > 1 and min_stay_type in ("both", "arrival"):
                    result["min_stay_arrival"][key] = arrival
                if through > 1 and min_stay_type in ("both", "through"):
                    result["min_stay_through"][key] = through
        return result

    @_one_source
    def rooms(self, channel_id: str, property_id: str, params: Params) -> list[dict[str, Any]]:
        """Rooms with the stay's offers: one per rate plan for the party, or one per occupancy option without one;
        only plans in the `currency` asked for. Without dates, the rooms alone."""
        stay = parse_stay(_pairs(params), length_allowed=True)
        self._require_connected(channel_id, property_id)
        settings = ShoppingSettings.model_validate(from_json(cast(str, channel_settings(self.store, channel_id))))
        plans = self.calendar.mapped_plans([channel_id], [property_id])
        rooms = self.calendar.rooms(p.room_type_id for p in plans)
        item = functools.partial(_room_item, photos=of_rooms(self.store, list(rooms)),
                                 grouped=settings.facilities_format == "grouped")
        if stay is None:
            return [item(room, [], None) for room in rooms.values()]
        context = self._contexts([property_id], bands=bool(stay.party and stay.party.ages))[property_id]
        _check_window(stay, context.window)
        guests = stay.party.guests(context.bands) if stay.party else None
        plans = [p for p in plans if stay.currency in (None, p.currency)]
        first, last = stay.arrival.isoformat(), stay.departure.isoformat()
        availability = self._seen([channel_id], self.calendar.availability(Scope(tuple(rooms)), first, last),
                                  first, last)
        left = {room_id: min(availability.get(room_id, {}).get(night, 0) for night in stay.nights.keys)
                for room_id in rooms}
        facts = self.calendar.stay_facts(plans, stay.nights, availability, left)
        offers: dict[str, list[dict[str, Any]]] = {room_id: [] for room_id in rooms}
        tax_sets = self.calendar.tax_sets(plans)
        shown_in = _Shown()
        for plan in plans:
            quotes = _quotes(plan, rooms[plan.room_type_id], stay.nights, guests, context, facts[plan.id])
            if quotes:
                taxes = tax_sets.get(plan.tax_set_id) if plan.tax_set_id is not None else None
                offers[plan.room_type_id] += _rate_items(_plan_item(plan, stay.nights, left[plan.room_type_id]), plan,
                                                         stay.nights.keys, quotes, taxes, shown_in[plan.currency])
        return [item(room, offers[room_id], left[room_id]) for room_id, room in rooms.items() if offers[room_id]]

    @_one_source
    def best_offer(self, channel_id: str, property_id: str, params: Params) -> dict[str, Any]:
        """The lowest price of the stay at the property (`rooms`' cheapest offer for the party), or none: `offer`, as
        Channex's booking engine reads it, and `best_offer`, as property_list names it. Without dates, none."""
        stay = parse_stay(_pairs(params))
        self._require_connected(channel_id, property_id)
        if stay is not None:
            _check_window(stay, self._contexts([property_id])[property_id].window)
        found = self.best_offers([channel_id], stay, [property_id]).get(property_id) if stay else None
        currency = found[1] if found else (stay and stay.currency) or property_currency(self.store, property_id)
        offer = found[0] if found else None
        return {"offer": offer, "best_offer": offer, "currency": currency}

    @_one_source
    def cheapest(self, channel_id: str, property_id: str, stay: Stay, room_type_id: str | None = None) -> dict[str, Any]:
        """What the stay would cost on the channel today: best_offer's price (in one room type only, when given) with
        the rate plan and room that give it; else `reasons`, each plan's in the engine's words ("no availability on
        2027-01-03 (Flexible)"). For staff weighing a guest's request, so a stay that can't be sold is an answer, not
        an error."""
        try:
            self._require_connected(channel_id, property_id)
        except NotFound:
            return _unpriced(["the property is not sold on this channel (disconnected or inactive)"])
        plans = [p for p in self.calendar.mapped_plans([channel_id], [property_id])
                 if room_type_id in (None, p.room_type_id) and stay.currency in (None, p.currency)]
        if not plans:
            return _unpriced([f"no rate plan {'of the room ' if room_type_id else ''}is mapped to this channel"])
        context = self._contexts([property_id], bands=bool(stay.party and stay.party.ages))[property_id]
        guests = stay.party.guests(context.bands) if stay.party else None
        first, last = stay.arrival.isoformat(), stay.departure.isoformat()
        restrictions = self.calendar.restrictions(Scope(tuple(p.id for p in plans)), first, last, plans)
        rooms = self.calendar.rooms({p.room_type_id for p in plans})
        availability = self._seen([channel_id], self.calendar.availability(Scope(tuple(rooms)), first, last),
                                  first, last)
        best: tuple[int, Plan] | None = None
        reasons: dict[str, list[str]] = {}  # why → the plans it stops
        for plan in plans:
            try:
                quotes = _offers(plan, rooms[plan.room_type_id], stay.nights, guests, context,
                                 facts_of(stay.nights, restrictions[plan.id], availability.get(plan.room_type_id, {})))
            except NotSellable as why:
                reasons.setdefault(str(why), []).append(plan.title)
                continue
            for _, prices in quotes:
                price = sum(prices)
                if best is None or price < best[0]:
                    best = (price, plan)
        if best is None:
            return _unpriced([f"{why} ({', '.join(titles)})" for why, titles in reasons.items()])
        price, plan = best
        return {"price": format_minor(price, plan.currency), "currency": plan.currency, "rate_plan": plan.title,
                "room_type": rooms[plan.room_type_id].title, "reasons": []}


def _unpriced(reasons: list[str]) -> dict[str, Any]:
    return {"price": None, "currency": None, "rate_plan": None, "room_type": None, "reasons": reasons}


def _pairs(params: Params) -> Iterable[tuple[str, str]]:
    return params.items() if isinstance(params, Mapping) else params


def _quotes(plan: Plan, room: Room, nights: Nights, guests: Guests | None, context: Context,
            facts: StayFacts) -> list[tuple[Guests, tuple[int, ...]]]:
    """The plan's sellable quotes (`_offers`), none when it can't sell the stay."""
    try:
        return _offers(plan, room, nights, guests, context, facts)
    except NotSellable:
        return []


def _offers(plan: Plan, room: Room, nights: Nights, guests: Guests | None, context: Context,
            facts: StayFacts) -> list[tuple[Guests, tuple[int, ...]]]:
    """The plan's quotes, each the guests and their nightly prices: for the guests, or one per option when none are
    given; NotSellable says why there are none. The nights are checked once per plan; each option's price is then
    arithmetic."""
    if guests is not None and (problem := room.holds(guests)):
        raise NotSellable(f"the room {problem}")
    rates = open_rates(nights, context.window, facts, context.min_stay_type)
    if guests is not None:
        option = plan.option_for(guests)
        if option is None:
            raise NotSellable(f"the rate plan sells at most {plan.options[-1][0]} guests")
        return [(guests, option_prices(plan, rates, option[1], guests))]
    quotes = []
    for occupancy, rate in plan.options:
        party = _party(room.occ_adults, occupancy)
        quotes.append((party, option_prices(plan, rates, rate, party)))
    return quotes


@functools.lru_cache(maxsize=1024)
def _party(occ_adults: int, occupancy: int) -> Guests:
    """Guests filling an option's occupancy: adults first, then children, as a room of `occ_adults` takes them.
    Made once per pair (Guests is immutable): every option of every plan asks."""
    adults = min(occupancy, occ_adults)
    return Guests(adults, occupancy - adults)


def _sellable(row: tuple[Any, ...], available: int) -> bool:
    return available > 0 and row[R_RATE] is not None and not row[R_STOP]


def _check_window(stay: Stay, window: Window) -> None:
    if stay.arrival < window.today:
        raise ValidationFailed.one(stay.sent_as("checkin_date"),
                                   f"is in the past (today is {window.today.isoformat()} at the property)")
    if stay.departure > window.end:
        raise ValidationFailed.one(stay.sent_as("checkout_date"),
                                   f"is beyond the property's inventory ({window.end.isoformat()})")


def _is_available(filters: list[Any], stay: Stay | None) -> bool | None:
    if not filters:
        return None
    value = parse_bool(filters[0].value)
    if value is None or filters[0].op != "eq":
        raise ValidationFailed.one("filter[is_available]", "must be true or false")
    if stay is None:
        raise ValidationFailed.one("filter[is_available]", "works only with checkin_date and checkout_date")
    return bool(value)


def _list_item(row: Row, best_offer: str | None, photos: list[dict[str, Any]]) -> dict[str, Any]:
    content = from_json(row["content"])
    return {
        "id": row["id"], "title": row["title"], "address": row["address"], "city": row["city"],
        "state": row["state"], "country": row["country"], "zip_code": row["zip_code"],
        "latitude": row["latitude"], "longitude": row["longitude"], "currency": row["currency"],
        "description": content["description"],
        "photos": [{"url": p["url"], "description": p["description"], "author": p["author"]} for p in photos],
        "best_offer": best_offer,
    }


def _grouped(facilities: list[Any]) -> list[dict[str, Any]]:
    """Facilities (`{title, category}`) by category, categories in the order of their first facility."""
    groups: dict[str, list[str]] = {}
    for facility in facilities:
        groups.setdefault(facility["category"].lower().translate(CATEGORY_CODES), []).append(facility["title"])
    return [{"category_code": code, "facilities": titles} for code, titles in groups.items()]


def _room_item(room: Room, rate_plans: list[dict[str, Any]], available: int | None, *,
               photos: dict[str, list[dict[str, Any]]], grouped: bool) -> dict[str, Any]:
    """`availability`: the rooms left on every night of the stay (none without one); `photos`: each room's; `grouped`:
    the facilities by category, as property_info's (a room's facility outside the catalogue is a General one)."""
    details = room.details
    facilities = details["facilities"]
    if grouped:
        facilities = _grouped([{"title": title, "category": CATEGORY_OF.get(title, "General")} for title in facilities])
    return {"id": room.id, "title": room.title, "description": details["description"],
            "bed_options": details["bed_options"], "facilities": facilities,
            "photos": [{name: p[name] for name in ROOM_PHOTO_FIELDS} for p in photos[room.id]],
            "availability": available, "rate_plans": rate_plans}


def _plan_item(plan: Plan, nights: Nights, available: int) -> dict[str, Any]:
    """What every offer of a plan shares, made once per plan: its room's availability is its own (a rate plan has
    no allotment of its own). The offer's own keys follow, unset, in their place (_rate_items)."""
    return {"id": plan.id, "title": plan.title, "meal_plan": MEAL_TYPES[plan.meal_type], "meal_type": plan.meal_type,
            "parent_rate_plan_id": plan.parent_id, "sell_mode": plan.sell_mode, "currency": plan.currency,
            "length_of_stay": len(nights.keys), "availability": available,
            "cancellation_policy": plan.cancellation_policy, **OFFER_KEYS}


class _Amounts(dict[int, str]):
    """Nightly prices of one currency in minor units as one rooms answer shows them, each formatted on first asking.
    An answer shows thousands, most of them alike: a dict lookup costs a fraction of a call to the (remembered)
    format_minor."""

    def __init__(self, currency: str) -> None:
        super().__init__()
        self.currency = currency

    def __missing__(self, minor: int) -> str:
        shown = self[minor] = format_minor(minor, self.currency)
        return shown


class _Shown(dict[str, _Amounts]):
    """Each currency's _Amounts, made on first asking."""

    def __missing__(self, currency: str) -> _Amounts:
        amounts = self[currency] = _Amounts(currency)
        return amounts


def _rate_items(shown: dict[str, Any], plan: Plan, nights: tuple[str, ...], quotes: list[tuple[Guests, tuple[int, ...]]],
                tax_set: TaxSet | None, nightly: _Amounts) -> list[dict[str, Any]]:
    """A plan's offers: `price` is the nights' sum (taxes marked inclusive are in it), `net_price` that without any
    tax, `total_price` what the guest pays, the taxes on top added. A plan without taxes, the common case, has the
    three alike."""
    currency = plan.currency
    taxes_of = tax_set if tax_set is not None and tax_set.taxes else None
    items = []
    for guests, prices in quotes:
        item = shown.copy()  # every key in place: a copy, and no dict grown key by key
        item["occupancy"] = {"adults": guests.adults, "children": guests.children, "infants": guests.infants}
        price = sum(prices)
        item["price"] = item["net_price"] = item["total_price"] = format_minor(price, currency)  # seldom alike
        item["days"] = dict(zip(nights, map(nightly.__getitem__, prices)))  # one price a night
        item["taxes"] = []
        if taxes_of is not None:
            taxes, inside, on_top = offered(taxes_of, nights, prices, guests.persons, currency)
            item.update(net_price=format_minor(price - inside, currency),
                        total_price=format_minor(price + on_top, currency), taxes=taxes)
        items.append(item)
    return items
