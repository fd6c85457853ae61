"""The kit's FitTable: columns that matter less give way, in the order the table is given, when the window is
too narrow for all of them, and the status line says which ones are not shown; flexible columns share the room
the others leave."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from console.kit.fit_table import FitTable
from console.kit.status_line import StatusLine

pytestmark = pytest.mark.anyio

COLUMNS = (("Title", 20), ("Type", 10), ("City", 16), ("Country", 7), ("Currency", 8))


class Listing(App[None]):
    def __init__(self, flex: str | tuple[str, ...] = "Title", drop: tuple[str, ...] = ("Currency", "Type")) -> None:
        super().__init__()
        self.flex, self.drop = flex, drop

    def compose(self) -> ComposeResult:
        yield FitTable(COLUMNS, self.flex, self.drop, id="list")
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


def widths(app: Listing) -> dict[str, int]:
    return {str(column.label): column.width for column in app.query_one(FitTable).ordered_columns}


def status(app: Listing) -> str:
    return app.query_one("#status-where").render().plain


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
        # The advice to widen the window only where the line has room for it.
        assert status(app) == "Page 1 of 1 · not shown: Currency, Type"
        await pilot.resize_terminal(70, 10)
        await pilot.pause()
        assert status(app) == "Page 1 of 1 · not shown: Currency (widen the window)"

        await pilot.resize_terminal(100, 10)
        await pilot.pause()
        assert shown(app) == ["Title", "Type", "City", "Country", "Currency"]
        assert [str(cell) for cell in table.get_row("one")] == ["Grand Hotel", "hotel", "London", "GB", "GBP"]
        assert status(app) == "Page 1 of 1"


async def test_flexible_columns_share_the_room_in_proportion_and_may_give_way_too() -> None:
    app = Listing(flex=("Title", "City"), drop=("City", "Currency"))
    async with app.run_test(size=(120, 10)) as pilot:
        await pilot.pause()
        # 120 columns less the scrollbar, the fixed columns and every padding: 83 for Title and City, as 20:16 is.
        assert widths(app) == {"Title": 47, "Type": 10, "City": 36, "Country": 7, "Currency": 8}
        await pilot.resize_terminal(80, 10)
        await pilot.pause()
        assert widths(app) == {"Title": 24, "Type": 10, "City": 19, "Country": 7, "Currency": 8}
        await pilot.resize_terminal(60, 10)
        await pilot.pause()
        assert widths(app) == {"Title": 25, "Type": 10, "Country": 7, "Currency": 8}  # City gave way first
        assert status(app) == "Page 1 of 1 · not shown: City (widen the window)"
