"""Message rules, managed from the Inbox (shift+r) or the palette: messages that send themselves. A rule sends a
saved reply to a booking's guest on a booking event (backend/message_rules/); the list says in plain words when
each sends, which saved reply, for whom, how many it sent and whether it is paused. A dialog writes one, p pauses
or resumes it, and v shows what it would send to a booking of its property, filled in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, Static

from backend.core.dates import local_now
from backend.core.listing import MAX_LIMIT, Filter, ListQuery
from console.inbox.keys import MESSAGE_RULES, RULE_DIALOG, RULE_PREVIEW
from console.inbox.saved_replies import PROPERTY, scope_fields, scope_of, scopes
from console.kit.area import PAGE_SIZE, AreaScreen
from console.kit.choice import Choice
from console.kit.field import Field
from console.kit.labels import label_for
from console.kit.messages import ActionDone, ActionFailed
from console.kit.screens import ModalScreen
from console.kit.words import counted, day, stamp
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

TRIGGERS = [("On confirmation", "booking_confirmed"), ("Before arrival", "before_arrival"),
            ("On the day of arrival", "arrival_day"), ("After departure", "after_departure")]
TIMED = {"before_arrival", "arrival_day", "after_departure"}  # sent at a time of day at the property
COUNTED = {"before_arrival", "after_departure"}  # a number of days from the arrival or the departure
TIMING = "Days before arrival or after departure, at the property's time."
PREVIEWED = 100  # the bookings the preview offers, latest arrival first
FIELD_OF = {"property_id": "scope", "group_id": "scope", "message_template_id": "reply"}  # the engine's → ours


def sends_when(rule: dict[str, Any]) -> str:
    """"On confirmation", "3 days before arrival at 18:00", "Morning of arrival at 08:00"."""
    trigger, days, at = rule["trigger"], rule["days"], rule["send_at"]
    if trigger == "booking_confirmed":
        return "On confirmation"
    if trigger == "arrival_day":
        return f"{'Morning' if at < '12:00' else 'Day'} of arrival at {at}"
    event, side = ("arrival", "before") if trigger == "before_arrival" else ("departure", "after")
    return f"{counted(days, 'day')} {side} {event} at {at}" if days else f"Day of {event} at {at}"


def saved_replies(app: ConsoleApp) -> list[dict[str, Any]]:
    """Every saved reply the user reaches (a group keeps a few hundred at most): what a rule may send."""
    templates, actor = app.engine.message_templates, app.actor()
    found: list[dict[str, Any]] = []
    while True:
        rows, meta = templates.list(actor, ListQuery(page=len(found) // MAX_LIMIT + 1, limit=MAX_LIMIT))
        found += rows
        if not rows or len(found) >= meta["total"]:
            return found


class MessageRulesScreen(AreaScreen):
    """Every message rule the user reaches; n, e, d, p and v to write, change, delete, pause and preview them."""
    # message.sent: a rule's message counts in its row.
    WATCHES = ("message_rule.", "message.sent", "saved_reply.", "property.", "user.")

    AREA = "inbox"
    CRUMB = "Message rules"
    NOUNS = ("message rule", "message rules")
    COLUMNS = (("Title", 12), ("When", 31), ("Sends", 14), ("For", 20), ("Sent", 4), ("State", 6))
    FLEX = ("Title", "Sends", "For")
    DROP = ("For",)

    BINDINGS = MESSAGE_RULES

    def __init__(self, property_id: str | None = None) -> None:
        """`property_id`: the property of the thread on show, which a new rule is for at first."""
        super().__init__()
        self.property_id = property_id
        # As last read: the scope select's choices, the saved replies a rule may send, each group's properties.
        self.options: list[tuple[str, str]] = []
        self.replies: list[dict[str, Any]] = []
        self.properties: dict[str, list[str]] = {}

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        groups = engine.identity.groups(actor)
        self.options = scopes(groups)
        self.properties = {g["id"]: [p["id"] for p in g["properties"]] for g in groups}
        names = {value: name for name, value in self.options}
        self.replies = [{**t, "for": names.get(scope_of(t), "?")} for t in saved_replies(self.app)]
        titles = {t["id"]: t["title"] for t in self.replies}
        rows, meta = engine.message_rules.list(actor, ListQuery(page=number, limit=PAGE_SIZE))
        return [{**row, "for": names.get(scope_of(row), "?"), "sends": titles.get(row["message_template_id"], "?")}
                for row in rows], meta

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        state = Text("Paused", style="bold yellow") if row["is_paused"] else Text("On", style="green")
        return (Text(row["title"], no_wrap=True, overflow="ellipsis"),
                Text(sends_when(row), no_wrap=True, overflow="ellipsis"),
                Text(row["sends"], no_wrap=True, overflow="ellipsis"),
                Text(row["for"], style="dim", no_wrap=True, overflow="ellipsis"),
                Text(f"{row['sent_count']:,}", justify="right"), state)

    def page_shown(self) -> None:
        if not self.rows:
            self.status.news("No message rules yet: n writes one")

    def action_new(self) -> None:
        if not self.replies:
            self.status.news("A rule sends a saved reply: write one first (t in the Inbox)", error=True)
            return
        default = PROPERTY + self.property_id if self.property_id else None
        self.app.push_screen(RuleDialog(None, self.options, self.replies, default), self.saved)

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_edit(self) -> None:
        if row := self.current_row():
            self.app.push_screen(RuleDialog(row, self.options, self.replies, scope_of(row)), self.saved)

    def saved(self, rule: dict[str, Any] | None) -> None:
        if rule is not None:
            self.status.news(f"Saved “{rule['title']}”")
            self.reload()

    def action_delete(self) -> None:
        if row := self.current_row():
            rules, actor = self.app.engine.message_rules, self.app.actor()

            def delete() -> str:
                rules.delete(actor, row["id"])
                return f"Deleted “{row['title']}”"

            self.confirm_then_act(f"Delete the message rule “{row['title']}”?", f"{sends_when(row)}, for "
                                  f"{row['for']}. This can't be undone; messages already sent stay as they are.",
                                  delete)

    def action_pause(self) -> None:
        if row := self.current_row():
            rules, actor, paused = self.app.engine.message_rules, self.app.actor(), not row["is_paused"]

            def pause() -> str:
                rules.update(actor, row["id"], {"is_paused": paused})
                if paused:
                    return f"Paused “{row['title']}”: it sends nothing until resumed"
                return f"Resumed “{row['title']}”: it sends what falls due from now on"

            self.act(pause)

    def action_preview(self) -> None:
        if row := self.current_row():
            group = row["group_id"]
            properties = [row["property_id"]] if row["property_id"] else self.properties.get(group, [])
            self.app.push_screen(RulePreview(row, properties))

    def on_action_done(self, message: ActionDone) -> None:
        super().on_action_done(message)
        self.reload()


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


class BookingsFound(Message):
    def __init__(self, options: list[tuple[str, str]], zones: dict[str, str | None]) -> None:
        super().__init__()
        self.options = options
        self.zones = zones  # each booking's property's time zone, by booking


class PreviewMade(Message):
    def __init__(self, preview: dict[str, Any]) -> None:
        super().__init__()
        self.preview = preview


def booking_option(booking: dict[str, Any]) -> tuple[str, str]:
    """"Jane Doe · 10 Mar 2027 → 13 Mar 2027 · BDC-7770001", and "cancelled" when it is."""
    customer = booking["customer"] or {}
    guest = " ".join(part for part in (customer.get("name"), customer.get("surname")) if part) or "A guest"
    parts = [guest, f"{day(booking['arrival_date'])} → {day(booking['departure_date'])}", booking["unique_id"]]
    return " · ".join(parts + (["cancelled"] if booking["status"] == "cancelled" else [])), booking["id"]


class RulePreview(ModalScreen[None]):
    """What a rule sends to a booking of its property (or its group's), filled in, and when."""

    BINDINGS = RULE_PREVIEW

    app: ConsoleApp

    def __init__(self, rule: dict[str, Any], properties: list[str]) -> None:
        super().__init__(classes="dialog-screen")
        self.rule = rule
        self.properties = properties
        self.zones: dict[str, str | None] = {}  # as BookingsFound has them
        self.booking = Field("For the booking", Choice([], prompt="reading the bookings…", id="preview-booking"),
                             path="booking_id")

    def compose(self) -> ComposeResult:
        with Vertical(id="preview-dialog", classes="dialog wide-dialog -fits-short"):
            yield Label(f"“{self.rule['title']}” · {sends_when(self.rule)}", classes="dialog-title", markup=False)
            yield self.booking
            yield Static("", id="preview-when", classes="dialog-text", markup=False)
            with VerticalScroll(id="preview-scroll", can_focus=False):
                yield Static("", id="preview-message", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close (esc)", id="close")

    def on_mount(self) -> None:
        self.booking.control.focus()
        self.find_bookings()

    @engine_work(exclusive=True, group="bookings")
    def find_bookings(self) -> None:
        query = ListQuery(limit=PREVIEWED, order=[("arrival_date", "desc")],
                          filters=[Filter("property_id", "eq", ",".join(self.properties))])
        engine, actor = self.app.engine, self.app.actor()
        rows, _ = engine.bookings.list(actor, query) if self.properties else ([], {})
        zones = {pid: engine.properties.get(actor, pid)["timezone"] for pid in {row["property_id"] for row in rows}}
        post_fresh(self, BookingsFound([booking_option(row) for row in rows],
                                       {row["id"]: zones[row["property_id"]] for row in rows}))

    def on_bookings_found(self, message: BookingsFound) -> None:
        choice = self.booking.control
        assert isinstance(choice, Choice)
        self.zones = message.zones
        if not message.options:
            choice.prompt = "no bookings yet"
            choice.refresh()
            self.query_one("#preview-when", Static).update("The rule's property has no booking to preview it for.")
            return
        choice.set_options(message.options)
        choice.value = message.options[0][1]

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.value is not None:
            self.make_preview(event.value)

    @engine_work(exclusive=True, group="preview")
    def make_preview(self, booking_id: str) -> None:
        preview = self.app.engine.message_rules.preview(self.app.actor(), self.rule["id"], {"booking_id": booking_id})
        post_fresh(self, PreviewMade(preview))

    def on_preview_made(self, message: PreviewMade) -> None:
        preview = message.preview
        at = "no date yet"
        if preview["at"]:  # the engine's moment is UTC; staff read the property's own time, as the rule names it
            local = local_now(self.zones.get(preview["booking_id"]), stamp(preview["at"]))
            at = f"{local:%a %-d %b %Y at %H:%M}, the property's time"
        said = f"Sends on {at}" if preview["would_send"] else f"Not sent: {preview['skipped']} (due on {at})"
        self.query_one("#preview-when", Static).update(said)
        self.query_one("#preview-message", Static).update(preview["message"])

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        self.booking.clear_errors()
        self.booking.show_errors([text for texts in message.problems().values() for text in texts])

    def on_button_pressed(self, _: Button.Pressed) -> None:
        self.dismiss(None)
