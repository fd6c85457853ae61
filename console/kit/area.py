"""What the main screen of every area shares: the bar on top, a table paged from the database,
a status line, the footer, and engine calls run in workers.

Pages are read in a thread worker that posts `PageLoaded`; only the handler touches the table.
A newer load cancels an older one, so a burst of change events costs one visible refresh.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, DataTable, Input, TabbedContent, TabPane

from console.kit.app_bar import AppBar
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from console.kit.fit_table import FitTable
from console.kit.footer import Footer
from console.kit.labels import describe, title_for
from console.kit.messages import ActionDone, ActionFailed, DataChanged
from console.kit.screens import Screen
from console.kit.section import build_deferred
from console.kit.status_line import StatusLine
from console.kit.workers import engine_work, post_fresh

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

PAGE_SIZE = 50


@dataclass(frozen=True)
class Page:
    rows: list[dict[str, Any]]
    number: int
    total: int
    at_least: bool = False  # a search that counted its matches only so far: more pages may follow

    @property
    def count(self) -> int:
        return max(1, math.ceil(self.total / PAGE_SIZE)) + self.at_least


class PageLoaded(Message):
    def __init__(self, page: Page) -> None:
        super().__init__()
        self.page = page


def mark(flag: bool) -> Text:
    return Text("✓", style="bold green") if flag else Text("·", style="dim")


class PropertiesFound(Message):
    """The properties a filter bar offers (titles by id), read with a page of the list."""

    def __init__(self, titles: dict[str, str]) -> None:
        super().__init__()
        self.titles = titles


class FilteredArea:
    """A list with a bar of filters: changing a choice or a checkbox, or Enter in a field, applies them. Its choice
    of property (`make_property_filter`) offers the properties each page's read finds (`PropertiesFound`)."""

    table: DataTable
    property_filter: Choice
    property_titles: dict[str, str]  # what the property filter offers, by id

    def apply_filters(self) -> None:
        raise NotImplementedError

    def make_property_filter(self, id: str) -> Choice:
        self.property_filter = Choice([], prompt="any property", id=id)
        self.property_titles = {}
        return self.property_filter

    def on_properties_found(self, message: PropertiesFound) -> None:
        if message.titles == self.property_titles:
            return
        self.property_titles = message.titles
        with self.property_filter.prevent(Choice.Changed):
            self.property_filter.set_options([(title, pid) for pid, title in message.titles.items()])

    def on_choice_changed(self, _: Choice.Changed) -> None:
        self.apply_filters()

    def on_checkbox_changed(self, _: Checkbox.Changed) -> None:
        self.apply_filters()

    def on_input_submitted(self, _: Input.Submitted) -> None:
        self.table.focus()
        self.apply_filters()  # after: a filter that refuses what was typed keeps the focus on its field


class AreaScreen(Screen):
    AREA: ClassVar[str]
    NOUNS: ClassVar[tuple[str, str]]  # singular, plural
    COLUMNS: ClassVar[tuple[tuple[str, int], ...]]  # label, width
    FLEX: ClassVar[str | tuple[str, ...] | None] = None  # the column(s) that take the width the others leave
    DROP: ClassVar[tuple[str, ...]] = ()  # columns hidden when the width can't hold them all, least needed first
    CRUMB: ClassVar[str] = ""  # after the area's name in the bar: a screen opened from the area's own
    ROW_HEIGHT: ClassVar[int] = 1  # lines a row takes
    # The kinds of change the area shows (or their starts, "booking." for every booking change): it reloads for
    # these alone (backend/outbox/changes.py; "database", a change of no known kind, reloads every area).
    WATCHES: ClassVar[tuple[str, ...]]
    # The list has the focus from the first frame: focused once mounted, the footer's keys changed with it and the
    # screen was laid out again, on every area's first visit.
    AUTO_FOCUS = "#list"

    app: ConsoleApp

    def __init__(self) -> None:
        super().__init__()
        self.page = Page([], 1, 0)
        self.wanted_page = 1  # the page asked for last, which a refresh must not undo
        self.rows: dict[str, dict[str, Any]] = {}
        self.seen_generation = -1
        self.from_top = False  # a new search or filter: its first row gets the cursor, whatever row had it

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield AppBar(self.AREA, self.CRUMB)
        yield from self.compose_body()
        yield StatusLine()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        yield self.make_table()

    def make_table(self) -> DataTable:
        return FitTable(self.COLUMNS, self.FLEX, self.DROP, cursor_type="row", zebra_stripes=True, id="list")

    @property
    def table(self) -> DataTable:
        return self.query_one("#list", DataTable)

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    # --- loading -----------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.reload()

    def on_screen_resume(self) -> None:
        # Changes that happened while another area was shown.
        if self.seen_generation == -1 or self.app.changed_since(self.seen_generation, self.WATCHES):
            self.reload()

    def on_data_changed(self, message: DataChanged) -> None:
        if message.concerns(self.WATCHES):
            self.reload()

    def on_fit_table_columns_hidden(self, message: FitTable.ColumnsHidden) -> None:
        if message.control is self.table:  # another table of the screen says so itself
            self.status.columns_hidden(message.labels)

    def restart(self) -> None:
        """A new search or filter: its first page, with the cursor on its first result."""
        self.from_top = True
        self.reload(1)

    def reload(self, page: int | None = None) -> None:
        self.seen_generation = self.app.generation
        self.wanted_page = page or self.wanted_page
        self.fetch_page(self.wanted_page)

    @engine_work(exclusive=True, group="page")
    def fetch_page(self, number: int) -> None:
        rows, meta = self.fetch(number)
        post_fresh(self, PageLoaded(Page(rows, number, meta["total"], meta.get("total_at_least", False))))

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Read one page from the engine (runs in a worker thread)."""
        raise NotImplementedError

    def cells(self, row: dict[str, Any]) -> Iterable[Any]:
        raise NotImplementedError

    def on_page_loaded(self, message: PageLoaded) -> None:
        page = message.page
        if not page.rows and page.number > page.count:
            self.reload(page.count)  # rows were deleted under our feet: show the last page there is
            return
        self.page = page
        self.rows = {row["id"]: row for row in page.rows}
        self.fill_table()
        self.status.where(self.where())
        self.page_shown()

    def fill_table(self) -> None:
        """Replace the rows, keeping the cursor on the same item where it still exists."""
        table = self.table
        current, index = self.current_id(), table.cursor_row
        table.clear()
        for row_id, row in self.rows.items():
            table.add_row(*self.cells(row), key=row_id, height=self.ROW_HEIGHT)
        if self.from_top:
            self.from_top = False
            table.move_cursor(row=0, animate=False)
        elif current in self.rows:
            table.move_cursor(row=table.get_row_index(current), animate=False)
        elif self.rows:
            table.move_cursor(row=min(index, len(self.rows) - 1), animate=False)

    def page_shown(self) -> None:
        """Called once a page is in the table."""

    def where(self) -> str:
        singular, plural = self.NOUNS
        page = self.page
        noun = singular if page.total == 1 else plural
        if page.at_least:
            return f"Page {page.number} · more than {page.total:,} {noun}"
        return f"Page {page.number} of {page.count} · {page.total:,} {noun}"

    def current_id(self) -> str | None:
        table = self.table
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def current_row(self) -> dict[str, Any] | None:
        row_id = self.current_id()
        return self.rows.get(row_id) if row_id else None

    def action_page(self, step: int) -> None:
        number = self.wanted_page + step
        if 1 <= number <= self.page.count:
            self.reload(number)
        else:
            self.app.bell()

    # --- engine writes -----------------------------------------------------------------------

    @engine_work(group="action")
    def act(self, call: Callable[[], str]) -> None:
        """Run one engine write off the UI thread; `call` returns what to tell the user."""
        text = call()
        self.post_message(ActionDone(text))

    def confirm_then_act(self, question: str, detail: str, call: Callable[[], str], confirm: str = "Delete") -> None:
        """Ask before a write that can't be undone (or costs much); on yes, run it like any other action."""

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.act(call)

        self.app.push_screen(ConfirmDialog(question, detail, confirm=confirm), confirmed)

    def on_action_done(self, message: ActionDone) -> None:
        message.stop()
        self.status.news(message.text)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        text = describe(message.error)
        self.status.news(text, error=True)
        self.notify(text, title=title_for(message.error), severity="error")


class TabbedArea(AreaScreen):
    """An area of tabs (a TabbedContent) that keys open; `tab_focus` says where each tab puts the focus."""

    def tab_focus(self, tab: str) -> Widget:
        raise NotImplementedError

    async def build_tab(self, tab: str) -> None:
        """What the tab holds back built (on its first visit), so that it can take the focus."""
        await build_deferred(self.query_one(f"#{tab}", TabPane))

    async def action_show_tab(self, tab: str) -> None:
        await self.build_tab(tab)
        self.query_one(TabbedContent).active = tab
        # Focused before the tab's first frame: a table painted without the focus is painted again, every cell,
        # once it has it (the inventory calendar's cells take a tenth of a second).
        self.set_focus(self.tab_focus(tab))
