"""The integrators' webhooks, opened from the Channels area (w): where each property's events are POSTed, which
ones, and whether they arrive. Pause and unpause one, resume a failing one, send it a test event, read its log,
delete it. Integrators create and change them over the API; the console looks after them."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.identity.models import Actor
from console.channels.delivery_log import Entry, Log
from console.channels.destinations import DestinationsArea
from console.channels.keys import WEBHOOKS
from console.channels.words import event_words, mask_words, state_lines, sync_state
from console.kit.area import PAGE_SIZE
from console.kit.fit_table import Fitted

NOUN = "event"  # what a webhook waits for
ACTIVE = {True: ("active", "green"), False: ("paused", "bold yellow")}


def address(webhook: dict[str, Any]) -> str:
    """The callback, as a message names the webhook: host and path."""
    parts = urlsplit(webhook["callback_url"])
    return f"the webhook to {parts.netloc}{parts.path}"


def webhook_log(engine: Engine, actor: Actor, webhook_id: str) -> Log:
    """The webhook's log (runs in a worker)."""
    webhook = engine.webhooks.get(actor, webhook_id)
    deliveries, _ = engine.webhooks.deliveries(actor, webhook_id, ListQuery(limit=PAGE_SIZE))
    about = [f"Sends {mask_words(webhook['event_mask'])} to {webhook['callback_url']}"
             + ("." if webhook["is_active"] else ": paused, its events wait."),
             *state_lines(webhook["state"], NOUN)]
    entries = [Entry(d["id"], d["updated_at"], Fitted(Text(event_words(d["event"])), None), d["status"],
                     d["attempts"], d["last_error"], d["next_retry_at"]) for d in deliveries]
    return Log(about, entries, "Nothing sent yet.")


class WebhooksScreen(DestinationsArea):
    WATCHES = ("webhook.", "delivery.", "property.")
    AREA = "channels"
    CRUMB = "Webhooks"
    NOUNS = ("webhook", "webhooks")
    # What matters first: whose, and whether its events arrive.
    COLUMNS = (("Property", 20), ("State", 20), ("Active", 6), ("Callback address", 24), ("Events", 20))
    FLEX = ("State", "Callback address")
    DROP = ("Events",)

    BINDINGS = WEBHOOKS

    def compose_body(self) -> ComposeResult:
        yield Static("Webhooks send a property's events to an integrator's address. Integrators add them over the "
                     "API (POST /api/v1/webhooks).", id="webhooks-hint", markup=False)
        yield self.make_table()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        engine, actor = self.app.engine, self.app.actor()
        titles = {p["id"]: p["title"] for p in engine.properties.options(actor)}
        rows, meta = engine.webhooks.list(actor, ListQuery(page=number, limit=PAGE_SIZE))
        return [{**row, "title": titles.get(row["property_id"], "?")} for row in rows], meta

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        state = sync_state(row["state"], self.app.engine.config.clock(), NOUN)
        return (row["title"], state, Text(*ACTIVE[row["is_active"]]),
                Text(row["callback_url"], no_wrap=True, overflow="ellipsis"), mask_words(row["event_mask"]))

    # --- actions -----------------------------------------------------------------------------

    def action_pause(self) -> None:
        if row := self.current_row():
            self.act(lambda: self.pause(row))

    def pause(self, row: dict[str, Any]) -> str:
        self.app.engine.webhooks.update(self.app.actor(), row["id"], {"is_active": not row["is_active"]})
        return f"{'Paused' if row['is_active'] else 'Unpaused'} {address(row)}"

    def action_resume(self) -> None:
        if row := self.current_row():
            self.resume_failing(address(row), row["state"],
                                lambda: self.app.engine.webhooks.resume(self.app.actor(), row["id"]))

    def action_test(self) -> None:
        if row := self.current_row():
            self.status.news(f"Sending a test event to {row['callback_url']}…")
            self.act(lambda: self.test(row))

    def test(self, row: dict[str, Any]) -> str:
        answer = self.app.engine.webhooks.test_saved(self.app.actor(), row["id"]).result()
        return f"Test event taken: {urlsplit(row['callback_url']).netloc} answered {answer['status']}"

    def action_log(self) -> None:
        if row := self.current_row():
            self.show_log(f"Deliveries of {address(row)}", webhook_log, row["id"])

    def action_delete(self) -> None:
        if row := self.current_row():
            detail = (f"{row['title']}'s events stop going to {row['callback_url']}, and its delivery log goes "
                      "with it. This can't be undone.")
            self.confirm_then_act(f"Delete {address(row)}?", detail, lambda: self.delete(row))

    def delete(self, row: dict[str, Any]) -> str:
        self.app.engine.webhooks.delete(self.app.actor(), row["id"])
        return f"Deleted {address(row)}"
