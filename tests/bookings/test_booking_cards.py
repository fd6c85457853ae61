"""A booking's card lives in the card vault: its CVV expires, it is purged after departure, every reveal is
audited, and cards kept per revision by earlier versions are moved there."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from backend.bookings.cards import Reveal
from backend.core.config import Config
from backend.engine import Engine
from tests.conftest import CONTACT

CARD = {"card_number": "4111111111111111", "cvv": "123", "expiration_date": "12/2031", "cardholder_name": "Jane Doe",
        "card_type": "visa", "meta": {"virtual_card_current_balance": 6755, "note": "VCC 5555555555554444"}}
START = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class Hotel:
    """One property with one room and rate on a shopping channel, driven through the engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.op = engine.identity.operator()
        op = self.op
        self.property_id = engine.properties.create(op, {"title": "Vault Inn", "currency": "EUR", **CONTACT})["id"]
        self.room = engine.inventory.room_types.create(op, {"property_id": self.property_id, "title": "Double",
                                                            "count_of_rooms": 5, "occ_adults": 2})["id"]
        self.plan = engine.inventory.rate_plans.create(op, {"property_id": self.property_id, "room_type_id": self.room,
                                                            "title": "Flex", "options": [{"occupancy": 2, "rate": "90"}]})["id"]
        self.channel = engine.channels.create(op, {"title": "Meta", "channel_code": "OpenShopping",
                                                   "property_ids": [self.property_id], "rate_plan_ids": [self.plan]})["id"]
        first, last = self.day(0), self.day(60)
        engine.inventory.ari.set_availability(op, [{"property_id": self.property_id, "room_type_id": self.room,
                                                    "date_from": first, "date_to": last, "availability": 5}])
        engine.inventory.ari.set_restrictions(op, [{"property_id": self.property_id, "rate_plan_id": self.plan,
                                                    "date_from": first, "date_to": last, "rate": "90.00"}])

    def day(self, offset: int) -> str:
        return (START.date() + timedelta(days=offset)).isoformat()

    def push(self, *, secure: bool, status: str = "new", arrival: int = 3, nights: int = 2, **fields) -> dict:
        body = {"status": status, "reservation_id": "R-1", "arrival_date": self.day(arrival),
                "departure_date": self.day(arrival + nights), "currency": "EUR", "customer": {"surname": "Doe"},
                "rooms": [{"room_type_code": self.room, "rate_plan_code": self.plan, "occupancy": {"adults": 2}}],
                **fields}
        return self.engine.bookings.push(self.channel, self.property_id, body, secure=secure)[0]

    def revealed(self, booking_id: str) -> dict:
        return self.engine.bookings.get(self.op, booking_id, reveal=Reveal("test-capture", meta=True))["guarantee"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def hotel(new_db, clock) -> Hotel:
    return Hotel(new_db("cards").engine(Config(clock=clock)))


def card_token(engine: Engine, booking_id: str) -> str | None:
    return engine.store.scalar("SELECT r.card_token FROM bookings b JOIN booking_revisions r ON r.id = b.revision_id "
                               "WHERE b.id = ?", (booking_id,))


def test_a_secure_booking_keeps_its_card_in_the_vault_and_only_its_token(hotel):
    booking = hotel.push(secure=True, guarantee=CARD)
    token = card_token(hotel.engine, booking["id"])
    vault = hotel.engine.vault.card(token, "test")
    assert vault["card_number"] == "411111******1111" and vault["has_cvv"] and vault["profile"] == "booking"
    assert vault["departure_date"] == hotel.day(5)
    assert booking["guarantee"]["card_number"] == "411111******1111" and booking["guarantee"]["cvv"] == "***"
    assert booking["guarantee"]["meta"] == {"virtual_card_current_balance": 6755, "note": "VCC 555555******4444"}
    # In clear only for the tokenisation service; the card in guarantee.meta only for a profile of one's own.
    assert hotel.revealed(booking["id"]) == {**CARD, "card_number": "4111111111111111", "cvv": "123"}
    built_in = hotel.engine.bookings.get(hotel.op, booking["id"], reveal=Reveal("test-capture"))["guarantee"]
    assert built_in["card_number"] == "4111111111111111" and built_in["meta"] == booking["guarantee"]["meta"]
    actions = [(e["action"], e["actor"]) for e in hotel.engine.vault.audit(token)]
    assert ("reveal", "test-capture") in actions and ("store", "bookings") in actions


def test_a_booking_on_the_main_listener_keeps_no_card(hotel):
    booking = hotel.push(secure=False, guarantee=CARD)
    assert card_token(hotel.engine, booking["id"]) is None
    assert hotel.revealed(booking["id"])["card_number"] == "411111******1111"
    assert hotel.engine.store.scalar("SELECT count(*) FROM vault_cards") == 0


def test_the_cvv_expires_after_72_hours(hotel, clock):
    booking = hotel.push(secure=True, guarantee=CARD)
    clock.now = START + timedelta(hours=71)
    assert hotel.revealed(booking["id"])["cvv"] == "123"
    clock.now = START + timedelta(hours=73)
    revealed = hotel.revealed(booking["id"])
    assert revealed["cvv"] is None and revealed["card_number"] == "4111111111111111"
    assert hotel.engine.vault.purge("test")["cvvs"] == 1


def test_a_wiped_cvv_is_gone_from_the_booking(hotel):
    booking = hotel.push(secure=True, guarantee=CARD)
    hotel.engine.vault.wipe_cvv(card_token(hotel.engine, booking["id"]), "test")
    assert hotel.revealed(booking["id"])["cvv"] is None


def test_the_card_is_purged_days_after_departure_and_follows_a_changed_stay(hotel, clock):
    booking = hotel.push(secure=True, guarantee=CARD, arrival=3, nights=2)
    hotel.push(secure=True, status="modified", arrival=10, nights=2)  # no card: the booking keeps its own
    token = card_token(hotel.engine, booking["id"])
    assert hotel.engine.vault.card(token, "test")["departure_date"] == hotel.day(12)
    clock.now = START + timedelta(days=12 + 30)
    assert hotel.engine.vault.purge("test")["cards"] == 0  # 30 days after the new departure: not yet
    clock.now = START + timedelta(days=12 + 31)
    assert hotel.engine.vault.purge("test")["cards"] == 1
    revealed = hotel.revealed(booking["id"])
    assert revealed["card_number"] == "411111******1111" and revealed["cvv"] == "***"


def test_a_change_with_a_new_card_on_the_main_listener_drops_the_old_one(hotel):
    booking = hotel.push(secure=True, guarantee=CARD)
    hotel.push(secure=False, status="modified", guarantee={**CARD, "card_number": "5555555555554444", "meta": None})
    assert card_token(hotel.engine, booking["id"]) is None
    assert hotel.revealed(booking["id"])["card_number"] == "555555******4444"


def test_cards_kept_per_revision_by_an_earlier_version_move_into_the_vault(new_db, clock):
    old = new_db("old")
    engine = old.engine(Config(clock=clock))
    hotel = Hotel(engine)
    legacy = {k: v for k, v in CARD.items() if k != "meta"}
    other = {**legacy, "card_number": "5555555555554444"}  # a card of its own: the vault keeps a card once
    fresh = hotel.push(secure=False, guarantee=legacy)  # its masked guarantee, as earlier versions stored it
    stale = hotel.push(secure=False, guarantee=other, reservation_id="R-2", arrival=20)
    # What earlier versions kept: the guarantee sealed per revision with the revision id bound to it.
    for booking, card, age in ((fresh, legacy, timedelta(hours=1)), (stale, other, timedelta(hours=100))):
        revision = booking["revision_id"]
        nonce, sealed = engine.keys.seal(json.dumps(card).encode(), revision)
        engine.store.conn.execute("UPDATE booking_revisions SET inserted_at = ? WHERE id = ?",
                                  ((START - age).replace(tzinfo=None).isoformat(), revision))
        engine.store.conn.execute("INSERT INTO booking_cards (revision_id, nonce, ciphertext) VALUES (?, ?, ?)",
                                  (revision, nonce, sealed))
    engine.store.close()

    reopened = old.engine(Config(clock=clock))

    assert reopened.store.scalar("SELECT count(*) FROM booking_cards") == 0
    op = reopened.identity.operator()
    assert reopened.bookings.get(op, fresh["id"], reveal=Reveal("t"))["guarantee"]["cvv"] == "123"
    moved = reopened.bookings.get(op, stale["id"], reveal=Reveal("t"))["guarantee"]
    assert moved["card_number"] == "5555555555554444" and moved["cvv"] is None  # its CVV was past its 72 hours
    assert reopened.vault.card(card_token(reopened, stale["id"]), "t")["departure_date"] == hotel.day(22)


def test_two_bookings_of_one_card_share_it_and_each_shows_its_own_holder(hotel, clock):
    """The vault keeps a card once: a second booking with it takes the same token, and the card leaves the vault after
    the later stay; each booking reveals the holder it was given."""
    first = hotel.push(secure=True, guarantee=CARD, arrival=3, nights=2)
    second = hotel.push(secure=True, guarantee={**CARD, "cardholder_name": "J. Doe"}, reservation_id="R-2",
                        arrival=20, nights=2)
    token = card_token(hotel.engine, first["id"])
    assert card_token(hotel.engine, second["id"]) == token
    assert hotel.engine.vault.card(token, "test")["departure_date"] == hotel.day(22)
    assert hotel.revealed(first["id"])["cardholder_name"] == "Jane Doe"
    assert hotel.revealed(second["id"])["cardholder_name"] == "J. Doe"


def test_a_booking_that_brings_a_meta_for_a_card_the_vault_holds_reveals_it(hotel):
    """A virtual card's meta (its balance, say) is sealed with the card: the latest a booking brings is kept."""
    plain = {k: v for k, v in CARD.items() if k != "meta"}
    hotel.push(secure=True, guarantee=plain)
    later = hotel.push(secure=True, guarantee=CARD, reservation_id="R-2", arrival=20)
    assert hotel.revealed(later["id"])["meta"] == CARD["meta"]
