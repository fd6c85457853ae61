"""Messages that send themselves: rules that send a saved reply on a booking event, each once (by booking and
rule), at its moment, with its placeholders filled, never to a cancelled booking — through the API, the sweep
with a clock the test sets, and processes sweeping one database at once."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from backend.chat.authors import reply_author, reply_short
from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.message_rules.service import moment
from tests.at_once import at_once
from tests.chat.test_chat_api import Desk
from tests.conftest import serve_site
from tests.shopping.shop import booking, check, day
from tests.stores import Database


class Clock:
    """Now, unless the test says when."""

    def __init__(self) -> None:
        self.at: datetime | None = None

    def __call__(self) -> datetime:
        return self.at or datetime.now(UTC)


def at(offset: int, hh_mm: str) -> datetime:
    """A moment counted from today, UTC (the test's properties have no time zone)."""
    hour, minute = (int(p) for p in hh_mm.split(":"))
    start = datetime.combine(date.fromisoformat(day(offset)), datetime.min.time(), UTC)
    return start + timedelta(hours=hour, minutes=minute)


class Rules:
    """A site of its own (the sweep reads every rule of its database), a Desk on it, a saved reply."""

    def __init__(self, site, clock: Clock, database: Database) -> None:
        self.site, self.clock, self.database = site, clock, database
        self.desk = Desk(site.user(), (site.engine, site.main))
        self.client = self.desk.client
        self.template_id = check(self.client.post("/api/v1/message_templates", json={"message_template": {
            "title": "Welcome", "message": "Hello {guest_first_name}, see you on {arrival_date}.",
            "property_id": self.desk.shop.property_id}}), 201)["data"]["id"]

    def rule(self, status: int = 201, **fields) -> dict:
        body = {"title": "Before", "trigger": "before_arrival", "days": 2, "send_at": "09:00",
                "message_template_id": self.template_id, "property_id": self.desk.shop.property_id, **fields}
        return check(self.client.post("/api/v1/message_rules", json={"message_rule": body}), status)

    def sweep(self, when: datetime | None = None, engine: Engine | None = None) -> int:
        self.clock.at = when
        return (engine or self.site.engine).message_rules.sweep(self.site.engine.store, self.clock())

    def sent(self) -> list[str]:
        return [m["attributes"]["message"] for m in check(self.client.get(
            f"/api/v1/bookings/{self.desk.booking_id}/messages"))["data"]]

    def book(self, reservation: str, arrival: int, departure: int, status: str = "new") -> str:
        body = booking(self.desk.shop, day(arrival), day(departure), property_id=self.desk.shop.property_id,
                       reservation_id=reservation, status=status)
        return check(self.desk.adapter.post(f"{self.desk.inbound}/bookings", json=body),
                     200 if status == "cancelled" else 201)["data"]["id"]


@pytest.fixture
def rules(new_db):
    clock, database = Clock(), new_db()
    with serve_site(database, clock=clock) as site:
        made = Rules(site, clock, database)
        yield made
        made.desk.adapter.close()


def filled() -> str:
    """The template filled for the desk's booking, which arrives on day 3 of the day the test runs (not of the day
    its module was collected)."""
    return f"Hello Jane, see you on {date.fromisoformat(day(3)).strftime('%-d %b %Y')}."


def test_a_rule_is_written_read_listed_changed_and_deleted(rules):
    made = rules.rule()["data"]
    assert made["type"] == "message_rule"
    assert {k: made["attributes"][k] for k in ("title", "trigger", "days", "send_at", "is_paused", "sent_count")} == {
        "title": "Before", "trigger": "before_arrival", "days": 2, "send_at": "09:00", "is_paused": False,
        "sent_count": 0}
    assert made["relationships"]["message_template"]["data"]["id"] == rules.template_id
    assert made["relationships"]["property"]["data"]["id"] == rules.desk.shop.property_id
    path = f"/api/v1/message_rules/{made['id']}"
    assert check(rules.client.get(path))["data"]["attributes"]["title"] == "Before"
    listed = check(rules.client.get("/api/v1/message_rules", params={
        "filter[property_id]": rules.desk.shop.property_id}))
    assert [r["id"] for r in listed["data"]] == [made["id"]] and listed["meta"]["total"] == 1
    changed = check(rules.client.put(path, json={"message_rule": {"days": 5, "is_paused": True}}))["data"]
    assert (changed["attributes"]["days"], changed["attributes"]["is_paused"]) == (5, True)
    assert changed["attributes"]["send_at"] == "09:00"  # kept
    check(rules.client.delete(path))
    check(rules.client.get(path), 404)


@pytest.mark.parametrize("fields, field", [
    ({"trigger": "at_noon"}, "trigger"), ({"days": 61}, "days"), ({"days": -1}, "days"),
    ({"send_at": "25:00"}, "send_at"), ({"send_at": None}, "send_at"), ({"send_at": "9:00"}, "send_at"),
    ({"trigger": "booking_confirmed"}, "trigger"), ({"trigger": "arrival_day", "days": 3}, "days"),
    ({"message_template_id": "nope"}, "message_template_id"), ({"title": ""}, "title"),
    ({"title": "x" * 10_000}, "title"), ({"colour": "red"}, "colour"),
])
def test_bad_rules_are_422_naming_the_field(rules, fields, field):
    body = rules.rule(422, **fields)
    assert field in body["errors"]["details"], body
    assert check(rules.client.get("/api/v1/message_rules"))["data"] == []


def test_someone_elses_rule_is_401_and_their_saved_reply_is_not_ours(rules):
    rule_id = rules.rule()["data"]["id"]
    other = rules.site.user()
    for response in (other.client.get(f"/api/v1/message_rules/{rule_id}"),
                     other.client.put(f"/api/v1/message_rules/{rule_id}", json={"message_rule": {"days": 1}}),
                     other.client.delete(f"/api/v1/message_rules/{rule_id}"),
                     other.client.post(f"/api/v1/message_rules/{rule_id}/preview",
                                       json={"preview": {"booking_id": rules.desk.booking_id}})):
        check(response, 401)
    assert check(other.client.get("/api/v1/message_rules"))["data"] == []
    body = {"title": "Mine", "trigger": "arrival_day", "send_at": "10:00", "message_template_id": rules.template_id}
    assert "message_template_id" in check(other.client.post("/api/v1/message_rules", json={
        "message_rule": body}), 422)["errors"]["details"]
    check(rules.client.get("/api/v1/message_rules/unknown"), 404)


@pytest.mark.parametrize("fields, day_and_time", [
    ({"trigger": "before_arrival", "days": 2, "send_at": "09:00"}, (1, "09:00")),
    ({"trigger": "arrival_day", "days": 0, "send_at": "07:30"}, (3, "07:30")),
    ({"trigger": "after_departure", "days": 1, "send_at": "10:00"}, (6, "10:00")),
])
def test_each_trigger_sends_once_at_its_moment_filled(rules, fields, day_and_time):
    due = at(*day_and_time)  # counted from the day the test runs, as the desk's booking is
    rule_id = rules.rule(**fields)["data"]["id"]
    assert rules.sweep() == 0
    assert rules.sweep(due - timedelta(minutes=1)) == 0
    assert rules.sweep(due) == 1
    assert rules.sent() == [filled()]
    assert rules.sweep(due + timedelta(hours=1)) == 0
    again = rules.database.engine(Config(clock=rules.clock))  # a restart: what was sent is remembered
    assert rules.sweep(due + timedelta(hours=2), engine=again) == 0
    assert rules.sent() == [filled()]
    listed = check(rules.client.get(f"/api/v1/bookings/{rules.desk.booking_id}/messages"))["data"][0]
    assert listed["relationships"]["message_rule"]["data"] == {"id": rule_id, "type": "message_rule"}
    assert listed["relationships"]["user"]["data"] is None
    assert listed["attributes"]["delivery"] == "pending"
    outbox = check(rules.desk.adapter.get(f"{rules.desk.inbound}/outbox"))["data"]
    assert [m["attributes"]["message"] for m in outbox] == [filled()]  # to the channel, as a staff reply goes
    assert check(rules.client.get(f"/api/v1/message_rules/{rule_id}"))["data"]["attributes"]["sent_count"] == 1


def test_a_rule_of_the_group_sends_to_each_of_its_properties_bookings(rules):
    group_reply = check(rules.client.post("/api/v1/message_templates", json={"message_template": {
        "title": "Group", "message": "Welcome to {property}."}}), 201)["data"]["id"]
    assert "message_template_id" in rules.rule(422, property_id=None)["errors"]["details"]  # a property's reply
    made = rules.rule(property_id=None, message_template_id=group_reply)["data"]
    assert "group" in made["relationships"] and "property" not in made["relationships"]
    assert rules.sweep(at(1, "09:00")) == 1
    title = check(rules.client.get(f"/api/v1/properties/{rules.desk.shop.property_id}"))["data"]["attributes"]["title"]
    assert rules.sent() == [f"Welcome to {title}."]


def test_a_moment_missed_by_more_than_a_day_is_not_sent_late(rules):
    rules.rule()
    assert rules.sweep(at(2, "09:01")) == 0
    assert rules.sent() == []


def test_on_confirmation_sends_to_bookings_that_come_after_the_rule(rules):
    rules.rule(trigger="booking_confirmed", days=0, send_at=None)
    assert rules.sweep() == 0  # the desk's booking came before the rule
    later = rules.book("R-LATER", 3, 5)
    assert rules.sweep() == 1 and rules.sweep() == 0
    messages = check(rules.client.get(f"/api/v1/bookings/{later}/messages"))["data"]
    assert [m["attributes"]["message"] for m in messages] == [filled()]


def test_a_cancelled_booking_is_skipped_and_recorded(rules):
    rule_id = rules.rule()["data"]["id"]
    cancelled = rules.book("R-GONE", 3, 5)
    rules.book("R-GONE", 3, 5, status="cancelled")
    assert rules.sweep(at(1, "09:00")) == 1  # the desk's booking only
    row = rules.site.engine.store.one("SELECT message_id, skipped_reason FROM message_rule_sends WHERE rule_id = ? "
                                      "AND booking_id = ?", (rule_id, cancelled))
    assert (row["message_id"], row["skipped_reason"]) == (None, "the booking is cancelled")
    assert check(rules.client.get(f"/api/v1/bookings/{cancelled}/messages"))["data"] == []


def test_a_paused_rule_sends_nothing_and_resumed_does_not_send_what_passed(rules):
    rule_id = rules.rule(is_paused=True)["data"]["id"]
    assert rules.sweep(at(1, "09:00")) == 0
    rules.clock.at = at(1, "10:00")
    resumed = check(rules.client.put(f"/api/v1/message_rules/{rule_id}", json={"message_rule": {
        "is_paused": False}}))["data"]["attributes"]
    assert resumed["active_from"] == at(1, "10:00").replace(tzinfo=None).isoformat(timespec="microseconds")
    assert rules.sweep(at(1, "11:00")) == 0
    assert rules.sent() == []
    # ...but what falls due after it resumed is sent.
    check(rules.client.put(f"/api/v1/message_rules/{rule_id}", json={"message_rule": {"days": 1}}))
    assert rules.sweep(at(2, "09:00")) == 1


def test_the_preview_fills_the_message_for_a_booking(rules):
    rule_id = rules.rule()["data"]["id"]
    path = f"/api/v1/message_rules/{rule_id}/preview"
    shown = check(rules.client.post(path, json={"preview": {"booking_id": rules.desk.booking_id}}))["data"]
    assert shown["attributes"] == {"id": rule_id, "booking_id": rules.desk.booking_id, "message": filled(),
                                   "would_send": True, "skipped": None,
                                   "at": at(1, "09:00").replace(tzinfo=None).isoformat(timespec="microseconds")}
    rules.sweep(at(1, "09:00"))
    rules.clock.at = None
    shown = check(rules.client.post(path, json={"preview": {"booking_id": rules.desk.booking_id}}))["data"]
    assert (shown["attributes"]["would_send"], shown["attributes"]["skipped"]) == (False,
                                                                                   "already done for this booking")
    check(rules.client.post(path, json={"preview": {"booking_id": "unknown"}}), 404)
    assert "booking_id" in check(rules.client.post(path, json={"preview": {"booking_id": 5}}), 422)["errors"][
        "details"]
    check(rules.client.post(path, json={"booking_id": rules.desk.booking_id}), 400)


def test_the_conversation_names_the_rule(rules):
    rules.rule(title="Directions")
    rules.sweep(at(1, "09:00"))
    operator = rules.site.engine.identity.operator()
    message = rules.site.engine.chat.thread_messages(operator, rules.desk.thread_id(), ListQuery())[0][0]
    assert reply_author(message, operator.user_id) == "Rule · Directions"
    assert reply_short(message, operator.user_id) == "Rule"


def sweep_at_once(database: Database, barrier, when: datetime) -> None:
    engine = database.engine(Config(clock=lambda: when))
    barrier.wait()
    engine.message_rules.sweep(engine.store, when)


def test_four_processes_sweeping_at_once_send_one_message(rules):
    rules.rule()
    assert at_once(sweep_at_once, rules.database, at(1, "09:00")) == [0, 0, 0, 0]
    assert rules.sent() == [filled()]


def test_the_moment_is_the_propertys_local_time() -> None:
    rule = {"event": "before_arrival", "days": 1, "send_at": "09:00"}
    booking_row = {"arrival_date": "2026-07-10", "departure_date": "2026-07-12", "timezone": "Europe/Berlin",
                   "inserted_at": "2026-07-01T00:00:00.000000"}
    assert moment(rule, booking_row) == datetime(2026, 7, 9, 7, 0)  # 09:00 in Berlin's summer is 07:00 UTC
    assert moment({**rule, "event": "booking_confirmed"}, booking_row) == datetime(2026, 7, 1)
