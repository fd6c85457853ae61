"""One property as a shopping channel shows it: closed dates, rooms with their rate plans and prices
for the stay, and a test booking from a chosen rate plan."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import DataTable, Static

from backend.core.errors import FrontdeskError
from console.kit.app_bar import AppBar
from console.kit.fit_table import FitTable
from console.kit.footer import Footer
from console.kit.labels import describe, title_for
from console.kit.messages import ActionFailed, DataChanged
from console.kit.screens import Screen
from console.kit.status_line import StatusLine
from console.kit.words import party
from console.kit.workers import engine_work, post_fresh
from console.shopping.booking import BookStayDialog
from console.shopping.closed_calendar import calendar_view, next_month
from console.shopping.keys import SHOPPING_PROPERTY
from console.shopping.stay import StayQuery

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

ROOM_COLUMNS = (("Room", 20), ("Rate plan", 27), ("Guests", 6), ("Meal", 10), ("Price", 13), ("Cancellation", 22))
ROOM_FLEX = ("Rate plan", "Cancellation")
ROOM_DROP = ("Cancellation", "Meal")  # the lines below the table spell them out for the rate plan under the cursor


@dataclass(frozen=True)
class PropertyPage:
    info: dict[str, Any]
    closed: dict[str, Any]
    rooms: list[dict[str, Any]]
    rooms_problem: str  # why there are no prices: the engine's word on a stay it can't quote


class PropertyLoaded(Message):
    def __init__(self, page: PropertyPage) -> None:
        super().__init__()
        self.page = page


def guests(occupancy: dict[str, int]) -> str:
    extra = occupancy["children"] + occupancy["infants"]
    return f"{occupancy['adults']}+{extra}" if extra else str(occupancy["adults"])


def plan_details(plan: dict[str, Any]) -> Table:
    """What the row has no room for: the price of each night, the taxes, the whole cancellation policy, the meals
    and the party."""
    currency = plan["currency"]
    nights = " · ".join(f"{day[5:]} {price}" for day, price in plan["days"].items())
    taxes = "; ".join(f"{t['title']} {t['rate']} {t['mode'].replace('_', ' ')}: {t['amount']} {currency}"
                      + (" (included)" if t["inclusive"] else " (on top)") for t in plan["taxes"]) or "none"
    terms = " · ".join((plan["cancellation_policy"]["title"] or "no cancellation policy", words(plan["meal_plan"]),
                        f"for {party(plan['occupancy'])}"))
    details = Table.grid(padding=(0, 2))  # a line that wraps keeps to its column
    details.add_column(style="dim", no_wrap=True)
    details.add_column()
    for label, text in (("Nights", nights), ("Taxes", taxes), ("Terms", terms)):
        details.add_row(label, text)
    return details


PETS = {"by_arrangements": "by arrangement"}  # the service's code, in plain words


def words(code: str | None) -> str:
    return (code or "—").replace("_", " ")


def policy_line(info: dict[str, Any]) -> str:
    policy = info.get("hotel_policy")
    if not policy:
        return "No house rules set"
    return (f"Check-in {policy['checkin_from_time']}–{policy['checkin_to_time']} · "
            f"check-out {policy['checkout_from_time']}–{policy['checkout_to_time']} · "
            f"{words(policy['smoking_policy'])} · pets {PETS.get(policy['pets_policy'], words(policy['pets_policy']))}")


class ShoppingPropertyScreen(Screen):
    BINDINGS = SHOPPING_PROPERTY

    app: ConsoleApp

    def __init__(self, stay: StayQuery, row: dict[str, Any]) -> None:
        super().__init__()
        self.stay = stay
        self.property = row
        self.page: PropertyPage | None = None
        self.plans: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}  # row key → (room, rate plan)
        self.today = self.app.engine.config.clock().date()
        dates = stay.dates()
        self.month = (dates[0] if dates and dates[0] >= self.today else self.today).replace(day=1)

    def compose(self) -> ComposeResult:
        yield AppBar("shopping", self.property["title"])
        yield Static("", id="shop-header")
        yield Static("", id="shop-calendar")
        yield FitTable(ROOM_COLUMNS, ROOM_FLEX, ROOM_DROP, cursor_type="row", zebra_stripes=True, id="shop-rooms")
        yield Static("", id="shop-plan")
        yield StatusLine()
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#shop-rooms", DataTable).focus()
        self.load()

    def on_data_changed(self, message: DataChanged) -> None:
        if message.concerns(("ari.", "booking.", "inventory.", "property.")):
            self.load()  # a booking or an ARI change moves prices and closed dates

    @engine_work(exclusive=True, group="property")
    def load(self) -> None:
        engine, channel_id, property_id = self.app.engine, self.stay.channel_id or "", self.property["id"]
        engine.shopping.own_channel(self.app.actor(), channel_id)
        info = engine.shopping.property_info(channel_id, property_id)
        closed = engine.shopping.closed_dates(channel_id, property_id)
        try:
            rooms, problem = engine.shopping.rooms(channel_id, property_id, self.stay.params()), ""
        except FrontdeskError as error:
            rooms, problem = [], describe(error)
        post_fresh(self, PropertyLoaded(PropertyPage(info, closed, rooms, problem)))

    def on_property_loaded(self, message: PropertyLoaded) -> None:
        self.page = page = message.page
        info = page.info
        place = ", ".join(part for part in (info["city"], info["country"]) if part)
        header = Text.assemble((info["title"], "bold"), f" · {place}\n", (policy_line(info), "dim"))
        self.query_one("#shop-header", Static).update(header)
        self.show_calendar()
        self.fill_rooms(page.rooms)
        offers = sum(len(room["rate_plans"]) for room in page.rooms)
        stay = f"{self.stay.checkin} → {self.stay.checkout}, {self.stay.party()}"
        self.query_one(StatusLine).where(f"{offers} offer{'s' if offers != 1 else ''} for {stay}")
        if page.rooms_problem:
            self.query_one(StatusLine).news(page.rooms_problem, error=True)

    def on_resize(self, _: events.Resize) -> None:
        self.show_calendar()  # as many months as the width holds

    def on_fit_table_columns_hidden(self, message: FitTable.ColumnsHidden) -> None:
        self.query_one(StatusLine).columns_hidden(message.labels)

    def show_calendar(self) -> None:
        if self.page is not None:
            calendar = self.query_one("#shop-calendar", Static)
            width = self.size.width - calendar.styles.margin.width
            calendar.update(calendar_view(self.page.closed, self.month, width, self.stay.dates(), self.today))

    def fill_rooms(self, rooms: list[dict[str, Any]]) -> None:
        table = self.query_one("#shop-rooms", DataTable)
        cursor = table.cursor_row
        table.clear()
        self.plans = {}
        for room in rooms:
            for number, plan in enumerate(room["rate_plans"]):
                key = f"{room['id']}/{plan['id']}/{number}"
                self.plans[key] = (room, plan)
                table.add_row(
                    room["title"] if number == 0 else "", plan["title"], guests(plan["occupancy"]),
                    words(plan["meal_plan"]), Text(f"{plan['price']} {plan['currency']}", justify="right"),
                    plan["cancellation_policy"]["title"] or "", key=key)
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1), animate=False)
        else:
            self.query_one("#shop-plan", Static).update("")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value in self.plans:
            self.query_one("#shop-plan", Static).update(plan_details(self.plans[event.row_key.value][1]))

    def action_month(self, step: int) -> None:
        month = self.month
        for _ in range(abs(step)):
            month = next_month(month) if step > 0 else (month.replace(day=1) - date.resolution).replace(day=1)
        if month >= self.today.replace(day=1):
            self.month = month
            self.show_calendar()
        else:
            self.app.bell()

    def on_data_table_row_selected(self, _: DataTable.RowSelected) -> None:
        self.action_book()

    def action_book(self) -> None:
        table = self.query_one("#shop-rooms", DataTable)
        if not table.row_count:
            self.app.bell()
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        room, plan = self.plans[key]

        def booked(booking: dict[str, Any] | None) -> None:
            if booking is not None:
                self.query_one(StatusLine).news(f"Booked {booking['unique_id']}")

        self.app.push_screen(BookStayDialog(self.stay, self.property, room, plan), booked)

    def on_action_failed(self, message: ActionFailed) -> None:
        message.stop()
        text = describe(message.error)
        self.query_one(StatusLine).news(text, error=True)
        self.notify(text, title=title_for(message.error), severity="error")
