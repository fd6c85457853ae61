"""Inventory: for one property at a time, its room types, its rate plans and a calendar of
availability, rates and restrictions, each on a tab.

Everything the tabs show is read in one worker (`load_inventory`) and put on screen by the
handler of `InventoryLoaded`; a change event reads it all again, which for one property and two
weeks is a handful of small queries.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import DataTable, Label, Select, Static, TabbedContent, TabPane

from backend.inventory.models import MEAL_TYPES
from console.inventory.ari_grid import LEGEND, AriGrid
from console.inventory.data import InventoryData, load_inventory, modifiers
from console.inventory.range_dialog import RangeEditDialog
from console.inventory.rate_plan_channels import RatePlanChannelsDialog
from console.inventory.rate_plan_editor import RatePlanEditor
from console.inventory.room_type_editor import RoomTypeEditor
from console.kit.area import AreaScreen
from console.kit.workers import engine_work, post_fresh

PLAN_COLUMNS = (("Rate plan", 26), ("Room type", 20), ("Meal", 12), ("Sold", 9), ("Rate", 16),
                ("Cancellation", 12), ("Channels", 8))
# Actions that only make sense on some tabs; the footer shows them only there.
TAB_ACTIONS = {"new": {"rooms", "plans"}, "delete": {"rooms", "plans"}, "channels": {"plans"},
               "shift": {"calendar"}, "today": {"calendar"}}


class InventoryLoaded(Message):
    def __init__(self, data: InventoryData) -> None:
        super().__init__()
        self.data = data


def span(days: list[date]) -> str:
    """ "22 Nov – 5 Dec 2026" (the first year too when the span crosses one)."""
    first, last = days[0], days[-1]
    start = f"{first.day} {first:%b}" + (f" {first.year}" if first.year != last.year else "")
    return f"{start} – {last.day} {last:%b %Y}"


class InventoryScreen(AreaScreen):
    AREA = "inventory"
    NOUNS = ("room type", "room types")
    COLUMNS = (("Room type", 32), ("Rooms", 5), ("Adults", 6), ("Children", 8), ("Infants", 7), ("Default", 7),
               ("Beds", 24), ("Rate plans", 10))

    BINDINGS = [
        Binding("o", "pick_property", "Property"),
        Binding("r", "show_tab('rooms')", "Room types"),
        Binding("p", "show_tab('plans')", "Rate plans"),
        Binding("c", "show_tab('calendar')", "Calendar"),
        Binding("n", "new", "New"),
        Binding("e", "edit", "Edit"),
        Binding("d", "delete", "Delete"),
        Binding("m", "channels", "Channels"),
        Binding("left_square_bracket", "shift(-7)", "Week back", key_display="["),
        Binding("right_square_bracket", "shift(7)", "Week on", key_display="]"),
        Binding("t", "today", "Today"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: InventoryData | None = None
        self.property_id: str | None = None
        self.start: date | None = None  # None: the property's today
        self.tab = "rooms"
        self.picker_options: list[tuple[str, str]] = []

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="inventory-bar"):
            yield Label("Property", id="inventory-property-label")
            yield Select([], prompt="—", id="inventory-property", compact=True)
        with TabbedContent(id="inventory-tabs", initial="rooms"):
            with TabPane("Room types", id="rooms"):
                yield self.make_table()
            with TabPane("Rate plans", id="plans"):
                table = DataTable(cursor_type="row", zebra_stripes=True, id="plans-list")
                for label, width in PLAN_COLUMNS:
                    table.add_column(label, width=width, key=label)
                yield table
            with TabPane("Calendar", id="calendar"):
                yield Static("", id="calendar-caption", markup=False)
                yield AriGrid(id="ari")
                yield Static(LEGEND, id="ari-legend", markup=False)

    @property
    def plans_table(self) -> DataTable:
        return self.query_one("#plans-list", DataTable)

    @property
    def grid(self) -> AriGrid:
        return self.query_one(AriGrid)

    # --- loading -----------------------------------------------------------------------------

    def reload(self, page: int | None = None) -> None:
        self.seen_generation = self.app.generation
        self.load(self.property_id, self.start)

    @engine_work(exclusive=True, group="page")
    def load(self, property_id: str | None, start: date | None) -> None:
        data = load_inventory(self.app.engine, self.app.actor(), property_id, start)
        post_fresh(self, InventoryLoaded(data))

    def on_inventory_loaded(self, message: InventoryLoaded) -> None:
        data = self.data = message.data
        self.property_id = data.property["id"] if data.property else None
        self.start = data.start
        self.fill_picker(data)
        self.rows = {room["id"]: room for room in data.rooms}
        self.fill_table()
        self.fill_plans(data)
        self.grid.show(data)
        today = " · today" if data.start == data.today else ""
        self.query_one("#calendar-caption", Static).update(f"{span(data.dates)}{today} · [ ] a week back or on, "
                                                           "t today, e or enter sets a range from the night chosen")
        self.status.where(self.where())

    def fill_picker(self, data: InventoryData) -> None:
        select = self.query_one("#inventory-property", Select)
        options = [(p["title"], p["id"]) for p in data.properties]
        with self.prevent(Select.Changed):
            if options != self.picker_options:
                self.picker_options = options
                select.set_options(options)
            select.value = self.property_id or Select.NULL

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        beds = ", ".join(f"{bed['count']}× {bed['title']}" for bed in row["bed_options"]) or "—"
        plans = len(self.data.plans_of(row["id"])) if self.data else 0
        numbers = (row["count_of_rooms"], row["occ_adults"], row["occ_children"], row["occ_infants"],
                   row["default_occupancy"])
        return (row["title"], *(Text(str(n), justify="right") for n in numbers), beds, Text(str(plans), justify="right"))

    def fill_plans(self, data: InventoryData) -> None:
        table = self.plans_table
        current, index = self.current_plan_id(), table.cursor_row
        rooms = {room["id"]: room["title"] for room in data.rooms}
        table.clear()
        for plan in data.plans:
            primary = next(option for option in plan["options"] if option["is_primary"])
            policy = plan["cancellation_policy"]["cancellation_policy_logic"].replace("_", " ")
            parent = data.parent_of(plan)
            rate = (f"{modifiers(plan)} of {parent['title'] if parent else '?'}" if plan["rate_mode"] == "derived"
                    else f"{primary['rate']} {plan['currency']}")
            table.add_row(plan["title"], rooms.get(plan["room_type_id"], ""), MEAL_TYPES[plan["meal_type"]],
                          plan["sell_mode"].replace("_", " "), Text(rate, justify="right"), policy,
                          Text(str(len(data.channels_of(plan["id"]))), justify="right"), key=plan["id"])
        ids = [plan["id"] for plan in data.plans]
        if current in ids:
            table.move_cursor(row=ids.index(current), animate=False)
        elif ids:
            table.move_cursor(row=min(index, len(ids) - 1), animate=False)

    def where(self) -> str:
        data = self.data
        if data is None or data.property is None:
            return "No properties yet: add one under 1 Properties"
        rooms, plans = len(data.rooms), len(data.plans)
        return (f"{data.property['title']} · {rooms} room type{'s' if rooms != 1 else ''} · "
                f"{plans} rate plan{'s' if plans != 1 else ''} · calendar {span(data.dates)}")

    def current_plan(self) -> dict[str, Any] | None:
        plan_id = self.current_plan_id()
        return next((plan for plan in self.data.plans if plan["id"] == plan_id), None) if self.data else None

    def current_plan_id(self) -> str | None:
        table = self.plans_table
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    # --- picking a property, tabs and dates --------------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "inventory-property" and event.value is not Select.NULL \
                and event.value != self.property_id:
            self.property_id = str(event.value)
            self.start = None  # the new property's own today
            self.reload()

    def action_pick_property(self) -> None:
        select = self.query_one("#inventory-property", Select)
        select.focus()
        select.expanded = True

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.tab = event.pane.id or "rooms"
        self.refresh_bindings()
        {"rooms": self.table, "plans": self.plans_table, "calendar": self.grid}[self.tab].focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        tabs = TAB_ACTIONS.get(action)
        return tabs is None or self.tab in tabs

    def action_shift(self, days: int) -> None:
        if self.start is not None:
            self.start += timedelta(days=days)
            self.reload()

    def action_today(self) -> None:
        self.start = None
        self.reload()

    # --- acting on what is selected ----------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_edit()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        self.action_edit()

    def action_new(self) -> None:
        data = self.data
        if data is None or data.property is None:
            return
        if self.tab == "rooms":
            self.app.push_screen(RoomTypeEditor(data.property, None))
        elif not data.rooms:
            self.notify("Add a room type first: a rate plan sells one", severity="warning")
        else:
            plan = self.current_plan()
            self.app.push_screen(RatePlanEditor(data.property, data.rooms, data.plans, None,
                                                plan["room_type_id"] if plan else None))

    def action_edit(self) -> None:
        data = self.data
        if data is None or data.property is None:
            return
        if self.tab == "rooms" and (room := self.current_row()):
            self.app.push_screen(RoomTypeEditor(data.property, room))
        elif self.tab == "plans" and (plan := self.current_plan()):
            self.app.push_screen(RatePlanEditor(data.property, data.rooms, data.plans, plan))
        elif self.tab == "calendar" and (chosen := self.grid.current()):
            row, day = chosen
            parent = data.parent_of(row.plan) if row.plan else None
            self.app.push_screen(RangeEditDialog(data.property["id"], row, day, parent), self.range_saved)

    def range_saved(self, warnings: list[dict[str, Any]] | None) -> None:
        if warnings is None:
            return  # cancelled
        if warnings:
            text = "; ".join(warning["message"] for warning in warnings)
            self.status.news(f"Saved, with warnings: {text}", error=True)
            self.notify(text, title="Saved, with warnings", severity="warning")
        else:
            self.status.news("Saved")

    def action_delete(self) -> None:
        if self.tab == "rooms" and (room := self.current_row()):
            self.confirm_then_act(f"Delete room type “{room['title']}”?",
                                  "Its rate plans, availability, rates and restrictions go with it. "
                                  "This can't be undone.", lambda: self.delete_room(room))
        elif self.tab == "plans" and (plan := self.current_plan()):
            self.confirm_then_act(f"Delete rate plan “{plan['title']}”?",
                                  "Its rates and restrictions go with it. This can't be undone.",
                                  lambda: self.delete_plan(plan))

    def delete_room(self, room: dict[str, Any]) -> str:
        self.app.engine.inventory.room_types.delete(self.app.actor(), room["id"])
        return f"Deleted room type “{room['title']}”"

    def delete_plan(self, plan: dict[str, Any]) -> str:
        self.app.engine.inventory.rate_plans.delete(self.app.actor(), plan["id"])
        return f"Deleted rate plan “{plan['title']}”"

    def action_channels(self) -> None:
        if plan := self.current_plan():
            self.app.push_screen(RatePlanChannelsDialog(plan))
