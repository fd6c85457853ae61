"""The property editor: create and update through the form, and the engine's messages beside the fields."""

from __future__ import annotations

import pytest
from textual.widgets import Button, SelectionList

from backend.core.listing import Filter, ListQuery
from backend.engine import Engine
from console.kit.confirm import ConfirmDialog
from console.kit.field import Field
from console.kit.section import Section
from console.properties.editor import AUTOUPDATE, PropertyEditor
from console.properties.screen import PropertiesScreen
from tests.console.helpers import SIZE, error_text, fill, press_for, save_refused, select_row, settle, type_text

pytestmark = pytest.mark.anyio


def find(engine: Engine, title: str) -> list[dict]:
    rows, _ = engine.properties.list(engine.identity.operator(), ListQuery(filters=[Filter("title", "eq", title)]))
    return rows


async def open_new(pilot) -> PropertyEditor:
    await settle(pilot)
    return await press_for(pilot, "n", PropertyEditor)


async def test_creates_a_property_through_the_form(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_new(pilot)
        assert app.focused is editor.fields["title"].control
        await type_text(pilot, "Villa Aurora")
        await pilot.press("escape")  # changes made: it asks before dropping them
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert app.screen is editor
        await pilot.press("tab")
        await type_text(pilot, "EUR")
        fill(editor, {"city": "Sorrento", "country": "IT", "settings.cut_off_days": "2", "settings.min_price": "80"})
        editor.fields["property_type"].value = "villa"
        editor.fields["facilities"].value = [f["id"] for f in engine.facilities.list() if f["title"] == "Spa"]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PropertiesScreen)
        assert "Villa Aurora" in [row["title"] for row in app.screen.rows.values()]
    [stored] = find(engine, "Villa Aurora")
    assert [stored[k] for k in ("currency", "city", "country", "property_type")] == ["EUR", "Sorrento", "IT", "villa"]
    assert stored["settings"]["cut_off_days"] == 2
    assert stored["settings"]["min_price"] == "80.00"
    assert stored["settings"]["state_length"] == 500  # left as the default
    assert stored["email"] is None  # empty inputs mean "not set"
    assert len(stored["facilities"]) == 1
    assert stored["is_active"] is True


async def test_rejected_fields_show_the_engines_messages_beside_them(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_new(pilot)
        fill(editor, {"title": "Nowhere Inn"})
        rejected = [("currency", "EURO", "must be an ISO 4217 currency code in capitals, e.g. EUR"),
                    ("settings.state_length", "50", "must be at least 100")]
        for path, typed, message in rejected:
            fill(editor, {"currency": "EUR", path: ""})
            editor.fields[path].control.focus()
            await type_text(pilot, typed)
            await save_refused(pilot, editor)
            assert [f.path for f in editor.query(Field) if f.has_errors] == [path]
            assert error_text(editor, path) == message
            summary = str(editor.query_one("#summary").render())
            label = editor.fields[path].label
            assert summary == f"1 problem kept this property from being saved:\n• {label}: {message}"
            assert app.focused is editor.fields[path].control
        assert find(engine, "Nowhere Inn") == []

        # Every problem is reported at once, each beside its field, and each goes away once fixed.
        fill(editor, {"title": "", "currency": "EURO", "email": "not-an-address", "settings.state_length": "lots",
                      "settings.max_price": "-1"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert {f.path: error_text(editor, f.path) for f in editor.query(Field) if f.has_errors} == {
            "title": "can't be blank", "currency": "must be an ISO 4217 currency code in capitals, e.g. EUR",
            "email": "must be a valid e-mail address",
            "settings.state_length": "must be a whole number",  # not a number: sent as typed, named by the engine
            "settings.max_price": "must be zero or more"}
        assert str(editor.query_one("#summary").render()).startswith("5 problems")
        fill(editor, {"title": "Fixed Inn", "currency": "EUR", "email": "a@b.example", "settings.state_length": "",
                      "settings.max_price": "300"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PropertiesScreen)
    assert find(engine, "Fixed Inn")[0]["settings"]["max_price"] == "300.00"


async def test_edits_an_existing_property_keeping_what_was_not_touched(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        row = select_row(app.screen, "Hotel Edelweiss")
        before = engine.properties.get(engine.identity.operator(), row["id"])
        await pilot.press("e")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, PropertyEditor)
        assert editor.fields["city"].value == "Zermatt"
        assert editor.fields["settings.cut_off_time"].value == "18:00:00"
        assert editor.fields["content.description"].value.startswith("Family-run hotel")
        editor.fields["title"].control.action_end()
        await type_text(pilot, " Zermatt")
        fill(editor, {"settings.state_length": "365"})
        assert editor.query_one("#facilities-section", Section).held  # saved without being built
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PropertiesScreen)
    after = engine.properties.get(engine.identity.operator(), row["id"])
    assert after["title"] == "Hotel Edelweiss Zermatt"
    assert after["settings"]["state_length"] == 365
    for unchanged in ("facilities", "group_id", "email", "timezone", "website", "logo_url"):
        assert after[unchanged] == before[unchanged]
    assert after["content"] == before["content"]
    assert {k: v for k, v in after["settings"].items() if k != "state_length"} == \
        {k: v for k, v in before["settings"].items() if k != "state_length"}


async def test_photo_errors_land_on_the_photo_row(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_new(pilot)
        fill(editor, {"title": "Photo Inn", "currency": "EUR"})
        editor.query_one("#form").scroll_end(animate=False)  # down to the photos
        await settle(pilot)
        photos = editor.lists["photos"]
        for _ in range(2):
            photos.add_button.press()  # a key within 0.2 s of the last press is ignored (Textual's button debounce)
            await settle(pilot)
        first, second = photos.rows
        assert app.focused is second.fields["url"].control
        await type_text(pilot, "x")
        first.fields["url"].value = "https://photos.example/0.jpg"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not first.fields["url"].has_errors
        assert str(second.fields["url"].error.render()) == "must be a valid http or https URL"
        assert "Photo 2 photo url: must be a valid http or https URL" in str(editor.query_one("#summary").render())
        second.fields["url"].value = "https://photos.example/1.jpg"
        second.fields["kind"].value = "menu"
        await pilot.press("ctrl+s")
        await settle(pilot)
    photos = find(engine, "Photo Inn")[0]["content"]["photos"]
    assert [(p["url"], p["kind"], p["position"]) for p in photos] == [
        ("https://photos.example/0.jpg", "photo", 0), ("https://photos.example/1.jpg", "menu", 1)]


async def test_sections_out_of_view_are_built_when_reached(make_app, engine: Engine) -> None:
    """The facilities are a box until they scroll into view or the focus reaches them; a refused save builds what
    it must show (tests/console/test_inventory.py). What they hold is the property's all along."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new(pilot)
        facilities = editor.query_one("#facilities-section", Section)
        assert facilities.held and not facilities.query(SelectionList)
        spa = [f["id"] for f in engine.facilities.list() if f["title"] == "Spa"]
        editor.fields["facilities"].value = spa  # the field is there before its section is built
        facilities.focus()  # as tab reaches it
        await settle(pilot)
        assert not facilities.held and app.focused is editor.fields["facilities"].control
        assert editor.fields["facilities"].control.selected == spa

    async with make_app().run_test(size=(80, 24)) as pilot:
        editor = await open_new(pilot)
        editor.query_one("#form").scroll_end(animate=False)
        await settle(pilot)
        assert not any(section.held for section in editor.query(Section))


async def test_a_section_whose_title_alone_shows_waits_for_the_first_scroll(make_app) -> None:
    """At 120x40 the content section's title is at the bottom edge: it is left as its box (open past the edge, not
    an empty one) until three rows of its inside scroll into view, rather than built in a second pass."""
    async with make_app().run_test(size=SIZE) as pilot:
        editor = await open_new(pilot)
        form = editor.query_one("#form")
        content = next(section for section in editor.query(Section) if section.border_title == "Content")
        assert content.held and content.region.y < form.region.bottom <= content.region.bottom
        form.scroll_relative(y=1, animate=False)
        await settle(pilot)
        assert content.held
        form.scroll_relative(y=2, animate=False)
        await settle(pilot)
        assert not content.held and editor.fields["content.description"].control.is_attached


async def test_currency_and_country_go_upper_cased(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_new(pilot)
        fill(editor, {"title": "Villa Minuscola", "currency": "eur", "country": "it"})
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PropertiesScreen)
    [stored] = find(engine, "Villa Minuscola")
    assert (stored["currency"], stored["country"]) == ("EUR", "IT")


async def test_the_editor_lays_itself_out_for_the_window(make_app) -> None:
    """At 80 columns a checkbox has its line to itself; from 160 the sections go two by two, the facilities across."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_new(pilot)
        switches = [editor.fields[path] for path in AUTOUPDATE]
        assert len({field.region.x for field in switches}) == 1
        assert all(field.label in str(field.control.render()) for field in switches)  # the label, whole
        sections = list(editor.query(".section"))
        assert len({section.region.x for section in sections}) == 1  # one below the other

        await pilot.resize_terminal(200, 60)
        await settle(pilot)
        property_, contact, settings, content, facilities = sections
        assert property_.region.y == contact.region.y and property_.region.x < contact.region.x
        assert settings.region.y == content.region.y
        assert facilities.region.width > contact.region.width  # across both columns
        assert len({field.region.y for field in switches}) == 2  # two a line again


async def test_a_photo_removed_in_the_form_is_deleted_and_the_others_kept(make_app, engine: Engine) -> None:
    """The form holds the whole list; saved, it is the batch of content.photos that makes the stored photos that list
    (backend/inventory/photos.py `as_batch`): the row taken out is removed, the one kept is the same photo."""
    operator = engine.identity.operator()
    made = engine.properties.create(operator, {"title": "Two Photo Inn", "currency": "EUR", "content": {"photos": [
        {"url": "https://photos.example/a.jpg", "author": "Ann"}, {"url": "https://photos.example/b.jpg",
                                                                   "kind": "menu", "title": "Menu"}]}})
    kept = made["content"]["photos"][1]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        select_row(app.screen, "Two Photo Inn")
        editor = await press_for(pilot, "e", PropertyEditor)
        editor.query_one("#form").scroll_end(animate=False)  # down to the photos
        await settle(pilot)
        photos = editor.lists["photos"]
        photos.rows[0].query_one(".remove-item", Button).press()
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PropertiesScreen)
    [left] = engine.properties.get(operator, made["id"])["content"]["photos"]
    assert {k: left[k] for k in ("id", "url", "kind", "title", "position")} == {
        "id": kept["id"], "url": "https://photos.example/b.jpg", "kind": "menu", "title": "Menu", "position": 0}
