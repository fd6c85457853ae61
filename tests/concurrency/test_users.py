"""Who reaches a property, changed at once on every store: a property keeps a group when its last two are taken
away together, and a group or a property keeps an owner when two owners withdraw each other together."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from backend.core.errors import FrontdeskError
from backend.core.listing import ListQuery
from tests.conftest import CONTACT


def at_once(works: list) -> list[Any]:
    start = threading.Barrier(len(works))

    def run(work) -> Any:
        start.wait(10)
        try:
            return work()
        except FrontdeskError as refused:  # what each caller was told is the point
            return refused

    with ThreadPoolExecutor(len(works)) as pool:
        return list(pool.map(run, works))


def _outcomes(answers: list[Any]) -> Counter:
    """What each was told; a withdrawn owner's own withdrawal is refused as an owner's thing (403) or, when they
    no longer reach the property at all by then, as someone else's (401): `refused` either way."""
    return Counter("done" if answer is None else "refused" if type(answer).__name__ in ("Forbidden", "Unauthorized")
                   else type(answer).__name__ for answer in answers)


def test_a_property_taken_out_of_its_last_two_groups_at_once_keeps_one(engine):
    identity = engine.identity
    for round_ in range(3):
        first = identity.create_group(identity.operator(), {"title": f"North {round_}"})["id"]
        second = identity.create_group(identity.operator(), {"title": f"South {round_}"})["id"]
        operator = identity.operator()
        property_id = engine.properties.create(operator, {"title": f"Inn {round_}", "currency": "EUR",
                                                          "group_id": first, **CONTACT})["id"]
        engine.properties.join_group(operator, second, property_id)

        answers = at_once([lambda g=g: engine.properties.leave_group(operator, g, property_id)
                           for g in (first, second)])

        assert _outcomes(answers) == {"done": 1, "BadRequest": 1}
        kept = engine.store.query("SELECT group_id FROM group_properties WHERE property_id = ?", (property_id,))
        assert len(kept) == 1
        assert engine.properties.get(operator, property_id)["group_id"] == kept[0][0]


def test_two_owners_of_a_group_withdrawing_each_other_at_once_leave_one(engine):
    identity = engine.identity
    for round_ in range(3):
        one, _ = identity.add_user(f"one{round_}@example.com")
        other, _ = identity.add_user(f"other{round_}@example.com")
        group = one.default_group_id
        engine.group_users.invite(one, {"group_id": group, "user_email": other.email, "role": "owner"})
        one, other = identity.actor_for(one.email), identity.actor_for(other.email)
        members = {m["user_id"]: m["id"] for m in engine.group_users.list(one, _query(group))[0]}

        answers = at_once([lambda: engine.group_users.withdraw(one, members[other.user_id]),
                           lambda: engine.group_users.withdraw(other, members[one.user_id])])

        assert _outcomes(answers) == {"done": 1, "refused": 1}
        assert engine.store.scalar("SELECT count(*) FROM group_members WHERE group_id = ? AND role = 'owner'",
                                   (group,)) == 1


def test_two_owners_of_a_property_withdrawing_each_other_at_once_leave_one(engine):
    """A property in a group without users: its owners are its property users alone."""
    identity = engine.identity
    group = identity.add_group("Unstaffed", [])
    operator = identity.operator()
    for round_ in range(3):
        property_id = engine.properties.create(operator, {"title": f"Lodge {round_}", "currency": "EUR",
                                                          "group_id": group, **CONTACT})["id"]
        made = [engine.property_users.invite(operator, {"property_id": property_id, "role": "owner",
                                                        "user_email": f"{who}{round_}@example.com"})
                for who in ("left", "right")]
        left, right = (identity.actor_for(m["user"]["email"]) for m in made)

        answers = at_once([lambda: engine.property_users.withdraw(left, made[1]["id"]),
                           lambda: engine.property_users.withdraw(right, made[0]["id"])])

        assert _outcomes(answers) == {"done": 1, "refused": 1}
        assert engine.store.scalar("SELECT count(*) FROM property_users WHERE property_id = ? AND role = 'owner'",
                                   (property_id,)) == 1


def _query(group_id: str) -> ListQuery:
    return ListQuery.from_params([("filter[group_id]", group_id)])
