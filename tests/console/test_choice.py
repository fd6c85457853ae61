"""The kit's Choice: a choice among a few options in a form or a filter bar, one widget until its list is opened,
chosen with the keyboard or the mouse as a Select is; the rate plan editor's choices, reached and changed by keys
alone; a filter's options arriving after it is shown."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input

from console.inventory.rate_plan_editor import RatePlanEditor
from console.kit.choice import Choice, ChoiceList
from tests.console.helpers import SIZE, press_for, settle
from tests.console.test_inventory import open_inventory

pytestmark = pytest.mark.anyio

MEALS = [("Room only", "none"), ("Breakfast", "breakfast"), ("Half board", "half_board"), ("Full board", "full_board")]


class Form(App[None]):
    def __init__(self, choice: Choice) -> None:
        super().__init__()
        self.choice = choice
        self.changes: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Input(id="before")
        yield self.choice
        yield Input(id="after")

    def on_choice_changed(self, message: Choice.Changed) -> None:
        self.changes.append(message.value)


def shown(app: Form) -> str:
    return app.choice.render().plain


async def test_one_widget_until_opened_then_enter_takes_the_highlighted_option() -> None:
    app = Form(Choice(MEALS, "breakfast"))
    async with app.run_test() as pilot:
        await pilot.press("tab")
        assert app.focused is app.choice and not app.choice.children  # nothing but the line
        assert shown(app).startswith("Breakfast") and shown(app).rstrip().endswith("▼")

        await pilot.press("enter")
        [options] = app.choice.query(ChoiceList)
        assert app.focused is options and options.highlighted == 1  # on the option chosen
        await pilot.press("down", "enter")
        assert app.choice.value == "half_board" and app.changes == ["half_board"]
        assert app.focused is app.choice and not app.choice.children
        assert shown(app).startswith("Half board")


async def test_escape_and_leaving_close_the_list_and_change_nothing() -> None:
    app = Form(Choice(MEALS))
    async with app.run_test() as pilot:
        assert app.choice.value == "none"  # without a prompt, the first option
        app.choice.focus()
        await pilot.press("space", "down", "escape")
        assert app.focused is app.choice and not app.choice.children
        await pilot.press("up", "down", "tab")  # up opens it too; tab moves on and closes it
        assert app.focused is app.query_one("#after") and not app.choice.children
        assert app.choice.value == "none" and app.changes == []


async def test_a_letter_moves_to_the_next_option_that_starts_with_it() -> None:
    app = Form(Choice(MEALS))
    async with app.run_test() as pilot:
        app.choice.focus()
        await pilot.press("enter", "f", "enter")
        assert app.choice.value == "full_board"
        await pilot.press("enter", "h", "h", "enter")  # half board, then round again to it
        assert app.choice.value == "half_board"


async def test_a_prompt_stands_for_no_choice() -> None:
    app = Form(Choice(MEALS, prompt="any meal"))
    async with app.run_test() as pilot:
        assert app.choice.value is None and shown(app).startswith("any meal")
        app.choice.value = "breakfast"
        app.choice.focus()
        await pilot.press("enter", "home", "enter")  # the prompt is the first option
        assert app.choice.value is None and app.changes == ["breakfast", None]
        with pytest.raises(ValueError):
            app.choice.value = "brunch"


async def test_a_click_opens_the_list_and_another_takes_an_option() -> None:
    app = Form(Choice(MEALS))
    async with app.run_test() as pilot:
        await pilot.click(Choice)
        [options] = app.choice.query(ChoiceList)
        await pilot.click(ChoiceList, offset=(2, 2))  # the third option
        assert app.choice.value == "half_board" and not app.choice.children


async def test_a_rate_plan_is_derived_from_another_by_keys_alone(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_inventory(pilot, "plans")
        editor = await press_for(pilot, "n", RatePlanEditor)
        priced = editor.fields["rate_mode"].control
        while app.focused is not priced:
            await pilot.press("tab")
        await pilot.press("enter", "down", "enter")
        await settle(pilot)
        assert editor.fields["rate_mode"].value == "derived" and editor.query_one("#derived-pricing").display
        await pilot.press("tab", "enter", "down", "enter")  # the first plan it can follow (the prompt is above it)
        assert editor.fields["parent_rate_plan_id"].value == editor.parents[0]["id"]


async def test_new_options_keep_the_choice_where_they_still_hold_it() -> None:
    """A filter's options arrive after it is shown (the properties, once read): the value stays while it is one of
    them, and goes back to the prompt when it is not; nothing is sent for options alone."""
    app = Form(Choice([], prompt="any property"))
    async with app.run_test() as pilot:
        assert app.choice.value is None and shown(app).startswith("any property")
        with app.choice.prevent(Choice.Changed):
            app.choice.set_options([("Casa do Mar", "casa"), ("Hotel Edelweiss", "edelweiss")])
        app.choice.value = "edelweiss"
        app.choice.set_options([("Hotel Edelweiss", "edelweiss")])
        assert app.choice.value == "edelweiss"
        app.choice.set_options([("Casa do Mar", "casa")])
        await pilot.pause()
        assert app.choice.value is None and app.changes == ["edelweiss", None]
        app.choice.value = "casa"
        app.choice.clear()
        await pilot.pause()
        assert app.choice.value is None and app.changes[-2:] == ["casa", None]


async def test_a_filter_bar_choice_filters_the_list_by_keys(make_app) -> None:
    app = make_app(mode="bookings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.query_one("#bk-status", Choice).focus()
        await pilot.press("enter", "down", "down", "down", "enter")  # past any, new and modified: cancelled
        await settle(pilot)
        assert screen.query_one("#bk-status", Choice).value == "cancelled"
        assert {row["status"] for row in screen.rows.values()} == {"cancelled"}


async def test_an_open_list_is_an_opaque_panel_with_an_edge() -> None:
    """At 80 columns the text beside and beneath an open list never reads as one of its options."""
    app = Form(Choice(MEALS, "none"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.choice.focus()
        await pilot.press("enter")
        await settle(pilot)
        opened = app.choice.query_one(ChoiceList)
        assert opened.styles.background.a == 1
        assert all(edge[0] for edge in (opened.styles.border_left, opened.styles.border_right,
                                       opened.styles.border_bottom))
        assert opened.region.width >= max(len(label) for label, _ in MEALS) + 2
