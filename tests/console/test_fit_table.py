"""The kit's FitTable: columns that matter less give way, in the order the table is given, when the window is
too narrow for all of them, and the status line says which ones are not shown."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from console.kit.fit_table import FitTable
from console.kit.status_line import StatusLine

pytestmark = pytest.mark.anyio

COLUMNS = (("Title", 20), ("Type", 10), ("City", 16), ("Country", 7), ("Currency", 8))


class Listing(App[None]):
    def compose(self) -> ComposeResult:
        yield FitTable(COLUMNS, "Title", ("Currency", "Type"), id="list")
        yield StatusLine()

    def on_mount(self) -> None:
        table = self.query_one(FitTable)
        table.add_row("Grand Hotel", "hotel", "London", "GB", "GBP", key="one")
        self.query_one(StatusLine).where("Page 1 of 1")

    def on_fit_table_columns_hidden(self, message: FitTable.ColumnsHidden) -> None:
        self.query_one(StatusLine).columns_hidden(message.labels)


def shown(app: Listing) -> list[str]:
    table = app.query_one(FitTable)
    return [str(column.label) for column in table.ordered_columns]


async def test_narrow_windows_hide_the_columns_that_matter_least_and_say_so() -> None:
    app = Listing()
    async with app.run_test(size=(100, 10)) as pilot:
        await pilot.pause()
        assert shown(app) == ["Title", "Type", "City", "Country", "Currency"]
        assert "not shown" not in app.export_screenshot()

        await pilot.resize_terminal(70, 10)
        await pilot.pause()
        assert shown(app) == ["Title", "Type", "City", "Country"]  # Currency first
        await pilot.resize_terminal(56, 10)
        await pilot.pause()
        assert shown(app) == ["Title", "City", "Country"]
        table = app.query_one(FitTable)
        assert [str(cell) for cell in table.get_row("one")] == ["Grand Hotel", "London", "GB"]
        assert "not shown: Currency, Type (widen the window)" in app.query_one("#status-where").render().plain

        await pilot.resize_terminal(100, 10)
        await pilot.pause()
        assert shown(app) == ["Title", "Type", "City", "Country", "Currency"]
        assert [str(cell) for cell in table.get_row("one")] == ["Grand Hotel", "hotel", "London", "GB", "GBP"]
        assert app.query_one("#status-where").render().plain == "Page 1 of 1"
