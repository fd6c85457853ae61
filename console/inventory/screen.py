"""Inventory: for one property at a time, its room types, its rate plans and a calendar of
availability, rates and restrictions, each on a tab.

Everything the tabs show is read in one worker (`load_inventory`) and put on screen by the
handler of `InventoryLoaded`; a change event reads it all again, which for one property and the
nights the width holds is a handful of small queries. The rate plan list's rates are the calendar's
first night's, from the same read: the list and the calendar never disagree.

On the calendar, shift+arrows select nights and rows and `e` sets a range over them; `j` jumps to a
date; `u` takes back the last range edit made in this console (the engine puts back exactly what it
replaced), and `u` again puts it back.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import DataTable, Label, Static, TabbedContent, TabPane

from backend.inventory.ari import Edit
from backend.inventory.models import MEAL_TYPES
from backend.inventory.undo import Undo
from console.inventory.ari_grid import LEGEND, SHORT_LEGEND, AriGrid, Selection, label_width, nights_that_fit
from console.inventory.data import NIGHTS, InventoryData, load_inventory, modifiers
from console.inventory.jump import JumpDialog
from console.inventory.keys import INVENTORY
from console.inventory.range_dialog import RangeEditDialog
from console.inventory.rate_plan_channels import RatePlanChannelsDialog
from console.inventory.rate_plan_editor import RatePlanEditor
from console.inventory.room_type_editor import RoomTypeEditor
from console.inventory.summary import edited
from console.kit.area import TabbedArea
from console.kit.choice import Choice
from console.kit.fit_table import FitTable, Fitted
from console.kit.labels import plain
from console.kit.words import counted
from console.kit.workers import engine_work, post_fresh

PLAN_COLUMNS = (("Rate plan", 26), ("Room type", 18), ("Meal", 12), ("Sold", 10), ("Rate", 16),
                ("Cancellation", 12), ("Channels", 8))
PLAN_DROP = ("Sold", "Cancellation", "Meal", "Channels", "Room type")
MARGINS = 2  # the calendar's, left and right
# Actions that only make sense on some tabs; the footer shows them only there.
TAB_ACTIONS = {"new": {"rooms", "plans"}, "delete": {"rooms", "plans"}, "channels": {"plans"},
               "shift": {"calendar"}, "today": {"calendar"}, "jump": {"calendar"}, "undo": {"calendar"}}


class InventoryLoaded(Message):
    def __init__(self, data: InventoryData) -> None:
        super().__init__()
        self.data = data


class Undone(Message):
    def __init__(self, edit: Edit) -> None:
        super().__init__()
        self.edit = edit


def span(days: list[date]) -> str:
    """ "22 Nov – 5 Dec 2026" (the first year too when the span crosses one)."""
    first, last = days[0], days[-1]
    start = f"{first.day} {first:%b}" + (f" {first.year}" if first.year != last.year else "")
    return f"{start} – {last.day} {last:%b %Y}"


def short_span(selection: Selection) -> str:
    """ "24–27 Nov", "30 Nov – 2 Dec", "24 Nov"."""
    first, last = selection.first, selection.last
    if first == last:
        return f"{first.day} {first:%b}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{last.day} {last:%b}"
    return f"{first.day} {first:%b} – {last.day} {last:%b}"


class InventoryScreen(TabbedArea):
    WATCHES = ("inventory.", "ari.", "booking.", "property.", "channel.")  # availability moves with bookings
    AREA = "inventory"
    NOUNS = ("room type", "room types")
    COLUMNS = (("Room type", 24), ("Rooms", 5), ("Adults", 6), ("Children", 8), ("Infants", 7), ("Default", 7),
               ("Beds", 24), ("Rate plans", 10))
    FLEX = "Room type"
    DROP = ("Beds", "Infants", "Default", "Children")

    BINDINGS = INVENTORY

    def __init__(self) -> None:
        super().__init__()
        self.data: InventoryData | None = None
        self.property_id: str | None = None
        self.start: date | None = None  # None: the property's today
        self.tab = "rooms"
        self.picker_options: list[tuple[str, str]] = []
        self.nights = NIGHTS  # until the width is known
        self.cursor_day: date | None = None  # where a jump put the cursor, once the calendar shows it
        self.undo: Undo | None = None  # what takes back the last range edit of this console, or its undo
        self.undo_verb = "Undone"  # what pressing u next does: Undone, or Redone after an undo

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="inventory-bar"):
            yield Label("Property", id="inventory-property-label")
            yield Choice([], prompt="—", id="inventory-property")
        with TabbedContent(id="inventory-tabs", initial="rooms"):
            with TabPane("Room types", id="rooms"):
                yield self.make_table()
            with TabPane("Rate plans", id="plans"):
                yield FitTable(PLAN_COLUMNS, "Rate", PLAN_DROP, cursor_type="row", zebra_stripes=True, id="plans-list")
            with TabPane("Calendar", id="calendar"):
                yield Static("", id="calendar-caption", markup=False)
                yield AriGrid(id="ari")
                yield Static(LEGEND, id="ari-legend", classes="roomy", markup=False)
                yield Static(SHORT_LEGEND, id="ari-short-legend", classes="narrow", markup=False)

    @property
    def plans_table(self) -> FitTable:
        return self.query_one("#plans-list", FitTable)

    @property
    def grid(self) -> AriGrid:
        return self.query_one(AriGrid)

    # --- loading -----------------------------------------------------------------------------

    def reload(self, page: int | None = None) -> None:
        self.seen_generation = self.app.generation
        self.nights = nights_that_fit(self.calendar_width())
        self.load(self.property_id, self.start)

    def calendar_width(self) -> int:
        return (self.size.width or self.app.size.width) - MARGINS

    @engine_work(exclusive=True, group="page")
    def load(self, property_id: str | None, start: date | None) -> None:
        data = load_inventory(self.app.engine, self.app.actor(), property_id, start, self.nights)
        post_fresh(self, InventoryLoaded(data))

    def on_resize(self, _: events.Resize) -> None:
        """As many nights as the calendar's width holds: fewer at 80 columns, four weeks at 200."""
        if nights_that_fit(self.calendar_width()) != self.nights:
            self.reload()

    def on_inventory_loaded(self, message: InventoryLoaded) -> None:
        data = self.data = message.data
        self.property_id = data.property["id"] if data.property else None
        self.start = data.start
        self.fill_picker(data)
        self.rows = {room["id"]: room for room in data.rooms}
        self.fill_table()
        self.fill_plans(data)
        self.grid.show(data, label_width(self.calendar_width()))
        if self.cursor_day in data.dates:
            self.grid.move_cursor(column=data.dates.index(self.cursor_day) + 1, animate=False)
        self.cursor_day = None
        self.caption()
        self.status.where(self.where())

    def caption(self) -> None:
        """The nights shown, and the selection while there is one."""
        data, block = self.data, self.grid.block
        if data is None:
            return
        text = span(data.dates) + (" · today" if data.start == data.today else "")
        if block is None:
            text += " · shift+arrows choose nights and rows"
        else:
            text += f" · {short_span(block)} × {counted(len(block.rows), 'row')} chosen: e edits, esc lets go"
        self.query_one("#calendar-caption", Static).update(text)

    def on_ari_grid_selection_changed(self, _: AriGrid.SelectionChanged) -> None:
        self.caption()

    def fill_picker(self, data: InventoryData) -> None:
        choice = self.query_one("#inventory-property", Choice)
        options = [(p["title"], p["id"]) for p in data.properties]
        with self.prevent(Choice.Changed):
            if options != self.picker_options:
                self.picker_options = options
                choice.set_options(options)
            choice.value = self.property_id

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        beds = ", ".join(f"{bed['count']}× {bed['title']}" for bed in row["bed_options"]) or "—"
        plans = len(self.data.plans_of(row["id"])) if self.data else 0
        numbers = (row["count_of_rooms"], row["occ_adults"], row["occ_children"], row["occ_infants"],
                   row["default_occupancy"])
        return (row["title"], *(Text(str(n), justify="right") for n in numbers), beds, Text(str(plans), justify="right"))

    def fill_plans(self, data: InventoryData) -> None:
        """Each plan with the rate of the calendar's first night, as the calendar shows it; a derived plan named
        with its parent, as in the calendar, and its modifiers beside its rate where the column has room."""
        table = self.plans_table
        current, index = self.current_plan_id(), table.cursor_row
        rooms = {room["id"]: room["title"] for room in data.rooms}
        table.relabel("Rate", f"Rate {data.start.day} {data.start:%b}")
        table.clear()
        for plan in data.plans:
            policy = plan["cancellation_policy"]["cancellation_policy_logic"].replace("_", " ")
            rate = data.rate_on(plan, data.start)
            parent = data.parent_of(plan) if plan["rate_mode"] == "derived" else None
            title = plan["title"] + (f" ← {parent['title']}" if parent else "")
            table.add_row(Text(title, overflow="ellipsis", no_wrap=True), rooms.get(plan["room_type_id"], ""),
                          MEAL_TYPES[plan["meal_type"]], plan["sell_mode"].replace("_", " "),
                          Fitted(Text(f"{rate} {plan['currency']}" if rate else "no rate"),
                                 modifiers(plan) if parent else None),
                          policy, Text(str(len(data.channels_of(plan["id"]))), justify="right"), key=plan["id"])
        ids = [plan["id"] for plan in data.plans]
        if current in ids:
            table.move_cursor(row=ids.index(current), animate=False)
        elif ids:
            table.move_cursor(row=min(index, len(ids) - 1), animate=False)

    def where(self) -> str:
        data = self.data
        if data is None or data.property is None:
            return "No properties yet: add one under 1 Properties"
        rooms, plans = counted(len(data.rooms), "room type"), counted(len(data.plans), "rate plan")
        # The property is named in the bar above, the calendar's nights in its caption: short enough for 80 columns.
        return {"rooms": rooms, "plans": plans}.get(self.tab, f"{rooms} · {plans}")

    def current_plan(self) -> dict[str, Any] | None:
        plan_id = self.current_plan_id()
        return next((plan for plan in self.data.plans if plan["id"] == plan_id), None) if self.data else None

    def current_plan_id(self) -> str | None:
        table = self.plans_table
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    # --- picking a property, tabs and dates --------------------------------------------------

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "inventory-property" and event.value is not None and event.value != self.property_id:
            self.property_id = str(event.value)
            self.start = None  # the new property's own today
            self.reload()

    def action_pick_property(self) -> None:
        choice = self.query_one("#inventory-property", Choice)
        choice.focus()
        choice.action_open()

    def tab_focus(self, tab: str) -> DataTable:
        return {"rooms": self.table, "plans": self.plans_table, "calendar": self.grid}[tab]

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.tab = event.pane.id or "rooms"
        self.refresh_bindings()
        self.tab_focus(self.tab).focus()
        self.status.where(self.where())
        self.show_hidden()

    def on_fit_table_columns_hidden(self, _: FitTable.ColumnsHidden) -> None:
        self.show_hidden()

    def show_hidden(self) -> None:
        """The columns the shown tab's list leaves out, for the status line (the calendar leaves out none)."""
        shown = {"rooms": self.table, "plans": self.plans_table}.get(self.tab)
        self.status.columns_hidden(shown.hidden if isinstance(shown, FitTable) else ())

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

    def action_jump(self) -> None:
        if self.data is None or self.data.property is None:
            return

        def jumped(day: date | None) -> None:
            if day is not None:
                self.start = self.cursor_day = day
                self.reload()

        self.app.push_screen(JumpDialog(self.data.today), jumped)

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
        elif self.tab == "calendar" and (selection := self.grid.selection()):
            chosen = self.grid.current()
            parents = {plan["id"]: data.parent_of(plan) for plan in selection.plans}
            self.app.push_screen(RangeEditDialog(data.property["id"], selection, chosen[0].kind, parents),
                                 self.range_saved)

    def range_saved(self, edit: Edit | None) -> None:
        if edit is not None:  # else cancelled
            self.undo, self.undo_verb = edit.undo, "Undone"
            self.tell(edited("Saved", edit.undo, edit.warnings), edit.warnings)

    def tell(self, text: str, warnings: list[dict[str, Any]]) -> None:
        self.status.news(text, error=bool(warnings))
        if warnings:
            self.notify("; ".join(plain(warning["message"]) for warning in warnings), title="Done, with warnings",
                        severity="warning")

    def action_undo(self) -> None:
        if self.undo is None or not self.undo.nights:
            self.status.news("Nothing to undo: u takes back the last range edit made in this console", error=True)
            return
        self.take_back(self.undo)

    @engine_work(exclusive=True, group="action")
    def take_back(self, undo: Undo) -> None:
        self.post_message(Undone(self.app.engine.inventory.ari.undo(self.app.actor(), undo)))

    def on_undone(self, message: Undone) -> None:
        verb = self.undo_verb
        self.undo, self.undo_verb = message.edit.undo, "Redone" if verb == "Undone" else "Undone"
        self.tell(edited(verb, message.edit.undo, message.edit.warnings), message.edit.warnings)

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
