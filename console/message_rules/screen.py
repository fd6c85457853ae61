"""The list of message rules, over the Inbox: n, e, d, p and v to write, change, delete, pause and preview them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text

from backend.core.listing import MAX_LIMIT, ListQuery
from console.kit.area import PAGE_SIZE
from console.kit.scoped import ScopedDialog, ScopedList, scope_of
from console.message_rules.editor import RuleDialog
from console.message_rules.keys import MESSAGE_RULES
from console.message_rules.preview import RulePreview
from console.message_rules.words import sends_when

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp


def saved_replies(app: ConsoleApp) -> list[dict[str, Any]]:
    """Every saved reply the user reaches (a group keeps a few hundred at most): what a rule may send."""
    templates, actor = app.engine.message_templates, app.actor()
    found: list[dict[str, Any]] = []
    while True:
        rows, meta = templates.list(actor, ListQuery(page=len(found) // MAX_LIMIT + 1, limit=MAX_LIMIT))
        found += rows
        if not rows or len(found) >= meta["total"]:
            return found


class MessageRulesScreen(ScopedList):
    """Every message rule the user reaches; n, e, d, p and v to write, change, delete, pause and preview them."""
    # message.sent: a rule's message counts in its row.
    WATCHES = ("message_rule.", "message.sent", "saved_reply.", "property.", "user.")

    CRUMB = "Message rules"
    NOUNS = ("message rule", "message rules")
    COLUMNS = (("Title", 12), ("When", 31), ("Sends", 14), ("For", 20), ("Sent", 4), ("State", 6))
    FLEX = ("Title", "Sends", "For")
    DROP = ("For",)

    BINDINGS = MESSAGE_RULES

    def __init__(self, property_id: str | None = None) -> None:
        super().__init__(property_id)
        # As last read: the saved replies a rule may send, each group's properties.
        self.replies: list[dict[str, Any]] = []
        self.properties: dict[str, list[str]] = {}

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        groups = engine.identity.groups(actor)
        names = self.read_scopes(groups)
        self.properties = {g["id"]: [p["id"] for p in g["properties"]] for g in groups}
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

    def action_new(self) -> None:
        if not self.replies:
            self.status.news("A rule sends a saved reply: write one first (t in the Inbox)", error=True)
            return
        super().action_new()

    def editor(self, row: dict[str, Any] | None, scope: str | None) -> ScopedDialog:
        return RuleDialog(row, self.options, self.replies, scope)

    def deletion(self, row: dict[str, Any]) -> tuple[str, Callable[[], object]]:
        rules, actor = self.app.engine.message_rules, self.app.actor()
        return (f"{sends_when(row)}, for {row['for']}. This can't be undone; messages already sent stay as they are.",
                lambda: rules.delete(actor, row["id"]))

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
