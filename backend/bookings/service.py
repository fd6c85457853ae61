"""Bookings and their revisions: pushed by shopping channels, sent in by OTAs, read by integrators.

A push is one transaction, scoped to its property (backend/core/scopes.py): the bookability check, the taking of
rooms and the revision are written together, so concurrent pushes can never sell the same last room twice, while
pushes for other properties go beside it on PostgreSQL. Each
booking remembers the units it holds (`taken`), so a cancellation or modification gives back
exactly those, whatever the settings were in between.
"""

from __future__ import annotations

import builtins
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any, cast

from pydantic_core import from_json

from backend.bookings.access import booking_row
from backend.bookings.ages import by_ages, party
from backend.bookings.cards import BookingCards, Reveal, masked
from backend.bookings.crs import crs_body
from backend.bookings.direct import DIRECT, direct_channel
from backend.bookings.finding import guest_names, stay_view
from backend.bookings.models import BookingInput, RoomIn
from backend.bookings.reports import BookingReports, reports_of
from backend.bookings.shape import feed_view, room_taxes
from backend.bookings.store import (
    ack_revision,
    booking_by_reservation,
    booking_page,
    booking_shown,
    insert_booking,
    insert_revision,
    property_group,
    property_row,
    revision_attributes,
    revision_card_token,
    revision_page,
    revision_row,
    update_booking,
)
from backend.channels.store import channel_row, is_connected, mapped_rate_plan_ids, property_rate_plan_ids
from backend.core.card_data import mask_cards_in
from backend.core.dates import days
from backend.core.errors import Errors, NotSupported, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.money import canonical, format_minor, in_currency, parse_money
from backend.core.scopes import VAULT, property_scope, reservation_scope
from backend.core.validation import validate
from backend.identity.access import owned_property, reaches
from backend.identity.models import Actor
from backend.identity.service import hash_secret
from backend.inventory import sellable
from backend.inventory.age_bands import SPEC_BANDS, bands_of
from backend.inventory.calendar import Calendar, Scope
from backend.inventory.channel_rules import ChannelRules
from backend.inventory.stays import R_RATE, Guests, Nightly, Nights, NotSellable, Plan, Quote, quote
from backend.inventory.store import give_back_rooms, take_rooms
from backend.inventory.taxes import TaxSet, tax_lines
from backend.inventory.window import Window, window_of
from backend.outbox import record as outbox
from storage import Row, Store, new_id, utc_now

PREFIXES = {"OpenShopping": "OSH", "BookingCom": "BDC", "AirBNB": "ABB", DIRECT: "OFL"}
OTA_CODES = ("BookingCom", "AirBNB")


class Bookings:
    def __init__(self, store: Store, events: EventBus, cards: BookingCards, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.events = events
        self.cards = cards
        self.calendar = Calendar(store)
        self.clock = clock
        self.reports = BookingReports(store, self, clock)

    # --- writing -----------------------------------------------------------------------------

    def push(self, channel_id: str, property_id: str, data: Any, *, secure: bool) -> tuple[dict[str, Any], bool]:
        """A booking from a shopping channel, checked against availability and restrictions.
        Returns the booking and whether it is new (201) rather than a change or a repeat."""
        return self._write(channel_id, property_id, data, secure=secure, ota=False)

    def inbound(self, channel: Row, data: Any, *, secure: bool) -> tuple[dict[str, Any], bool]:
        """A booking from an OTA channel's adapter (`channel` from `channel_by_key`): always accepted,
        flagged when it overbooks or maps to nothing."""
        channel_id = channel["id"]
        if channel["channel_code"] not in OTA_CODES:
            raise NotSupported(f"{channel['channel_code']} channels push bookings through the shopping API")
        property_id = data.get("property_id") if isinstance(data, dict) else None
        return self._write(channel_id, property_id, data, secure=secure, ota=True)

    def take(self, actor: Actor, data: Any, *, secure: bool) -> tuple[dict[str, Any], bool]:
        """A booking the property takes itself (`POST /bookings`, the service's CRS create), on its direct channel,
        made on first use: `property_id` names the property; otherwise exactly a push_booking. The body may be one
        built from a booking's answer (backend/bookings/crs.py)."""
        data = crs_body(data)
        property_id = data.get("property_id") if isinstance(data, dict) else None
        prop = property_group(self.store, property_id) if isinstance(property_id, str) else None
        if prop is None or not reaches(self.store, actor, prop["id"], prop["group_id"]):
            validate(BookingInput, data)  # report the body's own problems first
            raise ValidationFailed.one("property_id", "is not a property of yours")
        with self.store.transaction() as conn:
            channel_id = direct_channel(conn, prop)
        return self._write(channel_id, prop["id"], data, secure=secure, ota=False)

    def update(self, actor: Actor, booking_id: str, data: Any, *, secure: bool) -> dict[str, Any]:
        """The service's CRS update (`PUT /bookings/:id`): a booking of the actor's, the property's own or an OTA's,
        modified or cancelled as its own channel's push would be, the new stay checked against availability and
        restrictions under the property's write scope. `property_id` and the reservation code may be sent: they must
        be the booking's."""
        row = booking_row(self.store, actor, booking_id)
        data = crs_body(data)
        if not isinstance(data, dict):
            validate(BookingInput, data)
        errors = Errors()
        if data.get("status") not in ("modified", "cancelled"):
            errors.add("status", "must be modified or cancelled: the booking exists")
        shown = from_json(cast(str, revision_attributes(self.store, row["revision_id"])))["reservation_id"]
        for name in ("reservation_id", "ota_reservation_code"):
            if data.get(name) not in (None, shown):
                errors.add(name, f"is {shown}, the booking's: it can't change")
        if data.get("property_id") not in (None, row["property_id"]):
            errors.add("property_id", "is another property than the booking's")
        validate(BookingInput, data)  # the body's own problems with these
        errors.raise_if_any()
        body = {**{k: v for k, v in data.items() if k != "ota_reservation_code"}, "reservation_id": shown}
        booking, _ = self._write(row["channel_id"], row["property_id"], body, secure=secure, ota=False,
                                 key=row["reservation_id"], crs=True)
        return booking

    def channel_by_key(self, channel_id: str, inbound_key: str | None) -> Row:
        row = channel_row(self.store, channel_id)
        if row is None or not inbound_key or hash_secret(inbound_key) != row["inbound_key_hash"]:
            raise Unauthorized("wrong channel or inbound key (header api-key)")
        return row

    def _write(self, channel_id: str, property_id: str | None, data: Any, *, secure: bool, ota: bool,
               key: str | None = None, crs: bool = False) -> tuple[dict[str, Any], bool]:
        """`key`: the booking's reservation key when the caller found it by its ID; `crs`: a CRS update, which
        sells every rate plan of the property, as its own bookings do, whatever the booking's channel."""
        # Prices come out in the booking's currency: 12000 is 120.00 EUR (backend/core/money.py).
        model = validate(BookingInput, data, in_currency(data.get("currency") if isinstance(data, dict) else None))
        shown = _shown_input(model)
        body_hash = _hash(shown)
        if key is None and model.reservation_id:
            key = self.cards.reservation_key(model.reservation_id)
        with self.store.transaction(*_scope(channel_id, property_id, key, model)):
            # An OTA's property must be connected to its channel, as it is when the booking is written.
            if ota and not is_connected(self.store, channel_id, property_id):
                raise ValidationFailed.one("property_id", "is not a property connected to this channel")
            # Both there: the channel was authenticated or made, the property checked or connected to it.
            # Both there: the property connected (checked above) or the caller's own, the channel authenticated or made.
            prop = cast(Row, property_row(self.store, cast(str, property_id)))
            channel = cast(Row, channel_row(self.store, channel_id))
            window = window_of(prop, self.clock())
            existing = booking_by_reservation(self.store, channel_id, key) if key else None
            if model.status == "new" and existing is not None:
                if existing["body_hash"] != body_hash:
                    raise ValidationFailed.one("reservation_id", "is already taken by a different booking")
                return self._attributes(existing["revision_id"]), True
            if model.status != "new":
                existing = _require_existing(model, existing)
                if existing["property_id"] != property_id:
                    raise ValidationFailed.one("property_id", "the booking belongs to another property")
                if model.status == "cancelled" and existing["status"] == "cancelled":
                    return self._attributes(existing["revision_id"]), False
            if model.status == "cancelled":
                # not new: _require_existing found it
                booking = self._cancel(shown, cast(Row, existing), prop, sellable.Read(prop))
            else:
                sold = property_rate_plan_ids(self.store, prop["id"]) if crs else self._sold(channel, prop)
                booking = self._book(model, shown, existing, prop, channel, sold, window, body_hash, key,
                                     secure=secure, ota=ota, ruled=not crs)
        self.events.publish("booking.changed", booking["id"], outboxed=True, status=booking["status"],
                            property_id=property_id)
        return booking, model.status == "new"

    def _book(self, model: BookingInput, shown: dict[str, Any], existing: Row | None, prop: Row, channel: Row, sold: set[str],
              window: Window, body_hash: str, key: str | None, *, secure: bool, ota: bool,
              ruled: bool) -> dict[str, Any]:
        """`ruled`: the channel's availability rules apply (all but a CRS update, the property's own word)."""
        settings = from_json(prop["settings"])
        _check_stay(model, window, self.clock().date(), ota)
        # Both dates: _check_stay requires them
        arrival = date.fromisoformat(cast(str, model.arrival_date))
        departure = date.fromisoformat(cast(str, model.departure_date))
        held = Counter(tuple(u) for u in from_json(existing["taken"])) if existing else Counter()
        rules = ChannelRules.of_property(self.store.conn, prop["id"]) if ruled else None
        rooms, overbooked, unmapped = self._price_rooms(model, shown["rooms"], prop, sold, window, arrival,
                                                        departure, held, settings["min_stay_type"], ota,
                                                        (channel["id"], rules) if rules is not None else None)
        autoupdate = settings["allow_availability_autoupdate_on_" + ("modification" if existing else "confirmation")]
        taken = list(held.elements()) if existing else []
        if autoupdate:
            self._give_back(taken)
            taken, short = self._take(rooms, ota=ota, since=window.today.isoformat())
            overbooked = overbooked or short
        booking_id = existing["id"] if existing else new_id()
        reservation_id = shown["reservation_id"] or new_id()  # masked if it holds a card: `key` finds it
        attributes = {
            "id": booking_id, "unique_id": f"{PREFIXES.get(channel['channel_code'], 'CHN')}-{reservation_id}",
            "reservation_id": reservation_id, "status": model.status, "channel_id": channel["id"],
            "ota_name": channel["title"], "property_id": prop["id"], "arrival_date": model.arrival_date,
            "departure_date": model.departure_date, "arrival_hour": model.arrival_hour, "currency": model.currency,
            "amount": _amount(rooms, model, model.currency), "payment_collect": model.payment_collect,
            "payment_type": model.payment_type, "rooms": rooms,
            "services": shown["services"], "customer": shown["customer"], "guarantee": shown["guarantee"],
            "agent": shown["agent"], "ota_commission": shown["ota_commission"], "notes": shown["notes"],
            "deposits": shown["deposits"], "meta": shown["meta"],
            "is_overbooked": overbooked, "is_unmapped": unmapped,
        }
        card_token: str | None
        if model.guarantee is not None and model.guarantee.token is not None:  # a card of the card form
            attributes["guarantee"] = self.cards.take(self.store.conn, shown["guarantee"], channel["id"], booking_id,
                                                      model.departure_date)
            card_token = model.guarantee.token
        elif model.guarantee is not None:
            card_token = (self.cards.keep(self.store.conn, model.guarantee.model_dump(), model.departure_date)
                          if secure else None)
        else:
            card_token = self._carried_card(existing, model.departure_date)
            if existing:
                attributes["guarantee"] = from_json(self._revision_row(existing["revision_id"])["attributes"])["guarantee"]
        return self._save(attributes, existing, body_hash, taken, card_token, key or reservation_id,
                          sellable.Read(prop, rules))

    def _price_rooms(self, model: BookingInput, shown_rooms: list[dict[str, Any]], prop: Row, mapped: set[str],
                     window: Window, arrival: date, departure: date, held: Counter[tuple[str, str]], min_stay_type: str,
                     ota: bool, seen_by: tuple[str, ChannelRules] | None) -> tuple[list[dict[str, Any]], bool, bool]:
        """Each room of the booking with its nightly prices. A shopping push or a booking of the property's own must
        be sellable (422 naming the room otherwise), of the rate plans `mapped` (those its channel sells), at the
        prices it names, if any, for each night, and carries
        its rate plan's taxes; an OTA booking is taken as sent, flagged overbooked or unmapped. `seen_by`: the
        channel whose availability rules apply (backend/inventory/channel_rules.py) and the property's rules: the
        rooms it may sell are those they leave it, read in this transaction under the property's scope, which a
        rule's change takes too; an OTA booking beyond them is flagged overbooked, as one beyond the rooms there
        are."""
        plans, rooms = self.calendar.plans_and_rooms(r.rate_plan_code for r in model.rooms)
        first, last = arrival.isoformat(), departure.isoformat()
        restrictions = self.calendar.restrictions(Scope(tuple(plans)), first, last, plans.values())
        availability = self.calendar.availability(Scope(tuple(rooms)), first, last)
        if seen_by is not None:
            channel_id, rules = seen_by
            rules.apply([channel_id], availability)
        tax_sets = self.calendar.tax_sets(plans.values())
        for (room_id, day), count in held.items():  # this booking's own units count as free for its change
            availability.setdefault(room_id, {})[day] = availability.get(room_id, {}).get(day, 0) + count
        wanted = Counter(r.room_type_code for r in model.rooms)
        bands = bands_of(self.store, [prop["id"]])[prop["id"]] if any(map(by_ages, model.rooms)) else SPEC_BANDS
        errors, priced, overbooked, unmapped = Errors(), [], False, False
        for index, room in enumerate(model.rooms):
            guests = party(room, bands)  # what `rooms` showed for these ages (backend/bookings/ages.py)
            plan = plans.get(room.rate_plan_code)
            ok = plan is not None and plan.property_id == prop["id"] and plan.room_type_id == room.room_type_code
            if not ota and ok and plan is not None and plan.currency != model.currency:
                errors.add("currency", f"must be {plan.currency}, the currency of the rate plan")
                continue
            if not ok or plan is None or (not ota and plan.id not in mapped):
                if not ota:
                    errors.add(f"rooms.{index}.rate_plan_code" if plan is None or plan.room_type_id == room.room_type_code
                               else f"rooms.{index}.room_type_code", "is not a room type and rate plan sold on this channel")
                    continue
                unmapped = True
                priced.append(_room(index, room, guests, shown_rooms[index], None, None, room.days or {}))
                continue
            try:
                found = quote(plan, rooms[plan.room_type_id], guests, Nights.of(arrival, departure), window,
                              restrictions.get(plan.id, cast(Nightly, {})), availability.get(plan.room_type_id, {}),
                              min_stay_type, wanted[room.room_type_code])
                prices: dict[str, str | None] = {d: format_minor(p, plan.currency) for d, p in found.days.items()}
            except NotSellable as exc:
                if not ota:
                    errors.add(f"rooms.{index}", f"can't be booked: {exc}")
                    continue
                prices = {d.isoformat(): _rate_of(restrictions.get(plan.id, {}), d.isoformat(), plan.currency)
                          for d in days(arrival, departure)}
            if ota:  # taken as sent, but flagged when the rooms are not there
                # Nights before the property's today are not for sale any more (the guest may be in house: a late
                # booking, a stay extended): only the nights from today on can lack rooms.
                overbooked = overbooked or _lacks(availability.get(plan.room_type_id, {}), max(arrival, window.today),
                                                  departure, wanted[room.room_type_code])
                priced.append(_room(index, room, guests, shown_rooms[index], plan.room_type_id, plan.id,
                                    room.days or prices))
                continue
            if room.days is not None:  # the prices the booking names
                if set(room.days) != set(found.nights):
                    errors.add(f"rooms.{index}.days", "must give the price of each night of the stay, and no other")
                    continue
                found = found._replace(prices=tuple(parse_money(room.days[night], plan.currency)
                                                    for night in found.nights))
            priced.append(_room(index, room, guests, shown_rooms[index], plan.room_type_id, plan.id, room.days or prices,
                                _taxes(plan, found, guests,
                                       tax_sets.get(plan.tax_set_id) if plan.tax_set_id is not None else None)))
        _check_services(model, errors)
        errors.raise_if_any()
        return priced, overbooked, unmapped

    def _sold(self, channel: Row, prop: Row) -> set[str]:
        """The rate plans a channel sells: those mapped to it; a property's direct channel, every plan of it."""
        if channel["channel_code"] == DIRECT:
            return property_rate_plan_ids(self.store, prop["id"])
        return mapped_rate_plan_ids(self.store, channel["id"])

    def cancel_taken(self, existing: Row) -> dict[str, Any]:
        """Cancel a booking (its row, with its property's `settings`) in the caller's transaction: a cancellation
        for an invalid card."""
        return self._cancel({"services": []}, existing, existing, None)

    def _cancel(self, shown: dict[str, Any], existing: Row, settings_of: Row, read: sellable.Read | None) -> dict[str, Any]:
        """`settings_of`: a row with the property's settings; `read`: what this transaction read of the property."""
        settings = from_json(settings_of["settings"])
        taken = from_json(existing["taken"])
        if settings["allow_availability_autoupdate_on_cancellation"]:
            self._give_back([tuple(u) for u in taken])
            taken = []
        attributes = {**from_json(self._revision_row(existing["revision_id"])["attributes"]), "status": "cancelled"}
        if shown["services"]:  # a cancellation fee, in the booking's currency whether or not the body names it
            attributes["services"] = [*attributes["services"], *_priced(shown["services"], existing["currency"])]
        return self._save(attributes, existing, existing["body_hash"], taken,
                          self._carried_card(existing, attributes["departure_date"]), existing["reservation_id"], read)

    def _carried_card(self, existing: Row | None, departure: str | None) -> str | None:
        """The vault token of the booking's card, kept by a revision that brings no card of its own."""
        token = existing and revision_card_token(self.store, existing["revision_id"])
        if token:
            self.cards.carry(self.store.conn, token, departure)
        return token or None

    def _take(self, rooms: list[dict[str, Any]], *, ota: bool, since: str) -> tuple[list[tuple[str, str]], bool]:
        """Take one unit per mapped room per night from `since` (the property's today: a night before it is no longer
        for sale, and an OTA's booking of a stay already begun takes the nights left); returns the units taken and
        whether any night had none left.

        The conditional decrement is the arbiter, not the availability read before it: where two writers run at
        once (PostgreSQL), both may have read the last room as free, and the second's UPDATE then matches no row.
        A booking that must be sellable is refused then (the caller's transaction rolls back); an OTA's is kept
        as sent, flagged overbooked, holding what its nights had left. Every night is taken in one statement (one
        round trip); the property's write scope keeps other writers off these rows meanwhile."""
        units = sorted((room["room_type_id"], day, index) for index, room in enumerate(rooms) if room["is_mapped"]
                       for day in room["days"] if day >= since)
        whole = take_rooms(self.store.conn, Counter((room_type_id, day) for room_type_id, day, _ in units))
        taken, short = [], False
        for room_type_id, day, index in units:
            if (room_type_id, day) in whole:
                taken.append((room_type_id, day))
            elif not ota:
                raise ValidationFailed.one(f"rooms.{index}", f"can't be booked: no room is left on {day}")
            elif take_rooms(self.store.conn, {(room_type_id, day): 1}):  # what a night short of rooms has left
                taken.append((room_type_id, day))
            else:
                short = True
        return taken, short

    def _give_back(self, units: list[tuple[str, str]]) -> None:
        give_back_rooms(self.store.conn, units)

    def _save(self, attributes: dict[str, Any], existing: Row | None, body_hash: str, taken: list[Any], card_token: str | None,
              key: str, read: sellable.Read | None) -> dict[str, Any]:
        """`key` finds the booking by its reservation id (BookingCards.reservation_key); `read`: what the caller
        read of the property in this transaction, if it holds its row. With the booking, an ARI event per room type
        whose availability it moved, and the sellable index of those nights."""
        conn, now, revision_id = self.store.conn, utc_now(), new_id()
        attributes = {**attributes, "revision_id": revision_id,
                      "inserted_at": existing["inserted_at"] if existing else now, "updated_at": now}
        names, property_id = guest_names(attributes), attributes["property_id"]
        moved = _moved(from_json(existing["taken"]) if existing else [], taken)
        with conn.batch():  # writes whose results nothing reads: one round trip
            if existing:
                update_booking(conn, attributes, revision_id, body_hash, taken, names, now)
            else:
                insert_booking(conn, attributes, revision_id, body_hash, taken, names, now, key)
            insert_revision(conn, revision_id, attributes, card_token, now)
            outbox.booking_changed(conn, attributes)
            for room_type_id, nights in moved.items():
                outbox.availability_changed(conn, property_id, room_type_id, nights)
        if moved:
            nights = [day for changed in moved.values() for day in changed]
            sellable.refresh(self.store, [property_id], min(nights), max(nights),
                             read={property_id: read} if read is not None else None)
        return feed_view(attributes)

    # --- reading -----------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery, *,
             reveal: Reveal | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """`reveal`, on every reading method: the cards in clear, for whom (the vault's audit log names them);
        only the secure listener passes it, for the tokenisation service."""
        rows, meta = booking_page(self.store, query, actor, stay_view(self.store, self.clock))
        shown = self._shown(rows, reveal)
        reports = reports_of(self.store, [booking["id"] for booking in shown])
        return [{**booking, "is_acked": bool(r["is_acked"]), "message_thread_id": r["thread_id"],
                 "reports": reports[booking["id"]]} for r, booking in zip(rows, shown, strict=True)], meta

    def get(self, actor: Actor, booking_id: str, *, reveal: Reveal | None = None) -> dict[str, Any]:
        row = owned_property(self.store, actor, booking_shown(self.store, booking_id), "booking", booking_id)
        return {**self._shown([row], reveal)[0], "is_acked": bool(row["is_acked"]), "message_thread_id": row["thread_id"],
                "reports": reports_of(self.store, [booking_id])[booking_id]}

    def revisions(self, actor: Actor, query: ListQuery, *, feed: bool = False,
                  reveal: Reveal | None = None) -> tuple[builtins.list[dict[str, Any]], dict[str, Any]]:
        """Revisions newest first; the feed is the revisions not yet acknowledged, oldest first."""
        rows, meta = revision_page(self.store, query, actor, feed=feed)
        return [_revision(r, booking) for r, booking in zip(rows, self._shown(rows, reveal), strict=True)], meta

    def revision(self, actor: Actor, revision_id: str, *, reveal: Reveal | None = None) -> dict[str, Any]:
        row = self._revision_row(revision_id)
        owned_property(self.store, actor, row, "booking revision", revision_id, unreached="booking")
        return _revision(row, self._shown([row], reveal)[0])

    def ack(self, actor: Actor, revision_id: str) -> None:
        owned_property(self.store, actor, self._revision_row(revision_id), "booking revision", revision_id,
                       unreached="booking")
        with self.store.transaction() as conn:
            ack_revision(conn, revision_id, utc_now())
        self.events.publish("booking.acked", revision_id)

    def _revision_row(self, revision_id: str) -> Row:
        return cast(Row, revision_row(self.store, revision_id))  # a booking's revisions are kept

    def _attributes(self, revision_id: str) -> dict[str, Any]:
        return self._shown([self._revision_row(revision_id)], None)[0]

    def _shown(self, rows: builtins.list[Row], reveal: Reveal | None) -> builtins.list[dict[str, Any]]:
        """The stored attributes of revision rows; with `reveal`, each card the vault holds put back in
        clear, all in one transaction (the vault writes an audit entry for every reveal)."""
        shown = [feed_view(from_json(r["attributes"])) for r in rows]
        if reveal and any(r["card_token"] for r in rows):
            with self.store.transaction() as conn:
                self.cards.reveal(conn, [(r["card_token"], booking) for r, booking in zip(rows, shown, strict=True)],
                                  reveal)
        return shown


def _revision(row: Row, booking: dict[str, Any]) -> dict[str, Any]:
    return {**booking, "id": row["id"], "booking_id": booking["id"], "acked_at": row["acked_at"]}


def _require_existing(model: BookingInput, existing: Row | None) -> Row:
    if not model.reservation_id:
        action = "modify" if model.status == "modified" else "cancel"
        raise ValidationFailed.one("reservation_id", f"is required to {action} a booking")
    if existing is None:
        raise ValidationFailed.one("reservation_id", "is not a booking of this channel")
    if model.status == "modified" and existing["status"] == "cancelled":
        raise ValidationFailed.one("status", "the booking is cancelled and can't be modified")
    return existing


def _check_stay(model: BookingInput, window: Window, today: date, ota: bool) -> None:
    errors = Errors()
    for name in ("arrival_date", "departure_date", "currency", "customer"):
        if getattr(model, name) is None:
            errors.add(name, "is required")
    if not model.rooms:
        errors.add("rooms", "must hold at least one room")
    if model.guarantee is not None and model.guarantee.expired(today):
        errors.add("guarantee.expiration_date", "the card has expired")
    if model.arrival_date and not ota:
        if date.fromisoformat(model.arrival_date) < window.today:
            errors.add("arrival_date", f"is in the past (today is {window.today.isoformat()} at the property)")
        elif model.departure_date and date.fromisoformat(model.departure_date) > window.end:
            errors.add("departure_date", f"is beyond the property's state_length ({window.end.isoformat()})")
    errors.raise_if_any()


def _check_services(model: BookingInput, errors: Errors) -> None:
    indexes = [r.index for r in model.rooms if r.index is not None]
    if len(set(indexes)) != len(indexes):
        errors.add("rooms", "each room index may appear once")
    for position, service in enumerate(model.services):
        if service.room_index is not None and service.room_index not in indexes:
            errors.add(f"services.{position}.room_index", f"no room has index {service.room_index}")


def _room(index: int, room: RoomIn, guests: Guests, shown: dict[str, Any], room_type_id: str | None,
          rate_plan_id: str | None, prices: Mapping[str, Any],
          taxes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The booked room: its `occupancy` is the party it was priced for (by its ages, when it gives them all)."""
    occupancy = {"adults": guests.adults, "children": guests.children, "infants": guests.infants,
                 "ages": room.occupancy.ages}
    return {"index": room.index if room.index is not None else index, "room_type_id": room_type_id,
            "rate_plan_id": rate_plan_id, "room_type_code": room.room_type_code, "rate_plan_code": room.rate_plan_code,
            "occupancy": occupancy, "days": prices, "guests": shown["guests"],
            "guests_ages": shown["guests_ages"], "taxes": taxes or [],
            "meta": shown["meta"], "is_mapped": rate_plan_id is not None}


def _taxes(plan: Plan, booked: Quote, guests: Guests, tax_set: TaxSet | None) -> list[dict[str, Any]]:
    """The room's taxes by the one rule that prices them (backend/inventory/taxes.py), as shopping offered them."""
    return room_taxes(tax_lines(tax_set, booked.nights, booked.prices, guests.persons), len(booked.nights),
                      guests.persons, plan.currency)


def _rate_of(rows: dict[str, tuple[Any, ...]], day: str, currency: str) -> str | None:
    row = rows.get(day)
    return None if row is None or row[R_RATE] is None else format_minor(row[R_RATE], currency)


def _moved(before: list[Any], after: list[Any]) -> dict[str, list[str]]:
    """By room type, the nights whose units the booking took or gave back (given back and taken again is no change)."""
    moved = Counter(tuple(unit) for unit in after)
    moved.subtract(Counter(tuple(unit) for unit in before))
    nights: dict[str, list[str]] = {}
    for (room_type_id, day), count in moved.items():
        if count:
            nights.setdefault(room_type_id, []).append(day)
    return nights


def _lacks(availability: dict[str, int], arrival: date, departure: date, count: int) -> bool:
    return any(availability.get(d.isoformat(), 0) < count for d in days(arrival, departure))


def _amount(rooms: list[dict[str, Any]], model: BookingInput, currency: str | None) -> str:
    total = sum(parse_money(p, currency) for r in rooms for p in r["days"].values() if p is not None)
    total += sum(parse_money(s.total_price, currency) for s in model.services)
    return format_minor(total, currency)


def _priced(services: list[dict[str, Any]], currency: str) -> list[dict[str, Any]]:
    """Services with their prices read in `currency`, each problem under its own field."""
    errors, priced = Errors(), []
    for index, service in enumerate(services):
        service = dict(service)
        for name in ("total_price", "price_per_unit"):
            try:
                service[name] = canonical(service[name], currency)
            except ValueError as exc:
                errors.add(f"services.{index}.{name}", str(exc))
        priced.append(service)
    errors.raise_if_any()
    return priced


def _scope(channel_id: str, property_id: Any, key: str | None, model: BookingInput) -> tuple[str, ...]:
    """What a push reads and writes: its property's rooms and bookings, its reservation number in the channel (one
    booking however many push it at once, for whichever property), and the vault when a card may come or go."""
    scope = [property_scope(property_id)]
    if key:
        scope.append(reservation_scope(channel_id, key))
    if model.guarantee is not None or model.status != "new":  # a card kept, taken from the form, or carried on
        scope.append(VAULT)
    return tuple(scope)


def _shown_input(model: BookingInput) -> dict[str, Any]:
    """The request as it may be stored: the guarantee masked, and card numbers masked in every free-form
    field (notes, meta, the customer, guests, services, the agent) but identifiers and phone numbers."""
    data = model.model_dump(mode="json")
    guarantee = masked(data.pop("guarantee"))
    return {**mask_cards_in(data), "guarantee": guarantee}


def _hash(shown: dict[str, Any]) -> str:
    """Of the request as stored, its cards masked: a hash of a card number could be reversed by brute force."""
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()

