"""The command palette (ctrl+p): go to an area, start something new, or jump to a property by title."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from backend.core.listing import Filter, ListQuery

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

PROPERTY_HITS = 8


@dataclass
class FirstHit(DiscoveryHit):
    """Listed before Textual's own commands (Keys, Maximize, Screenshot…, which score 0), in the order given:
    otherwise the palette lists them in whichever order its providers happen to answer."""

    rank: float = 1.0

    @property
    def score(self) -> float:
        return self.rank


class FrontdeskCommands(Provider):
    app: ConsoleApp

    def commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        app = self.app
        return [
            ("Inbox", "Guests' conversations: read and reply", partial(app.switch_mode, "inbox")),
            ("Properties", "Show the list of properties", partial(app.switch_mode, "properties")),
            ("Channels", "Show the list of channels", partial(app.switch_mode, "channels")),
            ("Inventory", "Room types, rate plans and the availability and rates calendar",
             partial(app.switch_mode, "inventory")),
            ("Shopping", "Preview what a shopping channel sells, and book a test stay",
             partial(app.switch_mode, "shopping")),
            ("Bookings", "Show the bookings and acknowledge new revisions", partial(app.switch_mode, "bookings")),
            ("Tokenisation", "Card vault profiles, the profile tester and the vault's masked cards",
             partial(app.switch_mode, "tokenisation")),
            ("Reviews", "Guests' reviews: read, reply, review Airbnb guests, see the scores",
             partial(app.switch_mode, "reviews")),
            ("New property", "Open an empty property editor", partial(app.start_in, "properties")),
            ("New channel", "Create a channel and get its inbound key", partial(app.start_in, "channels")),
            ("Message rules", "Messages that send themselves: a saved reply on a booking's confirmation, before "
             "arrival or after departure", partial(app.start_in, "inbox", "message_rules")),
            ("Webhooks", "The integrators' webhooks: pause, resume, test, read their deliveries",
             partial(app.start_in, "channels", "webhooks")),
            ("Help", "Every key of every screen", app.action_help),
        ]

    async def discover(self) -> Hits:
        commands = self.commands()
        for index, (name, help_text, callback) in enumerate(commands):
            yield FirstHit(name, callback, help=help_text, rank=1 - index / len(commands))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self.commands():
            if score := matcher.match(name):
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
        if len(query.strip()) < 2:
            return
        # Titles come from the database: read them off the UI thread.
        rows = await asyncio.to_thread(self.find_properties, query.strip())
        for row in rows:
            place = ", ".join(part for part in (row["city"], row["country"]) if part)
            yield Hit(max(matcher.match(row["title"]), 0.1), f"Edit property: {row['title']}",
                      partial(self.app.open_property_editor, row["id"]), help=place or None)

    def find_properties(self, text: str) -> list[dict]:
        query = ListQuery(limit=PROPERTY_HITS, filters=[Filter("title", "has", text)])
        rows, _ = self.app.engine.properties.list(self.app.actor(), query)
        return rows
