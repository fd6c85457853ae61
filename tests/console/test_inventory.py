"""The Inventory area: room types, rate plans and the ARI calendar of a property, over the demo data
with a frozen clock (the demo's dates and the calendar's "today" both come from it)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from textual.pilot import Pilot

from backend.channels.service import mapped_plan_ids
from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inventory.ari_grid import AriGrid
from console.inventory.jump import JumpDialog
from console.inventory.range_dialog import RangeEditDialog
from console.inventory.rate_plan_channels import RatePlanChannelsDialog
from console.inventory.rate_plan_editor import RatePlanEditor
from console.inventory.room_type_editor import RoomTypeEditor
from console.inventory.screen import InventoryScreen
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from console.kit.item_list import ItemRow
from console.kit.section import Section
from tests.console.helpers import SIZE, error_text, fill, frozen_clock, press_for, save_refused, settle, type_text

pytestmark = pytest.mark.anyio  # the snapshot tests at the end are plain functions; anyio leaves them be

HOTEL = "Hotel Edelweiss"
DOUBLE = "Double Room Matterhorn View"


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def ids(engine: Engine) -> dict[str, str]:
    """Property, room type and rate plan ids of the hotel, by title (plans as "room / plan")."""
    actor = engine.identity.operator()
    hotel = next(p["id"] for p in engine.properties.options(actor) if p["title"] == HOTEL)
    rooms = {r["id"]: r["title"] for r in engine.inventory.room_types.for_property(actor, hotel)}
    found = {HOTEL: hotel, **{title: room_id for room_id, title in rooms.items()}}
    for plan in engine.inventory.rate_plans.for_property(actor, hotel):
        found[f"{rooms[plan['room_type_id']]} / {plan['title']}"] = plan["id"]
    return found


def week(engine: Engine, property_id: str) -> ListQuery:
    return ListQuery.from_params([("filter[property_id]", property_id), ("filter[date][gte]", "2026-11-22"),
                                  ("filter[date][lte]", "2026-11-30")])


async def open_inventory(pilot: Pilot, tab: str = "rooms") -> InventoryScreen:
    """The Inventory area on the hotel, showing one tab."""
    await settle(pilot)
    screen = await press_for(pilot, "3", InventoryScreen)
    screen.query_one("#inventory-property", Choice).value = ids(pilot.app.engine)[HOTEL]
    await settle(pilot)
    await pilot.press({"rooms": "r", "plans": "p", "calendar": "c"}[tab])
    await settle(pilot)
    return screen


def put_cursor(screen: InventoryScreen, row_key: str, day: str) -> None:
    grid = screen.query_one(AriGrid)
    grid.move_cursor(row=grid.get_row_index(row_key), column=grid.days.index(datetime.fromisoformat(day).date()) + 1)


async def open_range(pilot: Pilot, row_key: str, day: str) -> RangeEditDialog:
    screen = await open_inventory(pilot, "calendar")
    put_cursor(screen, row_key, day)
    return await press_for(pilot, "e", RangeEditDialog)


# --- room types ----------------------------------------------------------------------------------

async def test_lists_the_room_types_of_the_picked_property(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot)
        assert [row["title"] for row in screen.rows.values()] == [DOUBLE, "Junior Suite", "Single Room"]
        assert [plan["title"] for plan in screen.data.plans_of(ids(engine)["Single Room"])] == [
            "Best Available Rate", "Non-refundable with breakfast"]


async def test_creates_a_room_type(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_inventory(pilot)
        editor = await press_for(pilot, "n", RoomTypeEditor)
        await type_text(pilot, "Family Suite")
        fill(editor, {"count_of_rooms": "2", "occ_adults": "4", "occ_children": "2",
                      "facilities": "Balcony\n\nBathtub\n"})
        beds = editor.lists["bed_options"]
        await pilot.click(beds.control)
        await settle(pilot)
        [bed] = beds.query(ItemRow)
        bed.fields["title"].value = "Bunk bed"
        bed.fields["count"].value = "2"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InventoryScreen)
        assert "Family Suite" in [row["title"] for row in app.screen.rows.values()]
    [room] = [r for r in engine.inventory.room_types.for_property(engine.identity.operator(), ids(engine)[HOTEL])
              if r["title"] == "Family Suite"]
    assert (room["count_of_rooms"], room["occ_adults"], room["occ_children"], room["default_occupancy"]) == (2, 4, 2, 4)
    assert room["facilities"] == ["Balcony", "Bathtub"]
    assert room["bed_options"] == [{"title": "Bunk bed", "count": 2, "size": None}]


async def test_room_type_editor_keeps_the_content_it_does_not_show(make_app, engine: Engine) -> None:
    """The room's `content` shows as its description and photos; a photo's kind and description (the service's
    fields, set over HTTP) survive a save, and a bad photo shows its message beside the photo."""
    operator, room_id = engine.identity.operator(), ids(engine)["Single Room"]
    photo = {"url": "https://cdn.example/single.jpg", "title": "Garden side", "kind": "ad", "description": "Garden"}
    [stored] = engine.inventory.room_types.update(operator, room_id, {"content": {"description": "Cosy.", "photos": [
        photo]}})["content"]["photos"]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot)
        screen.table.move_cursor(row=screen.table.get_row_index(room_id))
        editor = await press_for(pilot, "e", RoomTypeEditor)
        assert editor.fields["description"].value == "Cosy."
        [row] = editor.lists["photos"].query(ItemRow)
        assert row.fields["title"].value == "Garden side"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InventoryScreen)
        [saved] = engine.inventory.room_types.get(operator, room_id)["content"]["photos"]
        assert {k: saved[k] for k in (*photo, "author", "position", "id")} == {
            **photo, "author": None, "position": 0, "id": stored["id"]}  # the same photo, not a new one
        editor = await press_for(pilot, "e", RoomTypeEditor)
        [row] = editor.lists["photos"].query(ItemRow)
        row.fields["url"].value = "ftp://single.jpg"
        await save_refused(pilot, editor)
        assert row.fields["url"].has_errors


async def test_refused_room_type_shows_the_messages_beside_the_fields(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_inventory(pilot)
        editor = await press_for(pilot, "n", RoomTypeEditor)
        fill(editor, {"title": "Broom Cupboard", "occ_adults": "0"})
        await save_refused(pilot, editor)
        assert editor.fields["occ_adults"].has_errors
        assert "must be at least 1" in error_text(editor, "occ_adults")
    assert "Broom Cupboard" not in ids(engine)


async def test_deletes_a_room_type_after_asking(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot)
        screen.table.move_cursor(row=screen.table.get_row_index(ids(engine)["Single Room"]))
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert [row["title"] for row in screen.rows.values()] == [DOUBLE, "Junior Suite"]
    assert "Single Room" not in ids(engine)


# --- rate plans ----------------------------------------------------------------------------------

async def open_plan(pilot: Pilot, key: str) -> RatePlanEditor:
    screen = await open_inventory(pilot, "plans")
    table = screen.plans_table
    table.move_cursor(row=table.get_row_index(ids(pilot.app.engine)[key]))
    return await press_for(pilot, "e", RatePlanEditor)


async def test_edits_a_rate_plan_option(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_plan(pilot, f"{DOUBLE} / Best Available Rate")
        single, _ = editor.lists["options"].query(ItemRow)
        assert single.fields["rate"].value == "252.00"
        single.fields["rate"].value = "240.50"
        editor.fields["meal_type"].value = "bed_and_breakfast"
        assert editor.query_one("#form").query(Section)[-1].held  # the taxes, out of view: sent unbuilt
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InventoryScreen)
    plan = engine.inventory.rate_plans.get(engine.identity.operator(), ids(engine)[f"{DOUBLE} / Best Available Rate"])
    assert [(o["occupancy"], o["is_primary"], o["rate"]) for o in plan["options"]] == [(1, False, "240.50"),
                                                                                      (2, True, "280.00")]
    assert plan["meal_type"] == "bed_and_breakfast"
    assert plan["closed_to_arrival"] == [False] * 7  # the weekday defaults, sent back as they were
    assert plan["taxes"][0]["title"] == "City tax"  # untouched rows are sent back as they were


async def test_refused_rate_plan_option_names_the_row(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_plan(pilot, f"{DOUBLE} / Best Available Rate")
        _, double = editor.lists["options"].query(ItemRow)
        double.fields["occupancy"].value = "9"
        await save_refused(pilot, editor)
        assert "must not exceed the room's capacity of 3" in error_text(double, "occupancy")
        assert "Option 2 guests" in str(editor.query_one("#summary").render())


async def test_a_refused_save_builds_the_section_its_message_is_in(make_app, engine: Engine) -> None:
    """A message about a field of a section not yet built (the taxes, out of view) builds it, and focuses the field."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_plan(pilot, f"{DOUBLE} / Best Available Rate")
        taxes = editor.query_one("#form").query(Section)[-1]
        [tax] = editor.lists["taxes"].rows
        assert taxes.held and not tax.is_attached
        tax.fields["rate"].value = "lots"  # as if stored so: the engine refuses it as sent back
        await save_refused(pilot, editor)
        assert not taxes.held and tax.fields["rate"].has_errors and app.focused is tax.fields["rate"].control
        assert "Tax 1 rate" in str(editor.query_one("#summary").render())


async def test_a_refused_save_selects_the_bad_fields_text(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_plan(pilot, f"{DOUBLE} / Best Available Rate")
        currency = editor.fields["currency"].control
        currency.focus()
        await type_text(pilot, "EURO")  # still in the field when saving: typing again replaces it
        await save_refused(pilot, editor)
        assert app.focused is currency and currency.selected_text == currency.value == "EURO"


async def test_maps_a_rate_plan_to_a_channel(make_app, engine: Engine) -> None:
    app = make_app()
    key = f"{DOUBLE} / Best Available Rate"
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "plans")
        screen.plans_table.move_cursor(row=screen.plans_table.get_row_index(ids(engine)[key]))
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, RatePlanChannelsDialog)
        await pilot.press("space")  # Booking.com, the first channel the hotel is connected to
        await settle(pilot)
    channel = next(c for c in engine.channels.for_property(engine.identity.operator(), ids(engine)[HOTEL])
                   if c["title"] == "Booking.com")
    assert ids(engine)[key] not in mapped_plan_ids(channel)


async def test_creates_a_derived_rate_plan_with_its_modifiers(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_inventory(pilot, "plans")
        editor = await press_for(pilot, "n", RatePlanEditor)
        assert not editor.query_one("#derived-pricing").display  # a manual plan shows no parent or modifiers
        fill(editor, {"title": "Early bird", "room_type_id": ids(engine)["Single Room"], "rate_mode": "derived"})
        await settle(pilot)
        assert editor.query_one("#derived-pricing").display
        fill(editor, {"parent_rate_plan_id": ids(engine)["Single Room / Best Available Rate"],
                      "inherit_stop_sell": True, "min_stay_arrival": "1 1 1 1 2 2 1"})
        [option] = editor.lists["options"].query(ItemRow)
        option.fields["occupancy"].value = "1"
        modifiers = editor.lists["derived"]
        for rule, value in (("decrease_by_percent", "20"), ("increase_by_amount", "4.50")):
            await pilot.click(modifiers.control)
            await settle(pilot)
            row = list(modifiers.query(ItemRow))[-1]
            row.fields["rule"].value, row.fields["value"].value = rule, value
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InventoryScreen), str(editor.query_one("#summary").render())
        table = app.screen.plans_table
        title, *_, rate, _, _ = table.get_row(ids(engine)["Single Room / Early bird"])
        assert title.plain == "Early bird ← Best Available Rate"
        # The calendar's first night's rate, 160.00 less 20% plus 4.50; its modifiers where the column has room
        assert (rate.main.plain, rate.detail) == ("132.50 CHF", "−20% +4.50")
    plan = engine.inventory.rate_plans.get(engine.identity.operator(), ids(engine)["Single Room / Early bird"])
    assert plan["rate_mode"] == "derived" and plan["inherit_stop_sell"] and not plan["inherit_closed_to_arrival"]
    assert plan["options"][0]["derived_option"] == {"rate": [["decrease_by_percent", "20"],
                                                             ["increase_by_amount", "4.50"]]}
    assert plan["min_stay_arrival"] == [1, 1, 1, 1, 2, 2, 1]
    nights = engine.inventory.ari.restrictions(engine.identity.operator(), week(engine, ids(engine)[HOTEL]))
    assert nights[plan["id"]]["2026-11-23"]["rate"] == "132.50"  # 160.00 less 20%, plus 4.50


async def test_a_refused_modifier_shows_beside_its_row(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_plan(pilot, f"{DOUBLE} / Member rate")
        [modifier] = editor.lists["derived"].query(ItemRow)
        modifier.fields["value"].value = "150"  # more than all of it
        await save_refused(pilot, editor)
        assert "can't take off more than 100 percent" in error_text(modifier, "value"), str(
            editor.query_one("#summary").render())
        assert "Modifier 1" in str(editor.query_one("#summary").render())


# --- the calendar --------------------------------------------------------------------------------

async def test_the_calendar_starts_on_the_propertys_today(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        grid = screen.query_one(AriGrid)
        assert grid.days[0].isoformat() == "2026-11-22" and len(grid.days) == 12  # what 120 columns hold
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert grid.days[0].isoformat() == "2026-11-29"
        await pilot.press("t")
        await settle(pilot)
        assert grid.days[0].isoformat() == "2026-11-22"


async def test_range_edit_sets_availability_on_some_weekdays(make_app, engine: Engine) -> None:
    app = make_app()
    room = ids(engine)[DOUBLE]
    before = engine.inventory.ari.availability(engine.identity.operator(), week(engine, ids(engine)[HOTEL]))[room]
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"availability:{room}", "2026-11-23")
        assert dialog.fields["date_from"].value == "2026-11-23"
        fill(dialog, {"date_to": "2026-11-30", "days": "Sa, su"})
        await type_text(pilot, "5")  # the focus starts on the number of rooms
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InventoryScreen)
        assert str(app.screen.query_one("#status-news").render()) == (
            "Saved 2 nights of Double Room Matterhorn View · u undoes")
    nights = engine.inventory.ari.availability(engine.identity.operator(), week(engine, ids(engine)[HOTEL]))[room]
    assert nights == {**before, "2026-11-28": 5, "2026-11-29": 5}  # a Saturday and a Sunday
    assert before["2026-11-28"] != 5


async def test_range_edit_of_restrictions_shows_the_engines_warning(make_app, engine: Engine) -> None:
    app = make_app()
    plan = ids(engine)[f"{DOUBLE} / Best Available Rate"]
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"rate:{plan}", "2026-11-24")
        fill(dialog, {"rate": "99", "min_stay_arrival": "3", "stop_sell": True})
        await press_for(pilot, "ctrl+s", ConfirmDialog)  # 280 down to 120 (min_price) is more than half
        await press_for(pilot, "y", InventoryScreen)
        news = str(app.screen.query_one("#status-news").render())
        assert "99.00 is beyond min_price 120.00; stored as min_price" in news
    nights = engine.inventory.ari.restrictions(engine.identity.operator(), week(engine, ids(engine)[HOTEL]))[plan]
    assert {k: v for k, v in nights["2026-11-24"].items() if k != "availability"} == {
        "rate": "120.00", "min_stay_arrival": 3, "min_stay_through": 1, "min_stay": 3, "max_stay": 0,
        "closed_to_arrival": False, "closed_to_departure": False, "stop_sell": True, "availability_offset": 0,
        "max_sell": None, "max_availability": None}
    assert nights["2026-11-25"]["rate"] == "280.00"


async def test_refused_range_edit_shows_the_message_and_changes_nothing(make_app, engine: Engine) -> None:
    app = make_app()
    room = ids(engine)[DOUBLE]
    before = engine.inventory.ari.availability(engine.identity.operator(), week(engine, ids(engine)[HOTEL]))
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"availability:{room}", "2026-11-22")
        fill(dialog, {"date_from": "2026-11-20", "availability": "0"})
        await save_refused(pilot, dialog)
        assert dialog.fields["date_from"].has_errors
        assert "is in the past (today is 2026-11-22 at the property)" in error_text(dialog, "date_from")
    assert engine.inventory.ari.availability(engine.identity.operator(), week(engine, ids(engine)[HOTEL])) == before


async def test_the_calendar_marks_what_a_derived_plan_takes_from_its_parent(make_app, engine: Engine) -> None:
    app = make_app()
    member, parent = ids(engine)[f"{DOUBLE} / Member rate"], ids(engine)[f"{DOUBLE} / Best Available Rate"]
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        grid = screen.query_one(AriGrid)
        label = {key: str(grid.get_row(key)[0]) for key in (f"rate:{member}", f"closed:{member}", f"stay:{member}")}
        assert label == {f"rate:{member}": "   Member rate ← Best Available Rate",
                         f"closed:{member}": "     closed (S A inherited)", f"stay:{member}": "     stay (a inherited)"}
        rate = grid.get_row(f"rate:{member}")[1]
        assert str(rate) == "252" and any("underline" in str(span.style) for span in rate.spans)  # 280 less 10%
        assert not grid.get_row(f"rate:{parent}")[1].spans
        sunday = grid.get_row(f"closed:{member}")[1]  # 22 Nov, a Sunday: the parent's closed to arrival
        assert str(sunday) == "A" and any("underline" in str(span.style) for span in sunday.spans)
        assert "underlined: from the parent plan" in str(screen.query_one("#ari-legend").render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_rates_with_cents_never_run_together(make_app, engine: Engine, size: tuple[int, int]) -> None:
    """552.50 and its member rate 497.25 night after night read as separate figures at every width; a rate too long
    for a night's cell is rounded and marked, not cut."""
    parent = ids(engine)[f"{DOUBLE} / Best Available Rate"]
    engine.inventory.ari.set_restrictions(engine.identity.operator(), [
        {"property_id": ids(engine)[HOTEL], "rate_plan_id": parent, "date_from": "2026-11-22",
         "date_to": "2026-11-24", "rate": "552.50"},
        {"property_id": ids(engine)[HOTEL], "rate_plan_id": parent, "date_from": "2026-11-25",
         "date_to": "2026-11-25", "rate": "1250.50"}])
    async with make_app().run_test(size=size) as pilot:
        screen = await open_inventory(pilot, "calendar")
        grid = screen.query_one(AriGrid)
        lines = [grid.render_line(y).text for y in range(grid.size.height)]
        assert "552.50 552.50 552.50  ≈1251" in next(line for line in lines if "552.50" in line)
        assert "497.25 497.25 497.25" in next(line for line in lines if "497.25" in line)  # 552.50 less 10%


async def test_the_range_dialog_of_a_derived_plan_leaves_its_parents_values_alone(make_app, engine: Engine) -> None:
    app = make_app()
    member = ids(engine)[f"{DOUBLE} / Member rate"]
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"rate:{member}", "2026-11-24")
        assert dialog.fields["rate"].control.disabled and dialog.fields["stop_sell"].control.disabled
        assert dialog.fields["rate"].control.placeholder == "from Best Available Rate"
        assert not dialog.fields["min_stay_through"].control.disabled
        fill(dialog, {"min_stay_through": "3"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, InventoryScreen)
    nights = engine.inventory.ari.restrictions(engine.identity.operator(), week(engine, ids(engine)[HOTEL]))[member]
    assert nights["2026-11-24"]["min_stay_through"] == 3


# --- choosing a range, jumping, confirming and undoing ----------------------------------------------

def ari(engine: Engine, first: str, last: str) -> tuple[dict, dict]:
    """The hotel's availability and restrictions from first to last, as the engine reads them."""
    query = ListQuery.from_params([("filter[property_id]", ids(engine)[HOTEL]), ("filter[date][gte]", first),
                                   ("filter[date][lte]", last)])
    operator = engine.identity.operator()
    return engine.inventory.ari.availability(operator, query), engine.inventory.ari.restrictions(operator, query)


def stored(engine: Engine, plan_id: str) -> list[tuple]:
    """A plan's nights as stored: only the values they have of their own, NULL for the rest."""
    return [tuple(row) for row in engine.store.query("SELECT * FROM restrictions WHERE rate_plan_id = ? ORDER BY date",
                                                     (plan_id,))]


async def test_shift_arrows_choose_nights_and_rows_and_e_sets_them(make_app, engine: Engine) -> None:
    app = make_app()
    room, plan = ids(engine)[DOUBLE], ids(engine)[f"{DOUBLE} / Best Available Rate"]
    before = ari(engine, "2026-11-22", "2026-11-27")[0][room]
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        put_cursor(screen, f"availability:{room}", "2026-11-23")
        await pilot.press("shift+right", "shift+right", "shift+right", "shift+down", "shift+down")
        await settle(pilot)
        grid = screen.query_one(AriGrid)
        assert [row.key for row in grid.block.rows] == [f"availability:{room}", f"rate:{plan}", f"closed:{plan}"]
        assert "23–26 Nov × 3 rows chosen" in str(screen.query_one("#calendar-caption").render())
        assert grid.selected(grid.get_row_index(f"closed:{plan}"), grid.days.index(datetime(2026, 11, 26).date()) + 1)
        dialog = await press_for(pilot, "e", RangeEditDialog)
        assert (dialog.fields["date_from"].value, dialog.fields["date_to"].value) == ("2026-11-23", "2026-11-26")
        assert [r["id"] for r in dialog.rooms] == [room] and [p["id"] for p in dialog.plans] == [plan]
        assert {"availability", "rate", "stop_sell"} <= dialog.fields.keys()
        assert app.focused is dialog.fields["rate"].control  # the cursor is on the closing row: typing goes to the rate
        fill(dialog, {"availability": "3", "closed_to_departure": True})
        await press_for(pilot, "ctrl+s", InventoryScreen)
        assert "Saved 4 nights of Double Room Matterhorn View, Best Available Rate · u undoes" in str(
            screen.query_one("#status-news").render())
        await pilot.press("left")  # a plain arrow lets go
        await settle(pilot)
        assert grid.block is None and "shift+arrows choose" in str(screen.query_one("#calendar-caption").render())
    availability, restrictions = ari(engine, "2026-11-22", "2026-11-27")
    # The nights around the range as they were (the demo's guests hold some); the range's as set.
    assert [availability[room][f"2026-11-{d}"] for d in range(22, 28)] == [
        before["2026-11-22"], 3, 3, 3, 3, before["2026-11-27"]]
    assert [restrictions[plan][f"2026-11-{d}"]["closed_to_departure"] for d in range(22, 28)] == [
        False, True, True, True, True, False]


async def test_jump_to_a_date_moves_the_calendar(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        grid = screen.query_one(AriGrid)
        jump = await press_for(pilot, "j", JumpDialog)
        await type_text(pilot, "next week")
        await press_for(pilot, "enter", JumpDialog)
        assert "is not a date: type 2026-12-24, 24 Dec, 24/12 or +7" in error_text(jump, "date")
        jump.field.value = "31/02"
        await press_for(pilot, "enter", JumpDialog)
        assert error_text(jump, "date") == "There is no 31 Feb 2026"
        jump.field.value = "24 Dec"
        await press_for(pilot, "enter", InventoryScreen)
        assert grid.days[0].isoformat() == "2026-12-24" and grid.cursor_coordinate.column == 1
        assert str(screen.plans_table.columns["Rate"].label) == "Rate 24 Dec"
        await press_for(pilot, "j", JumpDialog)
        await type_text(pilot, "+3")
        await press_for(pilot, "enter", InventoryScreen)
        assert grid.days[0].isoformat() == "2026-11-25"


async def test_the_rate_list_shows_the_calendars_rate_of_the_same_day(make_app, engine: Engine) -> None:
    """On Friday 27 November the Double's flexible rate is 350.00 (its weekend rate), not its primary option's
    280.00; the list and the calendar both say what the engine's ARI read says, for every plan, derived ones too."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        await press_for(pilot, "j", JumpDialog)
        await type_text(pilot, "2026-11-27")
        await press_for(pilot, "enter", InventoryScreen)
        grid, table = screen.query_one(AriGrid), screen.plans_table
        _, nights = ari(engine, "2026-11-27", "2026-11-27")
        for plan in screen.data.plans:
            rate = nights[plan["id"]]["2026-11-27"]["rate"]
            assert table.get_row(plan["id"])[4].main.plain == f"{rate} CHF"
            assert str(grid.get_row(f"rate:{plan['id']}")[1]) == rate.removesuffix(".00")
        flexible = ids(engine)[f"{DOUBLE} / Best Available Rate"]
        assert table.get_row(flexible)[4].main.plain == "350.00 CHF"
        assert engine.inventory.rate_plans.get(engine.identity.operator(), flexible)["options"][1]["rate"] == "280.00"


async def test_a_big_edit_asks_first_and_writes_nothing_on_no(make_app, engine: Engine) -> None:
    app = make_app()
    plan = ids(engine)[f"{DOUBLE} / Best Available Rate"]
    before = ari(engine, "2026-11-22", "2027-01-31")
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"rate:{plan}", "2026-11-24")
        fill(dialog, {"date_to": "2027-01-31", "rate": "300"})
        confirm = await press_for(pilot, "ctrl+s", ConfirmDialog)
        text = str(confirm.query_one(".dialog-text").render())
        assert str(confirm.query_one(".dialog-title").render()) == "Change 69 nights?"
        assert "69 nights, Tue 24 Nov 2026 – Sun 31 Jan 2027" in text
        assert "Rate plans: Best Available Rate" in text
        assert "Rate: 280.00–350.00 → 300.00 CHF" in text
        assert "Asked because it is more than 31 nights." in text
        assert await press_for(pilot, "n", RangeEditDialog) is dialog
        fill(dialog, {"date_to": "2026-11-26", "rate": "99"})  # three nights, but 280 down to 99
        confirm = await press_for(pilot, "ctrl+s", ConfirmDialog)
        assert "the rate of Tue 24 Nov 2026 goes from 280.00 to 120.00 CHF (−57%)" in str(
            confirm.query_one(".dialog-text").render())  # stored as min_price, 120.00, it says below
        assert "stored as min_price" in str(confirm.query_one(".dialog-text").render())
        await press_for(pilot, "escape", RangeEditDialog)
    assert ari(engine, "2026-11-22", "2027-01-31") == before


async def test_undo_restores_exactly_what_the_edit_replaced(make_app, engine: Engine) -> None:
    """Over the end of the demo's year of ARI, nights with values of their own and nights without: after u, the
    engine reads what it read before and stores what it stored before (a NULL restriction stays NULL, a night
    that had no row has none); u again puts the edit back."""
    app = make_app()
    room, plan = ids(engine)[DOUBLE], ids(engine)[f"{DOUBLE} / Best Available Rate"]
    member = ids(engine)[f"{DOUBLE} / Member rate"]
    before, rows = ari(engine, "2027-11-10", "2027-12-05"), stored(engine, plan)
    assert before[1][plan]["2027-11-30"]["rate"] is None  # the demo's year has ended: nothing of its own
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        put_cursor(screen, f"availability:{room}", "2026-11-24")
        await pilot.press("shift+down", "shift+down", "shift+down", "shift+down")  # rooms, the plan, Member rate
        dialog = await press_for(pilot, "e", RangeEditDialog)
        fill(dialog, {"date_from": "2027-11-15", "date_to": "2027-12-01", "availability": "2", "rate": "300",
                      "min_stay_through": "3", "stop_sell": True, "closed_to_arrival": False})
        await press_for(pilot, "ctrl+s", InventoryScreen)
        edited = ari(engine, "2027-11-10", "2027-12-05")
        assert edited[1][plan]["2027-11-30"]["rate"] == "300.00" and edited[1][member]["2027-11-30"]["stop_sell"]
        await pilot.press("u")
        await settle(pilot)
        assert ari(engine, "2027-11-10", "2027-12-05") == before and stored(engine, plan) == rows
        assert "Undone 17 nights of " in str(screen.query_one("#status-news").render())
        await pilot.press("u")
        await settle(pilot)
        assert ari(engine, "2027-11-10", "2027-12-05") == edited
        assert "Redone 17 nights" in str(screen.query_one("#status-news").render())


async def test_every_problem_of_a_range_edit_shows_at_once(make_app, engine: Engine) -> None:
    """A past first night, a last night before it, a day that is not a weekday, a rate that is not money, a min stay
    of 0 and a negative number of rooms: all beside their fields after one save, and nothing written."""
    app = make_app()
    room = ids(engine)[DOUBLE]
    before = ari(engine, "2026-11-22", "2026-11-30")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inventory(pilot, "calendar")
        put_cursor(screen, f"availability:{room}", "2026-11-24")
        await pilot.press("shift+down")
        dialog = await press_for(pilot, "e", RangeEditDialog)
        fill(dialog, {"date_from": "2026-11-20", "date_to": "2026-11-19", "days": "fr someday", "availability": "-1",
                      "rate": "lots", "min_stay_arrival": "0"})
        await save_refused(pilot, dialog)
        shown = {name for name, field in dialog.fields.items() if field.has_errors}
        assert shown == {"date_from", "date_to", "days", "availability", "rate", "min_stay_arrival"}
        assert "is in the past (today is 2026-11-22 at the property)" in error_text(dialog, "date_from")
        assert error_text(dialog, "rate") == "must be a number"
    assert ari(engine, "2026-11-22", "2026-11-30") == before


async def test_editors_show_every_problem_at_once(make_app, engine: Engine) -> None:
    """A blank title and an occupancy the room can't hold (a rule that reads the room type): one save shows both."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_plan(pilot, f"{DOUBLE} / Best Available Rate")
        _, double = editor.lists["options"].query(ItemRow)
        fill(editor, {"title": ""})
        double.fields["occupancy"].value = "9"
        await save_refused(pilot, editor)
        assert editor.fields["title"].has_errors
        assert "must not exceed the room's capacity of 3" in error_text(double, "occupancy")
        await press_for(pilot, "escape", ConfirmDialog)
        await press_for(pilot, "y", InventoryScreen)
        await pilot.press("r")
        await settle(pilot)
        editor = await press_for(pilot, "e", RoomTypeEditor)  # the Double, which sells plans for 2
        fill(editor, {"title": "", "occ_adults": "1", "occ_children": "0", "default_occupancy": "1"})
        await save_refused(pilot, editor)
        assert editor.fields["title"].has_errors and editor.fields["occ_adults"].has_errors
        assert "sells an occupancy of 2" in error_text(editor, "occ_adults")


# --- snapshots -----------------------------------------------------------------------------------
# Each screen at 120×40 and at 80×24 (SMALL), where the calendar shows fewer nights and the lists fewer columns.

SMALL = (80, 24)
BOTH = pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])


async def choose_a_block(pilot: Pilot) -> InventoryScreen:
    """The calendar with three nights of the Double's rooms and its flexible rate chosen."""
    screen = await open_inventory(pilot, "calendar")
    put_cursor(screen, f"availability:{ids(pilot.app.engine)[DOUBLE]}", "2026-11-23")
    await pilot.press("shift+right", "shift+right", "shift+down")
    await settle(pilot)
    return screen


def test_snapshot_room_types(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_inventory)


def test_snapshot_room_types_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=open_inventory)


@BOTH
def test_snapshot_rate_plans(snap_compare, make_app, size) -> None:
    async def run_before(pilot: Pilot) -> None:
        await open_inventory(pilot, "plans")

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@BOTH
def test_snapshot_calendar_with_a_selection(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=choose_a_block)


def test_snapshot_calendar_at_200_columns(snap_compare, make_app) -> None:
    """Four weeks at 200 columns."""
    async def run_before(pilot: Pilot) -> None:
        await open_inventory(pilot, "calendar")

    assert snap_compare(make_app(), terminal_size=(200, 60), run_before=run_before)


@BOTH
def test_snapshot_range_dialog_with_a_selection(snap_compare, make_app, size) -> None:
    async def run_before(pilot: Pilot) -> None:
        await choose_a_block(pilot)
        await press_for(pilot, "e", RangeEditDialog)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@BOTH
def test_snapshot_range_confirmation(snap_compare, make_app, size) -> None:
    """The summary of a big edit: ten weeks of a rate, asked about before anything is written."""
    async def run_before(pilot: Pilot) -> None:
        await choose_a_block(pilot)
        dialog = await press_for(pilot, "e", RangeEditDialog)
        fill(dialog, {"date_to": "2027-01-31", "availability": "4", "rate": "130", "stop_sell": False})
        await press_for(pilot, "ctrl+s", ConfirmDialog)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


def test_snapshot_range_dialog_with_an_error(snap_compare, make_app) -> None:
    async def run_before(pilot: Pilot) -> None:
        plan = ids(pilot.app.engine)[f"{DOUBLE} / Non-refundable with breakfast"]
        dialog = await open_range(pilot, f"closed:{plan}", "2026-11-27")
        fill(dialog, {"date_from": "2026-11-21", "date_to": "2026-11-29", "days": "fr sa", "rate": "310",
                      "closed_to_arrival": True})
        await pilot.press("ctrl+s")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


@BOTH
def test_snapshot_room_type_editor(snap_compare, make_app, size) -> None:
    async def run_before(pilot: Pilot) -> None:
        await open_inventory(pilot)
        await press_for(pilot, "e", RoomTypeEditor)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@BOTH
def test_snapshot_rate_plan_editor(snap_compare, make_app, size) -> None:
    async def run_before(pilot: Pilot) -> None:
        await open_plan(pilot, f"{DOUBLE} / Best Available Rate")

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


async def open_derived_plan(pilot: Pilot) -> None:
    await open_plan(pilot, f"{DOUBLE} / Member rate")


def test_snapshot_derived_rate_plan_editor(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_derived_plan)


@BOTH
def test_snapshot_a_choice_opened(snap_compare, make_app, size) -> None:
    """A form's choice shows its options beneath it, the one chosen highlighted (console/kit/choice.py)."""
    async def run_before(pilot: Pilot) -> None:
        editor = await open_plan(pilot, f"{DOUBLE} / Member rate")
        meal = editor.fields["meal_type"].control
        editor.query_one("#form").scroll_to_widget(meal, top=True, animate=False)
        meal.focus()
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


def test_snapshot_derived_rate_plan_editor_80x24(snap_compare, make_app) -> None:
    async def run_before(pilot: Pilot) -> None:
        editor = await open_plan(pilot, f"{DOUBLE} / Member rate")
        editor.query_one("#form").scroll_to_widget(editor.fields["rate_mode"], top=True, animate=False)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


async def test_a_range_edit_names_the_fields_as_the_dialog_labels_them(make_app, engine: Engine) -> None:
    app = make_app()
    room = ids(engine)[DOUBLE]
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"availability:{room}", "2026-11-22")
        fill(dialog, {"date_from": "2026-11-25", "date_to": "2026-11-23", "availability": "0"})
        await save_refused(pilot, dialog)
        assert error_text(dialog, "date_to") == "must be on or after “From”"


# --- typing never vanishes in the range editor -------------------------------------------------------------------

async def test_the_range_editor_opens_on_a_text_field_and_esc_asks_once_something_is_typed(make_app,
                                                                                         engine: Engine) -> None:
    app = make_app()
    plan = ids(engine)[f"{DOUBLE} / Best Available Rate"]
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"closed:{plan}", "2026-11-24")  # the stop-sell row
        assert dialog.focused is dialog.fields["rate"].control  # not the Stop-sell dropdown
        await pilot.press("escape")  # nothing typed: closes at once
        await settle(pilot)
        assert not isinstance(app.screen, RangeEditDialog)
        dialog = await press_for(pilot, "e", RangeEditDialog)
        await pilot.press(*"310")
        assert dialog.fields["rate"].value == "310"
        await press_for(pilot, "escape", ConfirmDialog)  # typed: asks first
        assert await press_for(pilot, "n", RangeEditDialog) is dialog
        assert dialog.fields["rate"].value == "310"


async def test_the_range_editor_takes_dates_as_staff_type_them(make_app, engine: Engine) -> None:
    app = make_app()
    plan = ids(engine)[f"{DOUBLE} / Best Available Rate"]
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_range(pilot, f"rate:{plan}", "2026-11-24")
        fill(dialog, {"date_from": "24 Nov", "date_to": "+4", "rate": "301"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, RangeEditDialog)
    _, restrictions = ari(engine, "2026-11-22", "2026-11-28")
    today = engine.config.clock().date().isoformat()
    assert today == "2026-11-22"  # the suite's frozen today: +4 is the 26th
    assert [restrictions[plan][f"2026-11-{d}"]["rate"] == "301.00" for d in range(23, 28)] == [
        False, True, True, True, False]
