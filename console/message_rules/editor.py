"""The dialog that writes a message rule, or changes one: its title, whom it is for, the saved reply it sends, and
when (a booking event, days from it and a time of day at the property, where the event takes them)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static

from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.scoped import ScopedDialog
from console.message_rules.keys import RULE_DIALOG

TRIGGERS = [("On confirmation", "booking_confirmed"), ("Before arrival", "before_arrival"),
            ("On the day of arrival", "arrival_day"), ("After departure", "after_departure")]
TIMED = {"before_arrival", "arrival_day", "after_departure"}  # sent at a time of day at the property
COUNTED = {"before_arrival", "after_departure"}  # a number of days from the arrival or the departure
TIMING = "Days before arrival or after departure, at the property's time."


class RuleDialog(ScopedDialog):
    """Write a message rule, or change one."""

    NOUN = "message rule"
    PREFIX = "rule"
    BOX = "dialog wide-dialog -fits-short"
    FIELD_OF = {**ScopedDialog.FIELD_OF, "message_template_id": "reply"}
    BINDINGS = RULE_DIALOG

    def __init__(self, rule: dict[str, Any] | None, options: list[tuple[str, str]], replies: list[dict[str, Any]],
                 scope: str | None) -> None:
        offered = [(f"{t['title']} · {t['for']}", t["id"]) for t in replies]
        reply = rule["message_template_id"] if rule else None
        super().__init__(rule, {
            "title": Field("Title", Input(rule["title"] if rule else "", placeholder="e.g. Directions",
                                          id="rule-title", compact=True), path="title", required=True),
            "scope": Field("For", Choice(options, scope if scope in {value for _, value in options} else None,
                                         id="rule-scope"), path="scope"),
            "reply": Field("Sends the saved reply", Choice(offered, reply if reply in {v for _, v in offered} else None,
                                                           id="rule-reply"), path="reply"),
            "trigger": Field("When", Choice(TRIGGERS, rule["trigger"] if rule else "before_arrival",
                                            id="rule-trigger"), path="trigger", classes="-trigger"),
            "days": Field("Days", Input(str(rule["days"]) if rule else "1", id="rule-days", compact=True),
                          path="days"),
            "send_at": Field("At", Input((rule["send_at"] or "") if rule else "", placeholder="HH:MM",
                                         id="rule-send-at", compact=True), path="send_at"),
        })

    def compose_fields(self) -> ComposeResult:
        yield self.fields["title"]
        yield self.fields["scope"]
        yield self.fields["reply"]
        with Horizontal(id="rule-when"):
            yield self.fields["trigger"]
            yield self.fields["days"]
            yield self.fields["send_at"]
        yield Static(TIMING, classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.offer_timing()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice is self.fields["trigger"].control:
            self.offer_timing()

    def offer_timing(self) -> None:
        """Days and a time only where the trigger takes them."""
        trigger = self.fields["trigger"].value
        self.fields["days"].control.disabled = trigger not in COUNTED
        self.fields["send_at"].control.disabled = trigger not in TIMED

    def data(self) -> dict[str, Any]:
        trigger, days = self.fields["trigger"].value, self.fields["days"].value.strip()
        return {
            "title": self.fields["title"].value, "trigger": trigger, "message_template_id": self.fields["reply"].value,
            # A count as typed, for the engine to refuse when it is none.
            "days": (int(days) if days.isdigit() else days or None) if trigger in COUNTED else 0,
            "send_at": (self.fields["send_at"].value.strip() or None) if trigger in TIMED else None}

    def write(self, data: dict[str, Any]) -> dict[str, Any]:
        rules, actor = self.app.engine.message_rules, self.app.actor()
        return rules.create(actor, data) if self.item is None else rules.update(actor, self.item["id"], data)
