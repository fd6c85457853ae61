"""A destination's recent deliveries (a channel's ARI pushes, a webhook's events), newest first, under what its
state is in full: the last error, the next try. The row under the cursor is spelt out below the table, so the
columns that do not fit at 80 columns are still read there. It follows the deliverer as it works."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Label, Static

from console.channels.keys import DELIVERY_LOG
from console.channels.words import status_words
from console.kit.fit_table import FitTable, Fitted
from console.kit.messages import DataChanged
from console.kit.screens import ModalScreen
from console.kit.words import when
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

COLUMNS = (("When", 12), ("What", 28), ("Status", 8), ("Tries", 5), ("Next try", 12), ("Error", 16))
FLEX = ("What", "Error")
DROP = ("Next try", "Error", "Tries")  # the line below the table spells them out for the row under the cursor
CLOSE = "esc closes"


@dataclass(frozen=True)
class Entry:
    id: str
    at: str
    what: Fitted
    status: str
    attempts: int
    error: str | None
    next_retry_at: str | None
    warning: str | None = None  # what the destination warned of while taking it (an OTA answer's Warnings)


@dataclass(frozen=True)
class Log:
    about: list[str]  # the destination and its state, a line each (cropped to the dialog's width)
    entries: list[Entry]
    empty: str  # said when nothing was delivered yet


class LogLoaded(Message):
    def __init__(self, log: Log) -> None:
        super().__init__()
        self.log = log


def spelt_out(entry: Entry) -> Text:
    """Everything about one delivery, for the line below the table."""
    text = Text.assemble(entry.what.full(), ": ", status_words(entry.status),
                         f" after {entry.attempts} tr{'y' if entry.attempts == 1 else 'ies'}")
    if entry.next_retry_at:
        text.append(f", next try {when(entry.next_retry_at)}")
    if entry.error:
        text.append(f"\n{entry.error}", style="red")
    if entry.warning:
        text.append(f"\n{entry.warning}", style="yellow")
    return text


class DeliveryLogDialog(ModalScreen[None]):
    BINDINGS = DELIVERY_LOG

    app: ConsoleApp

    def __init__(self, title: str, read: Callable[[], Log]) -> None:
        """`read` gathers the log from the engine; it runs in a worker."""
        super().__init__(classes="dialog-screen")
        self.log_title = title
        self.read = read
        self.entries: dict[str, Entry] = {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="delivery-log"):
            yield Label(self.log_title, classes="dialog-title", markup=False)
            yield Static("Loading…", id="log-about", classes="dialog-text", markup=False)
            yield FitTable(COLUMNS, FLEX, DROP, cursor_type="row", zebra_stripes=True, id="log-list")
            yield Static("", id="log-entry", markup=False)

    @property
    def table(self) -> DataTable:
        return self.query_one("#log-list", DataTable)

    def on_mount(self) -> None:
        self.query_one("#delivery-log").border_subtitle = CLOSE  # in the border: every line counts at 80×24
        self.table.focus()
        self.load()

    def on_data_changed(self, message: DataChanged) -> None:
        if message.concerns(("delivery.", "webhook.", "channel.")):
            self.load()

    @engine_work(exclusive=True, group="log")
    def load(self) -> None:
        log = self.read()
        post_fresh(self, LogLoaded(log))

    def on_log_loaded(self, message: LogLoaded) -> None:
        log = message.log
        self.query_one("#log-about", Static).update("\n".join(log.about))
        table, cursor = self.table, self.table.cursor_row
        table.clear()
        self.entries = {entry.id: entry for entry in log.entries}
        for entry in log.entries:
            table.add_row(Text(when(entry.at), style="dim"), entry.what, status_words(entry.status),
                          Text(str(entry.attempts), justify="right"),
                          when(entry.next_retry_at) if entry.next_retry_at else "",
                          Text(entry.error or entry.warning or "", style="red" if entry.error else "yellow",
                               no_wrap=True, overflow="ellipsis"), key=entry.id)
        table.display = bool(log.entries)
        if log.entries:
            table.move_cursor(row=min(cursor, len(log.entries) - 1), animate=False)
        else:
            self.query_one("#log-entry", Static).update(log.empty)

    def on_fit_table_columns_hidden(self, message: FitTable.ColumnsHidden) -> None:
        hidden = f"not shown: {', '.join(message.labels)} (see below) · " if message.labels else ""
        self.query_one("#delivery-log").border_subtitle = hidden + CLOSE

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        entry = self.entries.get(event.row_key.value or "")
        if entry is not None:
            self.query_one("#log-entry", Static).update(spelt_out(entry))
