"""The vault browser: the cards kept, newest first, masked, a page at a time, with the audit entries of
the card under the cursor. Listing unseals nothing and is not audited; wiping a CVV or deleting a
card is, with the console as the actor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from console.kit.area import PAGE_SIZE, Page, mark
from console.kit.fit_table import FitTable
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

ACTOR = "console"  # the name the vault's audit log gives to what the console does
COLUMNS = (("Token", 32), ("Card", 16), ("Type", 10), ("Expiry", 7), ("CVV", 3), ("Profile", 10),
           ("Purge after", 11), ("Created", 10))
FLEX = "Profile"  # a profile's name may be long
DROP = ("Created", "Type", "Profile", "Purge after")
AUDIT_ROWS = 8
EMPTY = ("The vault is empty. Cards come in through the PCI API, a capture, or the tester's "
         "“tokenise for real” (ctrl+g).")


class CardsLoaded(Message):
    def __init__(self, page: Page) -> None:
        super().__init__()
        self.page = page


class AuditLoaded(Message):
    def __init__(self, token: str, entries: list[dict[str, Any]]) -> None:
        super().__init__()
        self.token = token
        self.entries = entries


def stamp(value: str) -> str:
    """2026-11-22T09:00:00.000000 as 2026-11-22 09:00:00."""
    return value[:19].replace("T", " ")


def audit_view(entries: list[dict[str, Any]]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    for entry in entries:
        grid.add_row(stamp(entry["at"]), entry["action"], entry["actor"], entry["detail"] or "")
    return grid


class VaultBrowser(Vertical):
    app: ConsoleApp

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.page = Page([], 1, 0)
        self.wanted_page = 1
        self.cards: dict[str, dict[str, Any]] = {}

    def compose(self) -> ComposeResult:
        yield FitTable(COLUMNS, FLEX, DROP, cursor_type="row", zebra_stripes=True, id="vault-list")
        yield Static(EMPTY, id="vault-audit", markup=False)

    @property
    def table(self) -> DataTable:
        return self.query_one("#vault-list", DataTable)

    def where(self) -> str:
        noun = "card" if self.page.total == 1 else "cards"
        return f"Page {self.page.number} of {self.page.count} · {self.page.total:,} {noun} in the vault"

    def current(self) -> dict[str, Any] | None:
        table = self.table
        if not table.row_count:
            return None
        return self.cards.get(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or "")

    # --- loading -----------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.reload()

    def reload(self, page: int | None = None) -> None:
        """The page read again; before the browser is built (its tab is built on its first visit), once it is."""
        self.wanted_page = page or self.wanted_page
        if self.is_attached:
            self.fetch(self.wanted_page)

    def turn(self, step: int) -> None:
        number = self.wanted_page + step
        if 1 <= number <= self.page.count:
            self.reload(number)
        else:
            self.app.bell()

    @engine_work(exclusive=True, group="vault-page")
    def fetch(self, number: int) -> None:
        rows, total = self.app.engine.vault.cards(limit=PAGE_SIZE, offset=(number - 1) * PAGE_SIZE)
        post_fresh(self, CardsLoaded(Page(rows, number, total)))

    def on_cards_loaded(self, message: CardsLoaded) -> None:
        page = message.page
        if not page.rows and page.number > page.count:
            message.stop()
            self.reload(page.count)  # cards went under our feet: show the last page there is
            return
        self.page = page
        table = self.table
        current, index = self.current(), table.cursor_row
        self.cards = {card["token"]: card for card in page.rows}
        table.clear()
        for token, card in self.cards.items():
            table.add_row(token, card["card_number"], card["card_type"],
                          f"{card['expiration_month']}/{card['expiration_year']}", mark(card["has_cvv"]),
                          card["profile"], card["purge_after"], card["created_at"][:10], key=token)
        if current and current["token"] in self.cards:
            table.move_cursor(row=table.get_row_index(current["token"]), animate=False)
        elif self.cards:
            table.move_cursor(row=min(index, len(self.cards) - 1), animate=False)
        self.show_audit()

    # --- the audit of the card under the cursor ------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "vault-list":
            self.show_audit()

    def show_audit(self) -> None:
        card = self.current()
        if card is None:
            audit = self.query_one("#vault-audit", Static)
            audit.border_title = ""
            audit.update(EMPTY)
        else:
            self.load_audit(card["token"])

    @engine_work(exclusive=True, group="vault-audit")
    def load_audit(self, token: str) -> None:
        entries = self.app.engine.vault.audit(token, limit=AUDIT_ROWS)
        post_fresh(self, AuditLoaded(token, entries))

    def on_audit_loaded(self, message: AuditLoaded) -> None:
        card = self.current()
        if card is None or card["token"] != message.token:
            return  # the cursor moved on meanwhile
        audit = self.query_one("#vault-audit", Static)
        audit.border_title = f"Audit of {card['card_number']} · newest first"
        audit.update(audit_view(message.entries) if message.entries else Text("no entries", style="dim"))
