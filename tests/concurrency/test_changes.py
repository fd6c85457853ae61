"""Changes that read what is there and write it back, run at once on every store: none is lost, and no rule checked
on what was read is broken by what another wrote meanwhile."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from backend.core.errors import ValidationFailed
from tests.conftest import CONTACT


def at_once(count: int, work) -> list[Any]:
    start = threading.Barrier(count)

    def run(n: int) -> Any:
        start.wait(10)
        try:
            return work(n)
        except ValidationFailed as refused:
            return refused

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


@pytest.fixture
def hotel(engine):
    actor = engine.identity.operator()
    made = [engine.properties.create(actor, {"title": f"Hotel {n}", "currency": "EUR", **CONTACT}) for n in range(8)]
    channel = engine.channels.create(actor, {"title": "Metasearch", "channel": "OpenShopping"})
    return actor, [p["id"] for p in made], channel["id"]


def test_properties_connected_at_once_to_one_channel_are_all_connected(engine, hotel):
    actor, properties, channel_id = hotel
    at_once(len(properties), lambda n: engine.channels.connect(actor, channel_id, properties[n]))
    assert sorted(engine.channels.get(actor, channel_id)["properties"]) == sorted(properties)


def test_fields_of_one_property_changed_at_once_are_each_kept(engine, hotel):
    actor, properties, _ = hotel
    changes = [{"city": "Zermatt"}, {"state": "Valais"}, {"zip_code": "3920"}, {"website": "https://hotel.example"},
               {"timezone": "Europe/Zurich"}, {"address": "Bahnhofstrasse 1"}]
    at_once(len(changes), lambda n: engine.properties.update(actor, properties[0], changes[n]))
    kept = engine.properties.get(actor, properties[0])
    assert {name: kept[name] for change in changes for name in change} == {
        name: value for change in changes for name, value in change.items()}


def test_two_hotel_policies_made_at_once_for_one_property_are_one(engine, hotel):
    actor, properties, _ = hotel
    answers = at_once(6, lambda n: engine.inventory.hotel_policies.create(actor, {
        "property_id": properties[0], "checkin_from_time": f"1{n}:00"}))
    assert Counter(type(answer).__name__ for answer in answers) == {"dict": 1, "ValidationFailed": 5}
    assert engine.store.scalar("SELECT count(*) FROM hotel_policies WHERE property_id = ?", (properties[0],)) == 1


def test_a_group_deleted_while_properties_and_channels_are_made_in_it_is_kept_with_them_or_gone_without(engine):
    actor = engine.identity.operator()
    group = engine.identity.create_group(actor, {"title": "New openings"})["id"]
    actor = engine.identity.operator()  # a member of the new group too

    def work(n: int) -> Any:
        try:
            if n == 0:
                return engine.identity.delete_group(actor, group)
            if n % 2:
                return engine.properties.create(actor, {"title": f"Chalet {n}", "currency": "EUR", "group_id": group,
                                                        **CONTACT})
            return engine.channels.create(actor, {"title": f"Meta {n}", "channel": "OpenShopping", "group_id": group})
        except Exception as refused:  # what each caller was told is the point
            return refused

    answers = at_once(7, work)
    made = sum(engine.store.scalar(f"SELECT count(*) FROM {table} WHERE group_id = ?", (group,))
               for table in ("properties", "channels"))
    kept = engine.store.scalar("SELECT count(*) FROM groups WHERE id = ?", (group,))
    # A group holding properties is refused with 400 (reference §11.1), one holding channels with a 422.
    assert {type(answer).__name__ for answer in answers} <= {"NoneType", "dict", "ValidationFailed", "BadRequest"}
    assert (kept, made) in {(1, sum(isinstance(a, dict) for a in answers)), (0, 0)}


def test_a_property_deleted_while_saved_replies_are_made_for_it_leaves_none_behind(engine, hotel):
    actor, properties, _ = hotel

    def work(n: int) -> Any:
        try:
            if n == 0:
                return engine.properties.delete(actor, properties[0])
            return engine.message_templates.create(actor, {"title": f"Welcome {n}", "message": "Welcome!",
                                                           "property_id": properties[0]})
        except Exception as refused:  # what each caller was told is the point
            return refused

    answers = at_once(6, work)
    assert {type(answer).__name__ for answer in answers} <= {"NoneType", "dict", "ValidationFailed"}
    assert engine.store.scalar("SELECT count(*) FROM message_templates WHERE property_id = ?", (properties[0],)) == 0


def test_one_free_hotel_policy_named_by_properties_at_once_is_one_propertys(engine, hotel):
    actor, properties, _ = hotel
    policy = engine.inventory.hotel_policies.create(actor, {"title": "Shared", "currency": "EUR"})
    answers = at_once(len(properties), lambda n: engine.properties.update(actor, properties[n], {
        "hotel_policy_id": policy["id"]}))
    assert Counter(type(answer).__name__ for answer in answers) == {"dict": 1, "ValidationFailed": len(properties) - 1}
    [winner] = [answer["id"] for answer in answers if isinstance(answer, dict)]
    assert engine.inventory.hotel_policies.by_id(actor, policy["id"])["property_id"] == winner
    assert [engine.properties.get(actor, p)["hotel_policy_id"] for p in properties].count(policy["id"]) == 1
