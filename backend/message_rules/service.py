"""Messages that send themselves: a rule of one property (or of every property of a group) sends a saved reply to a
booking's guest on a booking event — on confirmation, `days` before arrival, on the day of arrival or `days` after
departure, at `send_at` (HH:MM) in the property's time zone — its placeholders filled from the booking when sent.

The sweep (`sweep`, one of the engine's sweeps, run by the deliverer) sends what fell due in the last day and since
the rule's `active_from` (stamped on create and on resume: a new or resumed rule never writes to past bookings).
Each (rule, booking) is done once: message_rule_sends' row is claimed in the message's own transaction, so two
sweeps at once, or a restart, never send twice; a cancelled booking, or one no message can reach, gets a row naming
why, and no message. Access is a saved reply's (backend/chat/templates.py): a rule of someone else's is a 401.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal, cast
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from backend.bookings.access import booking_row
from backend.chat.placeholders import fill, guest_values
from backend.chat.service import Chat
from backend.chat.store import property_group, property_group_id
from backend.core.card_data import mask_text
from backend.core.changes import note
from backend.core.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.core.fields import RequiredText
from backend.core.listing import ListQuery
from backend.core.scopes import property_scope
from backend.core.validation import validate
from backend.identity.access import reaches, reaches_owner
from backend.identity.models import Actor
from backend.identity.service import require_group
from backend.message_rules.store import (
    active_rules,
    booking_for_rules,
    booking_status,
    claim_send,
    delete_rule,
    insert_rule,
    rule_bookings,
    rule_row,
    rules_in_group,
    rules_page,
    sent_count,
    template_scope,
    update_rule,
    was_done,
)
from storage import Connection, Row, Store, new_id

MAX_DAYS = 60
MAX_PER_GROUP = 200  # a group's rules and its properties': the sweep reads each every pass
LOOK_BACK = timedelta(days=1)  # a moment missed longer ago (the server was down) is not sent late
CANCELLED = "the booking is cancelled"
READ_ONLY = {"id", "sent_count", "active_from", "user_id", "inserted_at", "updated_at"}
CHANGED = "message_rule.changed"  # noted with every write, for consoles of other processes
HH_MM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class RuleInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: RequiredText
    trigger: Literal["booking_confirmed", "before_arrival", "arrival_day", "after_departure"]
    days: StrictInt = Field(0, ge=0, le=MAX_DAYS, description="before arrival / after departure")
    send_at: StrictStr | None = Field(None, description="HH:MM in the property's time zone; not for "
                                                        "booking_confirmed (sent when the booking comes)")
    message_template_id: StrictStr = Field(max_length=64, description="the saved reply it sends")
    is_paused: StrictBool = False
    property_id: StrictStr | None = Field(None, description="the one property it is for; else group_id")
    group_id: StrictStr | None = Field(None, description="for every property of this group (default: your default "
                                                          "group), when property_id is not given")

    @field_validator("send_at")
    @classmethod
    def _hh_mm(cls, value: str | None) -> str | None:
        if value is not None and not HH_MM.match(value):
            raise ValueError("must be a time of day as HH:MM")
        return value


class MessageRuleEnvelope(BaseModel):
    message_rule: RuleInput


class PreviewInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    booking_id: StrictStr = Field(min_length=1, max_length=64, description="a booking of the rule's property or "
                                                                          "group")


class MessageRulePreviewEnvelope(BaseModel):
    preview: PreviewInput


class MessageRules:
    def __init__(self, store: Store, chat: Chat, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.chat = chat
        self.clock = clock

    # --- rules ---------------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = rules_page(self.store, query, actor)
        counts = sent_count(self.store, [r["id"] for r in rows])
        return [_rule(r, counts.get(r["id"], 0)) for r in rows], meta

    def get(self, actor: Actor, rule_id: str) -> dict[str, Any]:
        row = self._row(actor, rule_id)
        return _rule(row, sent_count(self.store, [rule_id]).get(rule_id, 0))

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = self._validate(actor, data)
        rule_id, now = new_id(), self._now()
        with self.store.transaction() as conn:
            note(conn, CHANGED)
            if rules_in_group(conn, self._group_of(conn, model)) >= MAX_PER_GROUP:
                raise ValidationFailed.one("message_rule", f"a group keeps at most {MAX_PER_GROUP} message rules")
            insert_rule(conn, {"id": rule_id, **_columns(model), "active_from": now, "user_id": actor.user_id,
                               "inserted_at": now, "updated_at": now})
        return self.get(actor, rule_id)

    def update(self, actor: Actor, rule_id: str, data: Any) -> dict[str, Any]:
        """Only the fields sent change; `is_paused: false` on a paused rule resumes it from now (what fell due while
        it was paused is not sent). Read and written in one transaction."""
        if not isinstance(data, dict):
            raise BadRequest(["the message_rule must be a JSON object"])
        sent = {k: v for k, v in data.items() if k not in READ_ONLY}
        with self.store.transaction() as conn:
            note(conn, CHANGED)
            current = self._row(actor, rule_id)
            scope = {"property_id": current["property_id"], "group_id": current["group_id"]}
            if sent.get("property_id") is not None or sent.get("group_id") is not None:
                scope = {"property_id": None, "group_id": None}
            kept = {k: current[c] for k, c in (("title", "title"), ("trigger", "event"), ("days", "days"),
                                               ("send_at", "send_at"), ("message_template_id", "message_template_id"))}
            model = self._validate(actor, {**kept, "is_paused": bool(current["is_paused"]), **scope, **sent})
            group = self._group_of(conn, model)
            if group != current["owner"] and rules_in_group(conn, group) >= MAX_PER_GROUP:
                raise ValidationFailed.one("message_rule", f"a group keeps at most {MAX_PER_GROUP} message rules")
            now = self._now()
            values = {**_columns(model), "updated_at": now}
            if current["is_paused"] and not model.is_paused:
                values["active_from"] = now
            update_rule(conn, rule_id, values)
        return self.get(actor, rule_id)

    def delete(self, actor: Actor, rule_id: str) -> None:
        self._row(actor, rule_id)
        with self.store.transaction() as conn:
            note(conn, CHANGED)
            delete_rule(conn, rule_id)

    def preview(self, actor: Actor, rule_id: str, data: Any) -> dict[str, Any]:
        """What the rule sends to a booking of its own: the filled message, when (`at`, UTC), and whether it would
        still be sent (`would_send`; `skipped` says why not)."""
        rule = self._row(actor, rule_id)
        booking_id = validate(PreviewInput, data).booking_id
        booking_row(self.store, actor, booking_id)  # 404 unknown, 401 someone else's
        booking = booking_for_rules(self.store, booking_id)
        if booking is None or not _applies(rule, booking):
            raise ValidationFailed.one("booking_id", "is not a booking of the rule's property or group")
        at = moment(rule, booking)
        skipped = self._skip_reason(booking)
        if skipped is None and was_done(self.store, rule_id, booking_id):
            skipped = "already done for this booking"
        if skipped is None and rule["is_paused"]:
            skipped = "the rule is paused"
        if skipped is None and at is not None and at < _parse(max(rule["active_from"], self._since())):
            skipped = "its moment passed before the rule was active"
        message = fill(rule["message"], guest_values(self.store, booking["property_id"], None, booking_id))
        return {"id": rule_id, "booking_id": booking_id, "message": message,
                "would_send": skipped is None, "skipped": skipped, "at": _stamp(at) if at else None}

    # --- the sweep -----------------------------------------------------------------------------

    def sweep(self, store: Store, now: datetime) -> int:
        """Sends what fell due, rule by rule; how many messages it sent. `store` is the engine's (the deliverer's
        sweep signature)."""
        sent = 0
        for rule in active_rules(self.store):
            first = max(_parse(rule["active_from"]), _naive(now) - LOOK_BACK)
            for booking in self._candidates(rule, first, _naive(now)):
                at = moment(rule, booking)
                if at is not None and first <= at <= _naive(now):
                    sent += self._send(rule, booking, _stamp(_naive(now)))
        return sent

    def _candidates(self, rule: Row, first: datetime, last: datetime) -> Sequence[Row]:
        """The bookings whose moment may fall from `first` to `last`: read by date, a day wider each side (a group's
        properties are in different time zones), the exact moment checked by the caller."""
        if rule["event"] == "booking_confirmed":
            return rule_bookings(self.store, rule, "inserted_at", _stamp(first), _stamp(last))
        shift = {"before_arrival": rule["days"], "arrival_day": 0, "after_departure": -rule["days"]}[rule["event"]]
        column = "departure_date" if rule["event"] == "after_departure" else "arrival_date"
        low, high = first.date() + timedelta(days=shift - 1), last.date() + timedelta(days=shift + 1)
        return rule_bookings(self.store, rule, column, low.isoformat(), high.isoformat())

    def _send(self, rule: Row, booking: Row, now: str) -> int:
        """The rule's message to the booking, once: the claim of message_rule_sends' row decides, in the message's
        transaction (its booking re-read there: cancelled since, it is skipped)."""
        skipped = self._skip_reason(booking)
        if skipped is not None:
            with self.store.transaction(property_scope(booking["property_id"])) as conn:
                claim_send(conn, rule["id"], booking["id"], now, None, skipped)
            return 0
        text = fill(rule["message"], guest_values(self.store, booking["property_id"], None, booking["id"]))

        def claim(conn: Connection, message_id: str) -> bool:
            if booking_status(conn, booking["id"]) == "cancelled":
                claim_send(conn, rule["id"], booking["id"], now, None, CANCELLED)
                return False
            return claim_send(conn, rule["id"], booking["id"], now, message_id, None)

        return 0 if self.chat.post(booking, text, message_rule_id=rule["id"], claim=claim) is None else 1

    def _skip_reason(self, booking: Row) -> str | None:
        if booking["status"] == "cancelled":
            return CANCELLED
        return self.chat.unsendable(booking)

    # --- the pieces ----------------------------------------------------------------------------

    def _now(self) -> str:
        return _stamp(_naive(self.clock()))

    def _since(self) -> str:
        return _stamp(_naive(self.clock()) - LOOK_BACK)

    def _validate(self, actor: Actor, data: Any) -> RuleInput:
        """The input with its scope checked as a saved reply's, and its saved reply one that applies to it (the
        rule's property's or group's, or the group's of the rule's property)."""
        model = validate(RuleInput, data)
        errors = Errors()
        if model.trigger in ("before_arrival", "after_departure", "arrival_day") and model.send_at is None:
            errors.add("send_at", "is required for this trigger (HH:MM at the property)")
        if model.trigger == "booking_confirmed" and (model.send_at is not None or model.days):
            errors.add("trigger", "booking_confirmed is sent when the booking comes: no days or send_at")
        if model.trigger == "arrival_day" and model.days:
            errors.add("days", "must be 0 on the day of arrival")
        group = None
        if model.property_id is not None and model.group_id is not None:
            errors.add("property_id", "give property_id (one property) or group_id (every property of a group), "
                                      "not both")
        elif model.property_id is not None:
            row = property_group(self.store, model.property_id)
            if row is None or not reaches(self.store, actor, model.property_id, row["group_id"]):
                errors.add("property_id", "is not a property of yours")
            else:
                group = row["group_id"]
        else:
            model.group_id = model.group_id or actor.default_group_id
            if model.group_id not in actor.group_ids:
                errors.add("group_id", "is not a group of yours")
            else:
                group = model.group_id
        template = template_scope(self.store, model.message_template_id)
        if template is None or group is None or template["owner"] != group or (
                template["property_id"] is not None and template["property_id"] != model.property_id):
            errors.add("message_template_id", "is not a saved reply of the rule's property or group")
        errors.raise_if_any()
        return model

    @staticmethod
    def _group_of(conn: Connection, model: RuleInput) -> str:
        if model.group_id:
            require_group(conn, model.group_id)
            return model.group_id
        group_id = property_group_id(conn, model.property_id) if model.property_id else None
        if group_id is None:
            raise ValidationFailed.one("property_id", "is not a property of yours")
        return group_id

    def _row(self, actor: Actor, rule_id: str) -> Row:
        row = rule_row(self.store, rule_id)
        if row is None:
            raise NotFound(f"message rule {rule_id} does not exist")
        if not reaches_owner(self.store, actor, row["property_id"], row["owner"]):
            raise Unauthorized("you have no access to this message rule")
        return row


def moment(rule: Row | Mapping[str, Any], booking: Row | Mapping[str, Any]) -> datetime | None:
    """When the rule falls due for the booking, in UTC without zone: its confirmation (its booking's coming), or
    `send_at` at the property on the day counted from its arrival or departure."""
    if rule["event"] == "booking_confirmed":
        return _parse(booking["inserted_at"])
    base = booking["departure_date"] if rule["event"] == "after_departure" else booking["arrival_date"]
    if not base:
        return None
    shift = {"before_arrival": -rule["days"], "arrival_day": 0, "after_departure": rule["days"]}[rule["event"]]
    hour, minute = (int(p) for p in rule["send_at"].split(":"))
    zone = ZoneInfo(booking["timezone"]) if booking["timezone"] else UTC
    local = datetime.combine(date.fromisoformat(base) + timedelta(days=shift), time(hour, minute), zone)
    return _naive(local)


def _applies(rule: Row, booking: Row) -> bool:
    if rule["property_id"]:
        return cast(bool, booking["property_id"] == rule["property_id"])
    return cast(bool, booking["group_id"] == rule["group_id"])


def _columns(model: RuleInput) -> dict[str, Any]:
    return {"group_id": model.group_id, "property_id": model.property_id, "title": mask_text(model.title),
            "event": model.trigger, "days": model.days, "send_at": model.send_at,
            "message_template_id": model.message_template_id, "is_paused": int(model.is_paused)}


def _naive(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)


def _stamp(at: datetime) -> str:
    return at.isoformat(timespec="microseconds")


def _rule(row: Row, sent: int) -> dict[str, Any]:
    return {"id": row["id"], "title": row["title"], "trigger": row["event"], "days": row["days"],
            "send_at": row["send_at"], "message_template_id": row["message_template_id"],
            "is_paused": bool(row["is_paused"]), "active_from": row["active_from"], "property_id": row["property_id"],
            "group_id": row["group_id"], "sent_count": sent, "user_id": row["user_id"],
            "inserted_at": row["inserted_at"], "updated_at": row["updated_at"]}
