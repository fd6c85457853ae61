"""The one rule for a channel's availability under its availability rules: a close out closes, else the lowest of the
room type's availability, of it less each offset and of each ceiling, never below 0; only the nights, weekdays,
channels and room types a rule names."""

from __future__ import annotations

import json

import pytest

from backend.inventory.channel_rules import ChannelRules, Rule, channel_availability


def rule(kind: str, value: int | None = None, *, days: list[str] | None = None, start: str = "2027-01-01",
         end: str | None = "2027-01-31", rooms: tuple[str, ...] = ("R",), channel: str = "C") -> dict:
    return {"id": kind, "type": kind, "value": value, "days": json.dumps(days or []), "start_date": start,
            "end_date": end, "affected_room_types": json.dumps(list(rooms)), "channel_id": channel}


@pytest.mark.parametrize(("rules", "available", "seen"), [
    ([], 5, 5),
    ([rule("close_out")], 5, 0),
    ([rule("availability_offset", 2)], 5, 3),
    ([rule("availability_offset", 7)], 5, 0),
    ([rule("max_availability", 3)], 5, 3),
    ([rule("max_availability", 8)], 5, 5),
    ([rule("availability_offset", 1), rule("max_availability", 3)], 5, 3),
    ([rule("availability_offset", 4), rule("max_availability", 3)], 5, 1),
    ([rule("availability_offset", 1), rule("availability_offset", 2)], 5, 3),  # the largest, not the sum
    ([rule("max_availability", 4), rule("close_out"), rule("availability_offset", 1)], 5, 0),
])
def test_several_rules_combine_the_strictest_wins(rules, available, seen):
    assert channel_availability(available, [Rule.of(r) for r in rules]) == seen


def test_a_rule_covers_only_its_nights_weekdays_channels_and_room_types():
    rules = ChannelRules([rule("close_out", days=["sa", "su"], end=None), rule("max_availability", 1, rooms=("S",)),
                          rule("close_out", channel="D", start="2027-02-01", end=None)])
    nights = {"2027-01-01": 4, "2027-01-02": 4, "2027-03-06": 4, "2026-12-26": 4}  # a Friday, Saturdays
    seen = rules.apply(["C"], {"R": dict(nights), "S": {"2027-01-01": 4}, "T": {"2027-01-01": 4}})
    assert seen == {"R": {"2027-01-01": 4, "2027-01-02": 0, "2027-03-06": 0, "2026-12-26": 4},
                    "S": {"2027-01-01": 1}, "T": {"2027-01-01": 4}}
    assert rules.apply(["D"], {"R": dict(nights)}) == {"R": {**nights, "2027-03-06": 0}}
    assert rules.apply(["C", "D"], {"R": {"2027-03-06": 4, "2027-01-02": 4}}) == {  # the most open of the two
        "R": {"2027-03-06": 0, "2027-01-02": 4}}
    assert rules.apply(["C", "E"], {"R": dict(nights)}) == {"R": nights}  # E has no rule: it sells what there is
