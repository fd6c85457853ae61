"""The engine's range edits, as the console's calendar makes them: availability and restrictions written together with
every problem named at once, reviewed before they are made (and big ones flagged for confirmation), and undone
exactly — nights that had no value of their own get none back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from backend.core.config import Config
from backend.core.errors import Unauthorized, ValidationFailed
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.identity.models import Actor
from tests.conftest import CONTACT


def day(offset: int) -> str:
    return (datetime.now(UTC).date() + timedelta(days=offset)).isoformat()


@dataclass
class Hotel:
    engine: Engine
    actor: Actor
    property_id: str
    room_id: str
    plan_id: str
    child_id: str  # derived from plan_id, following its stop sell

    def restrictions(self, first: int, last: int) -> dict[str, dict[str, dict]]:
        return self.engine.inventory.ari.restrictions(self.actor, self.query(first, last))

    def availability(self, first: int, last: int) -> dict[str, int]:
        return self.engine.inventory.ari.availability(self.actor, self.query(first, last))[self.room_id]

    def query(self, first: int, last: int) -> ListQuery:
        return ListQuery.from_params([("filter[property_id]", self.property_id), ("filter[date][gte]", day(first)),
                                      ("filter[date][lte]", day(last))])

    def rates(self, first: int, last: int, **fields) -> dict:
        return {"property_id": self.property_id, "rate_plan_id": self.plan_id, "date_from": day(first),
                "date_to": day(last), **fields}

    def rooms(self, first: int, last: int, **fields) -> dict:
        return {"property_id": self.property_id, "room_type_id": self.room_id, "date_from": day(first),
                "date_to": day(last), **fields}

    def stored(self) -> list[tuple]:
        """Every row of the hotel's ARI as stored, NULLs and all."""
        store = self.engine.store
        return [tuple(row) for row in store.query(
            "SELECT * FROM restrictions WHERE rate_plan_id IN (?, ?) ORDER BY rate_plan_id, date",
            (self.plan_id, self.child_id))] + [tuple(row) for row in store.query(
            "SELECT * FROM availability WHERE room_type_id = ? ORDER BY date", (self.room_id,))]


@pytest.fixture
def hotel(engine: Engine) -> Hotel:
    return build(engine)


def build(engine: Engine) -> Hotel:
    actor, _ = engine.identity.add_user("revenue@example.com")
    prop = engine.properties.create(actor, {"title": "Range Hotel", "currency": "EUR", **CONTACT})
    room = engine.inventory.room_types.create(actor, {"property_id": prop["id"], "title": "Double",
                                                      "count_of_rooms": 8, "occ_adults": 2})
    plan = engine.inventory.rate_plans.create(actor, {"property_id": prop["id"], "room_type_id": room["id"],
                                                      "title": "Flexible", "options": [{"occupancy": 2, "rate": "100"}],
                                                      "min_stay_arrival": [1, 1, 1, 1, 2, 2, 1]})
    child = engine.inventory.rate_plans.create(actor, {
        "property_id": prop["id"], "room_type_id": room["id"], "title": "Member", "rate_mode": "derived",
        "parent_rate_plan_id": plan["id"], "inherit_stop_sell": True,
        "options": [{"occupancy": 2, "derived_option": {"rate": [["decrease_by_percent", "10"]]}}]})
    made = Hotel(engine, actor, prop["id"], room["id"], plan["id"], child["id"])
    # Nights 0–9 have their own rate and rooms; night 3 its own min stay; nights from 10 on nothing of their own.
    engine.inventory.ari.set_restrictions(actor, [made.rates(0, 9, rate="100.00"), made.rates(3, 3, min_stay_arrival=4)])
    engine.inventory.ari.set_availability(actor, [made.rooms(0, 9, availability=5)])
    return made


# --- one round of problems -------------------------------------------------------------------------

def test_every_problem_of_an_edit_is_named_at_once(hotel: Hotel) -> None:
    """A past date, a reversed range, a rate that is not money, a min stay of 0, an unknown weekday and a negative
    availability: all in one answer, under the list they belong to, and nothing written."""
    before = hotel.stored()
    with pytest.raises(ValidationFailed) as refused:
        hotel.engine.inventory.ari.edit(hotel.actor, [hotel.rooms(-2, -3, availability=-1)],
                                        [hotel.rates(-2, -3, rate="lots", min_stay_arrival=0, days=["fr", "someday"])])
    assert set(refused.value.details) == {
        "availability.0.availability", "availability.0.date_from", "availability.0.date_to",
        "restrictions.0.rate", "restrictions.0.min_stay_arrival", "restrictions.0.days.1",
        "restrictions.0.date_from", "restrictions.0.date_to"}
    assert hotel.stored() == before


def test_an_api_write_names_every_problem_of_a_value_at_once(hotel: Hotel) -> None:
    """The checks after the value's shape (dates, the rate as money, the rate plan) run even when its shape has a
    problem: the first answer names them all."""
    with pytest.raises(ValidationFailed) as refused:
        hotel.engine.inventory.ari.set_restrictions(hotel.actor, [
            {**hotel.rates(-1, 2, rate="1.234"), "stop_sell": "yes"},
            {**hotel.rates(1, 1, rate="5"), "rate_plan_id": "nope"}])
    assert set(refused.value.details) == {"values.0.date_from", "values.0.rate", "values.0.stop_sell",
                                          "values.1.rate_plan_id"}


# --- undo ----------------------------------------------------------------------------------------

def test_undo_restores_exactly_what_the_edit_replaced(hotel: Hotel) -> None:
    """Rates, a min stay of the night's own, a stop sell that the child follows, nights without a row of their own
    (no rate, no rooms, the weekday's min stay): all back as they were stored, NULLs included."""
    ari = hotel.engine.inventory.ari
    before, reads = hotel.stored(), (hotel.restrictions(0, 14), hotel.availability(0, 14))
    edit = ari.edit(hotel.actor, [hotel.rooms(2, 12, availability=0)],
                    [hotel.rates(2, 12, rate="250.00", min_stay_arrival=3, stop_sell=True)])
    assert edit.warnings == []
    changed = hotel.restrictions(0, 14)
    assert changed[hotel.plan_id][day(11)]["rate"] == "250.00" and changed[hotel.child_id][day(11)]["stop_sell"]
    undone = ari.undo(hotel.actor, edit.undo)
    assert undone.warnings == []
    assert hotel.stored() == before
    assert (hotel.restrictions(0, 14), hotel.availability(0, 14)) == reads
    assert reads[0][hotel.plan_id][day(11)]["rate"] is None  # it had none, and has none again


def test_an_undo_can_be_undone(hotel: Hotel) -> None:
    ari = hotel.engine.inventory.ari
    edit = ari.edit(hotel.actor, [], [hotel.rates(1, 4, rate="80.00")])
    edited = hotel.stored()
    undone = ari.undo(hotel.actor, edit.undo)
    ari.undo(hotel.actor, undone.undo)
    assert hotel.stored() == edited


def test_undo_leaves_nights_changed_since_as_they_are(hotel: Hotel) -> None:
    """A room taken by a booking after the edit is not given back by the undo."""
    ari = hotel.engine.inventory.ari
    edit = ari.edit(hotel.actor, [hotel.rooms(1, 4, availability=3)], [])
    ari.set_availability(hotel.actor, [hotel.rooms(2, 2, availability=2)])  # as a booking's autoupdate would
    undone = ari.undo(hotel.actor, edit.undo)
    assert hotel.availability(1, 4) == {day(1): 5, day(2): 2, day(3): 5, day(4): 5}
    assert [w["message"] for w in undone.warnings] == [
        "1 night(s) changed since the edit (a booking, or another change) and were left as they are"]


def test_undo_leaves_nights_now_past(new_db) -> None:
    """An undo two days after the edit: the two nights that have passed meanwhile keep what the edit wrote."""
    now = [datetime.now(UTC)]
    hotel = build(new_db("later").engine(Config(clock=lambda: now[0])))
    ari = hotel.engine.inventory.ari
    edit = ari.edit(hotel.actor, [], [hotel.rates(0, 3, rate="80.00")])
    now[0] += timedelta(days=2)
    undone = ari.undo(hotel.actor, edit.undo)
    assert [w["message"] for w in undone.warnings] == ["2 night(s) now past were left as they are"]
    assert [row[2] for row in hotel.stored()[:4]] == [8000, 8000, 10000, 10000]


def test_undo_needs_access_to_the_property(hotel: Hotel) -> None:
    ari = hotel.engine.inventory.ari
    edit = ari.edit(hotel.actor, [], [hotel.rates(1, 2, rate="90.00")])
    stranger, _ = hotel.engine.identity.add_user("stranger@example.com")
    with pytest.raises(Unauthorized):
        ari.undo(stranger, edit.undo)
    assert hotel.restrictions(1, 1)[hotel.plan_id][day(1)]["rate"] == "90.00"


def test_undo_tells_channels(hotel: Hotel) -> None:
    """What an undo writes reaches the outbox as any write does: one ARI event per plan (and its child) and room."""
    ari, store = hotel.engine.inventory.ari, hotel.engine.store
    edit = ari.edit(hotel.actor, [hotel.rooms(1, 2, availability=1)], [hotel.rates(3, 4, rate="90.00")])
    seen = store.scalar("SELECT COUNT(*) FROM events WHERE event = 'ari'")
    ari.undo(hotel.actor, edit.undo)
    assert store.scalar("SELECT COUNT(*) FROM events WHERE event = 'ari'") == seen + 3


# --- review --------------------------------------------------------------------------------------

def test_review_sums_up_an_edit_without_writing(hotel: Hotel) -> None:
    before = hotel.stored()
    review = hotel.engine.inventory.ari.review(hotel.actor, [hotel.rooms(0, 13, availability=2)],
                                               [hotel.rates(0, 13, rate="120.00", stop_sell=True)])
    assert hotel.stored() == before
    assert (review.nights, review.first.isoformat(), review.last.isoformat()) == (14, day(0), day(13))
    assert (review.rooms, review.plans) == (("Double",), ("Flexible",))
    changes = {change.field: change for change in review.changes}
    assert (changes["availability"].now.low, changes["availability"].now.high, changes["availability"].then.low) == (0, 5, 2)
    rate = changes["rate"]
    assert (rate.now.low, rate.now.high, rate.now.blank, rate.then.low, rate.currency) == (
        "100.00", "100.00", True, "120.00", "EUR")  # nights 10–13 have no rate
    assert (changes["stop_sell"].now.low, changes["stop_sell"].then.low) == (False, True)
    assert not review.asks


@pytest.mark.parametrize(("first", "last", "rate", "asks"), [
    (1, 31, "100.00", False),  # 31 nights
    (1, 32, "100.00", True),  # 32
    (1, 2, "150.00", False),  # half as much again, no more
    (1, 2, "150.01", True),
    (1, 2, "50.00", False),
    (1, 2, "49.99", True),
])
def test_review_asks_for_more_than_31_nights_or_a_rate_moving_by_more_than_half(hotel, first, last, rate, asks):
    review = hotel.engine.inventory.ari.review(hotel.actor, [], [hotel.rates(first, last, rate=rate)])
    assert review.asks is asks


def test_review_names_the_biggest_rate_jump(hotel: Hotel) -> None:
    hotel.engine.inventory.ari.set_restrictions(hotel.actor, [hotel.rates(2, 2, rate="280.00")])
    jump = hotel.engine.inventory.ari.review(hotel.actor, [], [hotel.rates(1, 3, rate="99.00")]).rate_jump
    assert (jump.day, jump.now, jump.then, jump.currency, jump.percent) == (day(2), "280.00", "99.00", "EUR", -65)


def test_nights_counted_are_those_the_weekdays_keep(hotel: Hotel) -> None:
    review = hotel.engine.inventory.ari.review(hotel.actor, [], [hotel.rates(1, 70, days=["sa"], min_stay_arrival=2)])
    assert review.nights == 10 and not review.many_nights
