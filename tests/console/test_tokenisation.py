"""Tokenisation: the profiles and their editor (checked as you type), the tester's dry runs (masked,
nothing kept), tokenising for real and capture, and the vault browser."""

from __future__ import annotations

import io
import json
import signal
from collections.abc import Callable
from datetime import datetime

import pytest
from rich.console import Console
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from backend.engine import Engine
from backend.outbox.lease import ServerAddresses, deliverer_lease
from backend.tools.demo import INTEGRATOR_EMAIL
from backend.vault import samples
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from console.tokenisation.editor import ProfileEditor
from console.tokenisation.screen import TokenisationScreen
from console.tokenisation.tester import NO_SERVER, ProfileTester
from tests.conftest import free_port
from tests.console.helpers import SIZE, SteadyApp, frozen_clock, press_for, settle, until
from tests.test_serve import _recorded, _serving, _wait_for

pytestmark = pytest.mark.anyio

# The samples' card numbers and security codes, none of which may ever be on screen.
SECRETS = ("4111111111111111", "5555555555554444", "378282246310005", "4000056655665556", '"737"', '"4321"',
           '"4021"', '"552"', ">318<", ">902<", ">7710<")
# Message nodes of each sample, and the masked numbers of the cards among them.
SAMPLES = {
    "bookings": (3, ["411111******1111", "555555******4444"]),
    "ota_hotel_res_notif": (2, ["378282*****0005", "400005******5556"]),
    "ota_res_retrieve": (3, None),  # checked against the engine's own report
}
SAVED_AT = "2026-11-21T16:45:00.000000"  # profiles saved in a snapshot keep still


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


def names(screen: TokenisationScreen) -> list[str]:
    return [row["name"] for row in screen.rows.values()]


def kept(engine: Engine) -> int:
    """Cards the tester kept: the demo's bookings keep theirs in the vault too."""
    return engine.store.scalar("SELECT count(*) FROM vault_cards WHERE profile_name != 'booking'")


def text_of(widget: Static) -> str:
    """What a Static shows, as plain text (a rich table included)."""
    console = Console(width=200, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.file.getvalue()


def check_text(editor: ProfileEditor) -> str:
    return text_of(editor.query_one("#profile-check", Static))


def node_rows(tester: ProfileTester) -> list[list[str]]:
    table = tester.query_one("#tester-nodes", DataTable)
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]


async def open_area(pilot: Pilot) -> TokenisationScreen:
    await settle(pilot)
    return await press_for(pilot, "6", TokenisationScreen)


async def open_tester(pilot: Pilot, sample: str | None = None) -> ProfileTester:
    screen = await open_area(pilot)
    await pilot.press("t")
    await settle(pilot)
    tester = screen.tester
    if sample:
        tester.query_one("#tester-sample", Choice).value = sample
        await settle(pilot)
    return tester


async def dry_run(pilot: Pilot, sample: str) -> ProfileTester:
    tester = await open_tester(pilot, sample)
    await pilot.press("ctrl+r")
    await settle(pilot)
    return tester


async def open_new_editor(pilot: Pilot) -> ProfileEditor:
    await open_area(pilot)
    editor = await press_for(pilot, "n", ProfileEditor)
    await until(pilot, lambda: "valid" in check_text(editor))
    return editor


async def break_a_selector(pilot: Pilot) -> ProfileEditor:
    editor = await open_new_editor(pilot)
    editor.editor.load_text(editor.editor.text.replace('"$.data[*]"', '"$.data[*"'))  # as a paste would
    await until(pilot, lambda: "problem" in check_text(editor))
    await settle(pilot)
    return editor


# --- snapshots -------------------------------------------------------------------------------------

NARROW = (80, 24)


def keep_profiles_still(engine: Engine) -> None:
    for sample in ("ota_hotel_res_notif", "ota_res_retrieve"):
        engine.tokenisation.create(samples.profile(sample))
    with engine.store.transaction() as conn:
        conn.execute("UPDATE tokenization_profiles SET created_at = ?, updated_at = ?", (SAVED_AT, SAVED_AT))


def keep_the_vault_still(engine: Engine) -> None:
    """The sample's two cards and the demo bookings' under tokens that don't change from run to run (the vault's are
    random), in the order the browser lists them."""
    engine.tokenisation.tokenise("frontdesk", samples.message("bookings"), "tests")
    with engine.store.transaction() as conn:
        conn.execute("PRAGMA defer_foreign_keys = ON")
        rows = conn.execute("SELECT token FROM vault_cards ORDER BY profile_name, departure_date, card_mask").fetchall()
        for number, (token,) in enumerate(rows, 1):
            fixed = f"{number:02d}" + "5eed" * 7 + "00"
            for table in ("vault_cards", "vault_cvv", "vault_audit"):
                conn.execute(f"UPDATE {table} SET token = ? WHERE token = ?", (fixed, token))


async def run_the_notification(pilot: Pilot) -> None:
    tester = await dry_run(pilot, "ota_hotel_res_notif")
    for area in (tester.message_area, tester.result_area):  # down to the first card, masked in both
        area.move_cursor((area.text.splitlines().index(next(line for line in area.text.splitlines()
                                                             if "<PaymentCard" in line)), 0), center=True)
    await settle(pilot)


async def open_vault(pilot: Pilot) -> None:
    await open_area(pilot)
    await pilot.press("v")
    await settle(pilot)


def test_snapshot_profiles(snap_compare, make_app, engine: Engine) -> None:
    keep_profiles_still(engine)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_area)


def test_snapshot_profiles_80x24(snap_compare, make_app, engine: Engine) -> None:
    keep_profiles_still(engine)
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_area)


def test_snapshot_editor_with_a_bad_selector(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=break_a_selector)


def test_snapshot_editor_with_a_bad_selector_80x24(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=break_a_selector)


def test_snapshot_tester_after_a_dry_run(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_the_notification)


def test_snapshot_tester_after_a_dry_run_80x24(snap_compare, make_app) -> None:
    """The message boxes keep their lines; the capture bar says there is no server to capture from."""
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=run_the_notification)


def test_snapshot_vault(snap_compare, make_app, engine: Engine) -> None:
    keep_the_vault_still(engine)
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=open_vault)


def test_snapshot_vault_80x24(snap_compare, make_app, engine: Engine) -> None:
    keep_the_vault_still(engine)
    assert snap_compare(make_app(), terminal_size=NARROW, run_before=open_vault)


def test_snapshot_vault_200x60(snap_compare, make_app, engine: Engine) -> None:
    """The audit beside the cards, which show every column."""
    keep_the_vault_still(engine)
    assert snap_compare(make_app(), terminal_size=(200, 60), run_before=open_vault)


# --- profiles --------------------------------------------------------------------------------------

async def test_the_editor_checks_as_you_type_and_saves_a_good_profile(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await break_a_selector(pilot)
        check = check_text(editor)
        assert "schema.message_node.selector: is not a valid JSONPath" in check
        editor.editor.load_text(editor.editor.text.replace("{", "{{", 1))
        await until(pilot, lambda: "not JSON" in check_text(editor))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in check_text(editor))
        assert app.screen is editor
        good = samples.profile("bookings") | {"name": "channel_x"}
        editor.editor.load_text(json.dumps(good, indent=2))
        await until(pilot, lambda: "✓ valid" in check_text(editor))
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TokenisationScreen)
        assert names(screen) == ["frontdesk", "frontdesk_entity", "channel_x"]
        assert "Saved profile “channel_x”" in text_of(screen.query_one("#status-news", Static))
    assert engine.tokenisation.compiled("channel_x").stored() == good


async def test_a_name_taken_is_refused_beside_the_json(make_app, engine: Engine) -> None:
    engine.tokenisation.create(samples.profile("bookings"))  # bookings_headers, what a new one starts from
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_new_editor(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in check_text(editor))
        assert app.screen is editor and "name: has already been taken" in check_text(editor)


async def test_built_ins_open_read_only_and_are_not_deleted(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_area(pilot)
        editor = await press_for(pilot, "enter", ProfileEditor)
        assert editor.editor.read_only and '"name": "frontdesk"' in editor.editor.text
        assert "can't be changed" in check_text(editor)
        await pilot.press("ctrl+s")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("d")
        await settle(pilot)
        assert app.screen is screen and "read-only" in text_of(screen.query_one("#status-news", Static))
    assert len(engine.tokenisation.profiles()) == 2


async def test_editing_and_deleting_a_profile(make_app, engine: Engine) -> None:
    saved = engine.tokenisation.create(samples.profile("ota_res_retrieve"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_area(pilot)
        screen.table.move_cursor(row=screen.table.get_row_index(saved["id"]))
        editor = await press_for(pilot, "e", ProfileEditor)
        assert '"error_node": ".//ota:PaymentCard/ota:CardNumber/@TokenError"' in editor.editor.text
        editor.editor.load_text(editor.editor.text.replace('"ota_res_retrieve"', '"ota_retrieve_v2"'))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert names(screen)[-1] == "ota_retrieve_v2"
        await press_for(pilot, "d", ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert names(screen) == ["frontdesk", "frontdesk_entity"]
    assert len(engine.tokenisation.profiles()) == 2


# --- the tester ------------------------------------------------------------------------------------

@pytest.mark.parametrize("sample", list(SAMPLES))
async def test_a_dry_run_of_each_sample_shows_its_nodes_masked_and_keeps_nothing(make_app, engine, sample) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await dry_run(pilot, sample)
        nodes, masked = SAMPLES[sample]
        expected = engine.tokenisation.dry_run(samples.profile(sample), samples.message(sample))
        rows = node_rows(tester)
        assert len(rows) == nodes == len(expected.nodes)
        assert [row[1] for row in rows if row[1] != "—"] == (masked or [node.card["card_number"]
                                                                    for node in expected.nodes if node.card])
        assert [row[5] for row in rows] == [node.token or "—" for node in expected.nodes]
        assert "dry run" in tester.result_area.border_title.lower()
        assert "X-PCI-FRONTDESK-TOKENS" in text_of(tester.query_one("#tester-headers", Static))
        shown = app.export_screenshot() + tester.message_area.text + tester.result_area.text
        assert not [secret for secret in SECRETS if secret in shown]
        assert tester.message_area.message == samples.message(sample).decode()  # the cards are kept aside
    assert kept(engine) == 0


async def test_at_80x24_the_testers_boxes_keep_their_lines_and_each_tab_names_what_it_leaves_out(make_app) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_area(pilot)
        where = screen.query_one("#status-where", Static)
        assert "not shown: Updated, Type" in where.render().plain
        tester = await dry_run(pilot, "ota_hotel_res_notif")
        for box in (tester.message_area, tester.result_area):
            assert box.size.height >= 6  # they collapsed to their borders
        assert where.render().plain == "Tester · not shown: Holder, Expiry, CVV"
        assert [len(row) for row in node_rows(tester)] == [4, 4]  # #, card, token, errors and warnings
        capture = tester.query_one("#capture-run")
        assert capture.region.right <= NARROW[0] and capture.region.height == 1  # the capture bar in full
        await pilot.press("escape", "v")
        await settle(pilot)
        assert "not shown: Created, Type, Profile, Purge after" in where.render().plain


async def test_the_screen_never_shows_the_bookings_card_in_clear(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await dry_run(pilot, "bookings")
        await until(pilot, lambda: "411111******1111" in app.export_screenshot())  # the table may paint a frame later
        assert "4111111111111111" not in app.export_screenshot()
        # Nor when a profile that finds no card would hand the message back as it came: it is refused.
        tester.query_one("#tester-profile", Choice).value = "frontdesk_entity"
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "in clear outside the cards it cuts out" in tester.result_area.text and not node_rows(tester)
        assert "4111111111111111" not in app.export_screenshot() + tester.result_area.text


async def test_a_card_number_typed_or_pasted_is_hidden_at_once(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await open_tester(pilot)
        tester.message_area.focus()
        await pilot.press(*'{"n": "4111111111111111"}')
        await pilot.pause()
        assert tester.message_area.text == '{"n": "411111******1111"}'
        assert tester.message_area.message == '{"n": "4111111111111111"}'
        tester.message_area.load_text("")
        await pilot.pause()
        app.post_message(events.Paste('["5555 5555 5555 4444"]'))  # as the terminal sends it
        await pilot.pause()
        assert tester.message_area.text == '["555555******4444"]'
        assert tester.message_area.message == '["5555 5555 5555 4444"]'


@pytest.mark.parametrize("message, problem", [
    ("<OTA_HotelResNotifRQ><HotelReservations></OTA_HotelResNotifRQ>", "not well-formed XML (line 1"),
    ('<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>', "DOCTYPE"),
])
async def test_a_bad_message_shows_the_engines_error(make_app, engine, message, problem) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await open_tester(pilot, "ota_hotel_res_notif")
        tester.message_area.set_message(message)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert tester.result_area.text.startswith("Dry run with ota_res_notif: Not accepted: the body")
        assert problem in tester.result_area.text and "Traceback" not in tester.result_area.text
        assert problem in text_of(app.screen.query_one("#status-news", Static))
        assert node_rows(tester) == []
    assert kept(engine) == 0


async def test_tokenising_for_real_asks_first_and_fills_the_vault(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await open_tester(pilot, "bookings")
        await pilot.press("ctrl+g")  # the sample's own profile is not saved: refused before asking
        await settle(pilot)
        assert "Save the profile bookings_headers first" in text_of(app.screen.query_one("#status-news", Static))
        tester.query_one("#tester-profile", Choice).value = "frontdesk"
        await press_for(pilot, "ctrl+g", ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert kept(engine) == 0
        await press_for(pilot, "ctrl+g", ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert kept(engine) == 2
        tokens = [row[5] for row in node_rows(tester) if row[5] != "—"]
        assert len(tokens) == 2 and not any(token.startswith("0000") for token in tokens)
        assert {card["token"] for card in engine.vault.cards()[0] if card["profile"] != "booking"} == set(tokens)
        assert "stored in the vault" in tester.result_area.border_title


def capture_target(tester: ProfileTester) -> str:
    return text_of(tester.query_one("#capture-target", Static))


def news(app: SteadyApp) -> str:
    return app.screen.query_one("#status-news", Static).render().plain


async def capture(pilot: Pilot, token: str = "", path: str = "/api/v1/bookings") -> None:
    await pilot.press("c")  # to the capture bar
    pilot.app.screen.tester.query_one("#capture-path", Input).value = path
    pilot.app.screen.tester.query_one("#capture-token", Input).value = token
    await pilot.press("enter")
    await settle(pilot)


async def show_tester_again(pilot: Pilot) -> None:
    await pilot.press("escape", "p", "t")
    await settle(pilot)


async def test_without_a_server_the_capture_bar_says_so_and_nothing_is_sent(make_app, engine: Engine) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await open_tester(pilot)
        assert NO_SERVER in capture_target(tester)  # before anything is sent
        assert tester.query_one("#capture-profile", Choice).value == "frontdesk"
        await capture(pilot, "fd_anything")
        assert news(app) == f"Nothing captured: {NO_SERVER}"
        assert tester.result_area.text == "" and tester.result_area.border_title == "Tokenised"
    assert kept(engine) == 0


async def test_the_capture_bar_shows_the_address_the_running_server_recorded(make_app, engine: Engine) -> None:
    secure = f"http://127.0.0.1:{free_port()}"  # nothing listens there: the server "crashed" a moment ago
    server = deliverer_lease(engine.store, "serve", ServerAddresses("http://127.0.0.1:1", secure, "http://127.0.0.1:2"))
    assert server.acquire()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        tester = await open_tester(pilot)
        assert f"Secure API {secure} · from the server running on this database" in capture_target(tester)
        await capture(pilot)
        assert tester.result_area.text.startswith("Capture of /api/v1/bookings: ")
        assert f"nothing answered at {secure} (from the server running on this database)" in tester.result_area.text
        server.release()  # it stopped: the tester says so when shown again
        await show_tester_again(pilot)
        assert NO_SERVER in capture_target(tester)
    assert kept(engine) == 0


async def test_the_secure_url_given_to_the_console_is_used_and_said(make_app, engine: Engine) -> None:
    secure = f"http://127.0.0.1:{free_port()}"
    app = make_app(secure_url=secure)
    async with app.run_test(size=SIZE) as pilot:
        tester = await open_tester(pilot)
        assert f"Secure API {secure} · from --secure-url" in capture_target(tester)
        await capture(pilot)
        assert f"nothing answered at {secure} (from --secure-url)" in tester.result_area.text
    assert kept(engine) == 0


async def test_a_capture_through_the_frontdesk_serve_running_on_this_database(make_app, engine: Engine,
                                                                              tmp_path) -> None:
    """End to end: `frontdesk serve` on free ports over the console's database; the console finds its secure
    listener by itself, and the capture puts the bookings' cards in the vault."""
    token = engine.identity.add_token(INTEGRATOR_EMAIL).token
    held = engine.store.scalar("SELECT count(*) FROM vault_cards")
    ports = [free_port() for _ in range(3)]
    server = _serving(tmp_path / "frontdesk.db", ports)
    try:
        _wait_for(f"http://127.0.0.1:{ports[1]}/api/v1/health")  # the secure listener, which capture reaches
        _recorded(tmp_path / "frontdesk.db")
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            tester = await open_tester(pilot)
            assert (f"Secure API http://127.0.0.1:{ports[1]} · from the server running on this database"
                    in capture_target(tester))
            await capture(pilot, token, "/api/v1/bookings?pagination[limit]=100")  # the demo's cards among them
            assert news(app).startswith("Captured /api/v1/bookings?pagination[limit]=100 with frontdesk: ")
            assert "4 cards tokenised" in news(app) and news(app).endswith("stored in the vault")
            shown = app.export_screenshot() + tester.result_area.text
            assert not [secret for secret in SECRETS if secret in shown]
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=15)
    # The bookings' cards, which the vault holds already: the capture returned their tokens and made no copy.
    assert engine.store.scalar("SELECT count(*) FROM vault_cards") == held


# --- the vault -------------------------------------------------------------------------------------

async def test_the_vault_lists_cards_masked_and_wipes_and_deletes(make_app, engine: Engine) -> None:
    with engine.store.transaction() as conn:  # the demo bookings' cards out of the way: two cards to browse
        conn.execute("DELETE FROM vault_cards WHERE profile_name = 'booking'")
    tokens = [t for t in engine.tokenisation.tokenise("frontdesk", samples.message("bookings"), "tests").tokens if t]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_area(pilot)
        await pilot.press("v")
        await settle(pilot)
        browser = screen.vault
        assert set(browser.cards) == set(tokens)
        assert sorted(card["card_number"] for card in browser.cards.values()) == ["411111******1111",
                                                                                "555555******4444"]
        assert "2 cards in the vault" in text_of(screen.query_one("#status-where", Static))
        audit = browser.query_one("#vault-audit", Static)
        assert "store" in text_of(audit) and "tests" in text_of(audit)
        card = browser.current()
        assert card is not None and card["has_cvv"]
        await pilot.press("w")
        await settle(pilot)
        assert not browser.cards[card["token"]]["has_cvv"]
        assert "wipe_cvv" in text_of(audit) and "console" in text_of(audit)
        await press_for(pilot, "d", ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert list(browser.cards) == [t for t in tokens if t != card["token"]]
        assert "4111111111111111" not in app.export_screenshot()
    assert kept(engine) == 1
    assert [entry["action"] for entry in engine.vault.audit(card["token"])] == ["delete", "read", "wipe_cvv",
                                                                                "store"]


async def test_the_tester_and_the_vault_are_built_on_their_first_visit(make_app) -> None:
    """The area opens with its list alone; a tab is built as it is first shown, by key or by click, and takes the
    focus as it shows."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_area(pilot)
        assert not screen.tester.is_attached and not screen.vault.is_attached
        assert not screen.query("#tester-profile") and app.focused is screen.table
        await pilot.press("t")
        await settle(pilot)
        assert screen.tester.is_attached and app.focused is screen.tester.query_one("#tester-profile", Choice)
        assert "frontdesk" in [value for _, value in screen.tester.query_one("#tester-profile", Choice).options]
        assert not screen.vault.is_attached
        await pilot.click("#--content-tab-vault")
        await settle(pilot)
        assert screen.vault.is_attached and app.focused is screen.vault.table and screen.vault.cards
