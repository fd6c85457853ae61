"""The dialog that writes a message rule, or changes one: its title, whom it is for, the saved reply it sends, and
when (a booking event, days from it and a time of day at the property, where the event takes them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.labels import label_for
from console.kit.messages import ActionFailed
from console.kit.scoped import scope_fields
from console.kit.screens import ModalScreen
from console.kit.workers import engine_work
from console.message_rules.keys import RULE_DIALOG

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

TRIGGERS = [("On confirmation", "booking_confirmed"), ("Before arrival", "before_arrival"),
            ("On the day of arrival", "arrival_day"), ("After departure", "after_departure")]
TIMED = {"before_arrival", "arrival_day", "after_departure"}  # sent at a time of day at the property
COUNTED = {"before_arrival", "after_departure"}  # a number of days from the arrival or the departure
TIMING = "Days before arrival or after departure, at the property's time."
FIELD_OF = {"property_id": "scope", "group_id": "scope", "message_template_id": "reply"}  # the engine's → ours


class RuleSaved(Message):
    def __init__(self, rule: dict[str, Any]) -> None:
        super().__init__()
        self.rule = rule


class RuleDialog(ModalScreen[dict[str, Any] | None]):
    """Write a message rule, or change one. Dismissed with the rule, or None."""

    BINDINGS = RULE_DIALOG

    app: ConsoleApp

    def __init__(self, rule: dict[str, Any] | None, options: list[tuple[str, str]], replies: list[dict[str, Any]],
                 scope: str | None) -> None:
        super().__init__(classes="dialog-screen")
        self.rule = rule
        offered = [(f"{t['title']} · {t['for']}", t["id"]) for t in replies]
        reply = rule["message_template_id"] if rule else None
        self.fields = {
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
        }

    def compose(self) -> ComposeResult:
        with Vertical(id="rule-dialog", classes="dialog wide-dialog -fits-short"):
            yield Label(f"Edit “{self.rule['title']}”" if self.rule else "New message rule",
                        classes="dialog-title", markup=False)
            with VerticalScroll(id="rule-fields", can_focus=False):  # the buttons stay in view at 80×24
                yield self.fields["title"]
                yield self.fields["scope"]
                yield self.fields["reply"]
                with Horizontal(id="rule-when"):
                    yield self.fields["trigger"]
                    yield self.fields["days"]
                    yield self.fields["send_at"]
                yield Static(TIMING, classes="dialog-hint", markup=False)
                yield Static("", id="rule-problems", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Save (ctrl+s)", id="save", variant="primary")

    def on_mount(self) -> None:
        self.offer_timing()
        self.fields["title"].control.focus()
        fields = self.query_one("#rule-fields", VerticalScroll)
        self.call_after_refresh(fields.scroll_home, animate=False)  # the title's label in view too, at 80×24

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice is self.fields["trigger"].control:
            self.offer_timing()

    def offer_timing(self) -> None:
        """Days and a time only where the trigger takes them."""
        trigger = self.fields["trigger"].value
        self.fields["days"].control.disabled = trigger not in COUNTED
        self.fields["send_at"].control.disabled = trigger not in TIMED

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        trigger, days = self.fields["trigger"].value, self.fields["days"].value.strip()
        data: dict[str, Any] = {
            "title": self.fields["title"].value, "trigger": trigger, "message_template_id": self.fields["reply"].value,
            # A count as typed, for the engine to refuse when it is none.
            "days": (int(days) if days.isdigit() else days or None) if trigger in COUNTED else 0,
            "send_at": (self.fields["send_at"].value.strip() or None) if trigger in TIMED else None}
        scope = self.fields["scope"].value
        self.save(data | (scope_fields(scope) if scope else {}))

    @engine_work(exclusive=True, group="save")
    def save(self, data: dict[str, Any]) -> None:
        rules, actor = self.app.engine.message_rules, self.app.actor()
        saved = rules.create(actor, data) if self.rule is None else rules.update(actor, self.rule["id"], data)
        self.post_message(RuleSaved(saved))

    def on_rule_saved(self, message: RuleSaved) -> None:
        self.dismiss(message.rule)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()  # shown beside the fields, not as the app's notification
        for field in self.fields.values():
            field.clear_errors()
        unplaced = []
        for path, texts in message.problems().items():
            name = FIELD_OF.get(path, path)
            if name in self.fields:
                self.fields[name].show_errors(texts)
            else:
                unplaced += [f"{label_for(path)} {text}" if path else text for text in texts]
        self.query_one("#rule-problems", Static).update("\n".join(unplaced))


