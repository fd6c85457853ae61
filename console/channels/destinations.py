"""What the Channels and Webhooks lists share: each item is a destination of the outbox, so `r` resumes a failing
one (any other is left, and the status line says there is nothing to resume) and `l` shows its delivery log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backend.engine import Engine
from backend.identity.models import Actor
from console.channels.delivery_log import DeliveryLogDialog, Log
from console.kit.area import AreaScreen


class DestinationsArea(AreaScreen):
    def resume_failing(self, name: str, state: dict[str, Any], resume: Callable[[], object]) -> None:
        """`name` as messages say it; `resume` is the engine's call (run in a worker)."""
        if state["failing_since"] is None:
            self.status.news(f"{name[:1].upper()}{name[1:]} is not failing: nothing to resume")
            return

        def call() -> str:
            resume()
            return f"Resumed {name}: it is tried again now"

        self.act(call)

    def show_log(self, title: str, log_of: Callable[[Engine, Actor, str], Log], item_id: str) -> None:
        """`log_of` reads the item's log from the engine (in the dialog's worker)."""
        self.app.push_screen(DeliveryLogDialog(title, lambda: log_of(self.app.engine, self.app.actor(), item_id)))
