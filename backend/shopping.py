"""The real-time shopping API of meta channels: what a channel may sell, read live, never cached.

A shopping channel is named in the path by its title or code ("OpenShopping"). Only properties
connected to it and rate plans mapped to it are sold. A channel with a provider API key answers
only calls that carry it in the header `api-key`; a channel without one is public.

`channels`/`channel_for` resolve a name and key as the HTTP API does; `own_channel` lets a user
(the console's operator) preview a channel of theirs without its key. The reads take channel ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import cached_property
from typing import Any

from pydantic_core import from_json

from backend.channels import SHOPPING_CODES
from backend.dates import days, parse_date
from backend.errors import (
    Errors,
    NotFound,
    NotSupported,
    Unauthorized,
    ValidationFailed,
)
from backend.identity import Actor, hash_secret
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.models import MEAL_TYPES
from backend.inventory.rooms import HotelPolicies
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
    Quote,
    Room,
    open_rates,
    priced,
    taxes,
)
from backend.inventory.window import Window, window_of
from backend.listing import Column, ListQuery, page, parse_bool, where
from backend.money import format_minor
from storage import Store

TEXT = ("title", "city", "country", "zip_code", "state", "address")
LIST_COLUMNS = {**{name: Column(f"p.{name}") for name in TEXT},
                "latitude": Column("CAST(p.latitude AS REAL)", "number"),
                "longitude": Column("CAST(p.longitude AS REAL)", "number")}
MAX_GUESTS = 200


@dataclass(frozen=True)
class Stay:
    arrival: date
    departure: date
    guests: Guests | None  # None: every option at its own occupancy

    @cached_property
    def nights(self) -> Nights:
        return Nights.of(self.arrival, self.departure)


def parse_stay(params: dict[str, str], *, length_allowed: bool = False) -> Stay | None:
    """checkin_date with checkout_date (or length_of_stay), and optional adults/children/infants."""
    errors = Errors()
    guests = _guests(params, errors)
    checkin, checkout, length = (params.get(k) for k in ("checkin_date", "checkout_date", "length_of_stay"))
    if checkin is None and checkout is None and length is None:
        errors.raise_if_any()
        return None
    arrival = departure = None
    try:
        arrival = parse_date(checkin)
    except ValueError as exc:
        errors.add("checkin_date", str(exc) if checkin is not None else "is required with checkout_date")
    if length is not None and not length_allowed:
        errors.add("length_of_stay", "is not a parameter of this call")
    elif length is not None:
        nights = int(length) if length.isascii() and length.isdigit() and len(length) <= 3 else 0
        if not 1 <= nights <= 730:
            errors.add("length_of_stay", "must be a whole number of nights from 1 to 730")
        elif arrival:
            departure = arrival + timedelta(days=nights)
    if checkout is not None:
        try:
            stated = parse_date(checkout)
            if departure is not None and stated != departure:
                errors.add("checkout_date", "does not match checkin_date + length_of_stay")
            departure = stated
        except ValueError as exc:
            errors.add("checkout_date", str(exc))
    elif length is None:
        errors.add("checkout_date", "is required with checkin_date" + (" (or give length_of_stay)" if length_allowed else ""))
    if arrival and departure and departure <= arrival:
        errors.add("checkout_date", "must be after checkin_date")
    errors.raise_if_any()
    return Stay(arrival, departure, guests)  # type: ignore[arg-type]


def _guests(params: dict[str, str], errors: Errors) -> Guests | None:
    counts = {}
    for name in ("adults", "children", "infants"):
        raw = params.get(name)
        if raw is None:
            continue
        if not (raw.isascii() and raw.isdigit() and int(raw) <= MAX_GUESTS):
            errors.add(name, f"must be a whole number from 0 to {MAX_GUESTS}")
        else:
            counts[name] = int(raw)
    if not counts:
        return None
    if counts.get("adults", 0) < 1:
        errors.add("adults", "at least one adult is needed")
        return None
    return Guests(**counts)


class Shopping:
    def __init__(self, store: Store, policies: HotelPolicies, clock) -> None:
        self.store = store
        self.calendar = Calendar(store)
        self.policies = policies
        self.clock = clock

    # --- channels ----------------------------------------------------------------------------

    def channels(self, name: str, api_key: str | None) -> list[str]:
        """The active shopping channels called `name` that this caller may use: those whose provider
        key it presents, or, without a key, the public ones."""
        rows = self.store.query(
            f"SELECT id, provider_api_key_hash FROM channels WHERE is_active = 1 AND (title = ? OR channel_code = ?) "
            f"AND channel_code IN ({','.join('?' * len(SHOPPING_CODES))})", (name, name, *SHOPPING_CODES))
        if not rows:
            raise NotFound(f"there is no shopping channel called {name!r}")
        wanted = hash_secret(api_key) if api_key else None
        usable = [r["id"] for r in rows if r["provider_api_key_hash"] == wanted]
        if not usable:
            raise Unauthorized("this channel needs its provider API key in the header api-key" if wanted is None
                               else "the api-key is not the key of a channel by this name")
        return usable

    def own_channel(self, actor: Actor, channel_id: str) -> str:
        """A shopping channel of the actor's, for previews (401 someone else's, 404 unknown)."""
        row = self.store.one("SELECT group_id, channel_code FROM channels WHERE id = ?", (channel_id,))
        if row is None:
            raise NotFound(f"channel {channel_id} does not exist")
        if row["group_id"] not in actor.group_ids:
            raise Unauthorized("you have no access to this channel")
        if row["channel_code"] not in SHOPPING_CODES:
            raise NotSupported(f"{row['channel_code']} is not a shopping channel")
        return channel_id

    def channel_for(self, name: str, property_id: str, api_key: str | None) -> str:
        """The one channel called `name` that sells the property, its key checked."""
        rows = self.store.query(
            f"SELECT c.id, c.provider_api_key_hash FROM channels c JOIN channel_properties cp ON cp.channel_id = c.id "
            f"JOIN properties p ON p.id = cp.property_id WHERE cp.property_id = ? AND c.is_active = 1 "
            f"AND p.is_active = 1 AND (c.title = ? OR c.channel_code = ?) "
            f"AND c.channel_code IN ({','.join('?' * len(SHOPPING_CODES))})",
            (property_id, name, name, *SHOPPING_CODES))
        if not rows:
            raise NotFound(f"property {property_id} is not sold on a channel called {name!r}")
        wanted = hash_secret(api_key) if api_key else None
        for row in rows:
            if row["provider_api_key_hash"] in (None, wanted):
                return row["id"]
        raise Unauthorized("this channel needs its provider API key in the header api-key")

    def _require_connected(self, channel_id: str, property_id: str) -> None:
        if not self.store.scalar("SELECT 1 FROM channel_properties cp JOIN properties p ON p.id = cp.property_id "
                                 "WHERE cp.channel_id = ? AND cp.property_id = ? AND p.is_active = 1",
                                 (channel_id, property_id)):
            raise NotFound(f"property {property_id} is not sold on this channel")

    # --- property list -----------------------------------------------------------------------

    def property_list(self, channel_ids: list[str], params: list[tuple[str, str]]) -> tuple[list, dict]:
        single = dict(params)
        stay = parse_stay(single)
        query = ListQuery.from_params(params)
        available = [f for f in query.filters if f.field == "is_available"]
        query.filters = [f for f in query.filters if f.field != "is_available"]
        wanted = _is_available(available, stay)
        scope = (f"p.is_active = 1 AND p.id IN (SELECT property_id FROM channel_properties "
                 f"WHERE channel_id IN ({','.join('?' * len(channel_ids))}))")
        if wanted is None:
            rows, meta = page(self.store, query, LIST_COLUMNS, select="p.*", source="properties p", scope=scope,
                              scope_params=channel_ids, default_order="p.title, p.id")
            offers = self.best_offers(channel_ids, stay, [r["id"] for r in rows]) if stay else {}
        else:
            conditions, values = where(query, LIST_COLUMNS)
            every = self.store.query(f"SELECT p.* FROM properties p WHERE {scope}{conditions} ORDER BY p.title, p.id",
                                     [*channel_ids, *values])
            offers = self.best_offers(channel_ids, stay, None)  # type: ignore[arg-type]
            matching = [r for r in every if (r["id"] in offers) == wanted]
            rows, meta = matching[query.offset:query.offset + query.limit], query.meta(len(matching))
        return [_list_item(r, offers.get(r["id"]) if stay else None) for r in rows], meta

    def best_offers(self, channel_ids: list[str], stay: Stay, property_ids: list[str] | None) -> dict[str, str]:
        """The lowest price of the stay per property that can sell it, as a decimal string."""
        if property_ids == []:
            return {}
        plans = self.calendar.mapped_plans(channel_ids, property_ids)
        scope = Scope(channel_ids=tuple(channel_ids)) if property_ids is None else Scope(tuple(p.id for p in plans))
        first, last = stay.arrival.isoformat(), stay.departure.isoformat()
        restrictions = self.calendar.restrictions(scope, first, last, plans)
        rooms_scope = scope if property_ids is None else Scope(tuple({p.room_type_id for p in plans}))
        availability = self.calendar.availability(rooms_scope, first, last)
        rooms = self.calendar.rooms({p.room_type_id for p in plans})
        contexts = self._contexts({p.property_id for p in plans})
        best: dict[str, tuple[int, str]] = {}
        for plan in plans:
            window, min_stay_type = contexts[plan.property_id]
            for _, found in _quotes(plan, rooms[plan.room_type_id], stay, window, restrictions[plan.id],
                                    availability.get(plan.room_type_id, {}), min_stay_type):
                current = best.get(plan.property_id)
                if current is None or found.price < current[0]:
                    best[plan.property_id] = (found.price, plan.currency)
        return {pid: format_minor(price, currency) for pid, (price, currency) in best.items()}

    def _contexts(self, property_ids) -> dict[str, tuple[Window, str]]:
        ids = list(property_ids)
        now = self.clock()
        rows = self.store.query(f"SELECT id, timezone, settings FROM properties WHERE id IN ({','.join('?' * len(ids))})",
                                ids) if ids else []
        return {r["id"]: (window_of(r, now), from_json(r["settings"])["min_stay_type"]) for r in rows}

    # --- one property ------------------------------------------------------------------------

    def property_info(self, channel_id: str, property_id: str) -> dict[str, Any]:
        self._require_connected(channel_id, property_id)
        row = self.store.one("SELECT * FROM properties WHERE id = ?", (property_id,))
        facilities = [r[0] for r in self.store.query(
            "SELECT f.title FROM property_facilities pf JOIN facilities f ON f.id = pf.facility_id "
            "WHERE pf.property_id = ? ORDER BY pf.position", (property_id,))]
        item = _list_item(row, None)
        del item["best_offer"]
        location = {"latitude": item.pop("latitude"), "longitude": item.pop("longitude")}
        policy = self.policies.read(property_id)
        if policy is not None:
            del policy["id"], policy["property_id"]  # the spec's policy fields only
        return {**item, "location": location, "facilities": facilities, "hotel_policy": policy}

    def closed_dates(self, channel_id: str, property_id: str) -> dict[str, Any]:
        """Property-level: a night is closed when no mapped plan can sell it; an open date is closed to
        arrival when every plan open on it is; a date is closed to departure when every plan is."""
        self._require_connected(channel_id, property_id)
        plans = self.calendar.mapped_plans([channel_id], [property_id])
        window, min_stay_type = self._contexts([property_id])[property_id]
        first, last = window.today.isoformat(), window.end.isoformat()
        restrictions = self.calendar.restrictions(Scope(tuple(p.id for p in plans)), first, last, plans)
        availability = self.calendar.availability(Scope(tuple({p.room_type_id for p in plans})), first, last)
        result: dict[str, Any] = {"closed": [], "closed_to_arrival": [], "closed_to_departure": [],
                                  "min_stay_arrival": {}, "min_stay_through": {}}
        for day in days(window.today, window.end):
            key = day.isoformat()
            rows = {p.id: restrictions[p.id][key] for p in plans}
            open_now = [p for p in plans if day >= window.first and _sellable(rows[p.id], availability.get(p.room_type_id, {}).get(key, 0))]
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

    def rooms(self, channel_id: str, property_id: str, params: dict[str, str]) -> list[dict[str, Any]]:
        stay = parse_stay(params, length_allowed=True)
        self._require_connected(channel_id, property_id)
        plans = self.calendar.mapped_plans([channel_id], [property_id])
        rooms = self.calendar.rooms(p.room_type_id for p in plans)
        if stay is None:
            return [_room_item(room, []) for room in rooms.values()]
        window, min_stay_type = self._contexts([property_id])[property_id]
        _check_window(stay, window)
        first, last = stay.arrival.isoformat(), stay.departure.isoformat()
        restrictions = self.calendar.restrictions(Scope(tuple(p.id for p in plans)), first, last, plans)
        availability = self.calendar.availability(Scope(tuple(rooms)), first, last)
        offers: dict[str, list[dict[str, Any]]] = {room_id: [] for room_id in rooms}
        for plan in plans:
            for guests, found in _quotes(plan, rooms[plan.room_type_id], stay, window, restrictions[plan.id],
                                         availability.get(plan.room_type_id, {}), min_stay_type):
                offers[plan.room_type_id].append(_rate_item(plan, found, guests))
        return [_room_item(room, offers[room_id]) for room_id, room in rooms.items() if offers[room_id]]


def _quotes(plan: Plan, room: Room, stay: Stay, window: Window, restrictions, availability,
            min_stay_type) -> list[tuple[Guests, Quote]]:
    """The plan's sellable quotes: for the stay's guests, or one per option when none are given. The
    nights are checked once per plan; each option's price is then arithmetic."""
    if stay.guests is not None and room.holds(stay.guests):
        return []
    try:
        rates = open_rates(plan, stay.nights, window, restrictions, availability, min_stay_type)
    except NotSellable:
        return []
    if stay.guests is not None:
        option = plan.option_for(stay.guests)
        return [] if option is None else [(stay.guests, priced(plan, stay.nights, rates, *option, stay.guests))]
    parties = [(_party(room, occupancy), occupancy, rate) for occupancy, rate in plan.options]
    return [(guests, priced(plan, stay.nights, rates, occupancy, rate, guests)) for guests, occupancy, rate in parties]


def _party(room: Room, occupancy: int) -> Guests:
    """Guests filling an option's occupancy: adults first, then children, as the room takes them."""
    adults = min(occupancy, room.occ_adults)
    return Guests(adults, occupancy - adults)


def _sellable(row: tuple, available: int) -> bool:
    return available > 0 and row[R_RATE] is not None and not row[R_STOP]


def _check_window(stay: Stay, window: Window) -> None:
    if stay.arrival < window.today:
        raise ValidationFailed.one("checkin_date", f"is in the past (today is {window.today.isoformat()} at the property)")
    if stay.departure > window.end:
        raise ValidationFailed.one("checkout_date", f"is beyond the property's inventory ({window.end.isoformat()})")


def _is_available(filters: list, stay: Stay | None) -> bool | None:
    if not filters:
        return None
    value = parse_bool(filters[0].value)
    if value is None or filters[0].op != "eq":
        raise ValidationFailed.one("filter[is_available]", "must be true or false")
    if stay is None:
        raise ValidationFailed.one("filter[is_available]", "works only with checkin_date and checkout_date")
    return bool(value)


def _list_item(row, best_offer: str | None) -> dict[str, Any]:
    content = from_json(row["content"])
    return {
        "id": row["id"], "title": row["title"], "address": row["address"], "city": row["city"],
        "state": row["state"], "country": row["country"], "zip_code": row["zip_code"],
        "latitude": row["latitude"], "longitude": row["longitude"], "currency": row["currency"],
        "description": content["description"],
        "photos": [{"url": p["url"], "description": p["description"], "author": p["author"]} for p in content["photos"]],
        "best_offer": best_offer,
    }


def _room_item(room, rate_plans: list[dict[str, Any]]) -> dict[str, Any]:
    details = room.details
    return {"id": room.id, "title": room.title, "description": details["description"],
            "bed_options": details["bed_options"], "facilities": details["facilities"], "photos": details["photos"],
            "rate_plans": rate_plans}


def _rate_item(plan: Plan, found: Quote, guests: Guests) -> dict[str, Any]:
    return {"id": plan.id, "title": plan.title, "meal_plan": MEAL_TYPES[plan.meal_type], "meal_type": plan.meal_type,
            "parent_rate_plan_id": plan.parent_id, "sell_mode": plan.sell_mode,
            "occupancy": {"adults": guests.adults, "children": guests.children, "infants": guests.infants},
            "currency": plan.currency, "price": format_minor(found.price, plan.currency),
            "days": {d: format_minor(p, plan.currency) for d, p in zip(found.nights, found.prices, strict=True)},
            "cancellation_policy": plan.details["cancellation_policy"], "taxes": taxes(plan, found, guests)}
