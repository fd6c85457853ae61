"""A booking's reports to its channel, in staff's words, and the question a no-show asks: are its fees waived?"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from console.bookings.keys import NO_SHOW
from console.kit.screens import ModalScreen
from console.kit.words import when

WORDS = {"no_show": "No-show", "invalid_card": "Card invalid", "cancel_due_invalid_card": "Cancelled: card invalid"}


def report_words(report: dict[str, Any]) -> str:
    words = WORDS[report["report"]]
    if report["report"] == "no_show":
        words += ", fee waived" if report["waived_fees"] else ", fee charged"
    return words


def reports_view(reports: list[dict[str, Any]], channel: str) -> RenderableType:
    """Each report, when it was made, and whether the channel has been told yet."""
    table = Table.grid(padding=(0, 2))
    for report in reports:
        told = (Text(f"✓ {channel} told", style="green") if report["delivered_at"]
                else Text(f"◷ waiting for {channel}", style="bold yellow"))
        table.add_row(report_words(report), Text(when(report["inserted_at"]), style="dim"), told)
    return table


class NoShowDialog(ModalScreen[bool | None]):
    """Report a no-show: None to go back, else whether the property waives the no-show fee."""

    BINDINGS = NO_SHOW

    def __init__(self, guest: str, channel: str) -> None:
        super().__init__(classes="dialog-screen")
        self.guest = guest
        self.channel = channel

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"{self.guest} did not arrive?", classes="dialog-title", markup=False)
            yield Static(f"{self.channel} is told, and may then cancel or change the booking. "
                         "Does the guest pay the no-show fee?", classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Back", id="back")
                yield Button("Waive (w)", id="waive")
                yield Button("Charge (c)", id="charge", variant="error")

    def on_mount(self) -> None:
        self.query_one("#back", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"back": None, "waive": True, "charge": False}[event.button.id or "back"])

    def action_answer(self, waived: bool | None) -> None:
        self.dismiss(waived)
