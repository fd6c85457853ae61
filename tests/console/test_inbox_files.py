"""Files in the inbox: attaching one to a reply (the engine's checks apply, its refusal shows in the
dialog) and saving a message's attachments to a folder without overwriting anything."""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from backend.chat.attachments import Attachments
from backend.core.errors import PayloadTooLarge
from backend.engine import Engine
from console.inbox.files import AttachDialog, SaveDialog, read_upload, save_new
from tests.console.helpers import SIZE, frozen_clock, press_for, settle, type_text
from tests.console.test_inbox import messages, open_thread

pytestmark = pytest.mark.anyio

PDF = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"
FLIGHT = b"Flight BA 2491, lands at 21:40"


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock


@pytest.fixture(autouse=True)
def no_downloads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A home without ~/Downloads: the save dialog then offers the current folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def stored_uploads(engine: Engine) -> int:
    return engine.store.scalar("SELECT count(*) FROM attachments WHERE user_id = ?",
                               (engine.identity.operator().user_id,))


def guest_sends_a_file(engine: Engine, name: str = "flight.txt", sent_at: str | None = None) -> None:
    """Emma Clarke's guest sends her flight details as a text file (the channel's adapter uploads it)."""
    channel = engine.store.one("SELECT * FROM channels WHERE channel_code = 'BookingCom'")
    booking = engine.store.scalar("SELECT booking_id FROM message_threads WHERE title = 'Emma Clarke'")
    upload = engine.chat.attachments.upload({"file": base64.b64encode(FLIGHT).decode(), "file_name": name,
                                             "file_type": "text/plain"}, channel_id=channel["id"])
    engine.chat.receive(channel, {"booking_id": booking, "message": "My flight, in case it helps.",
                                  "attachments": [upload["id"]], "sent_at": sent_at})


async def attach(pilot: Pilot, path: str) -> None:
    await pilot.press("ctrl+o")
    await settle(pilot)
    assert isinstance(pilot.app.screen, AttachDialog)
    await type_text(pilot, path)
    await pilot.press("enter")
    await settle(pilot)


def pending_line(pilot: Pilot) -> Static:
    return pilot.app.screen_stack[0].query_one("#conv-pending", Static)


async def compose_with_a_file(pilot: Pilot) -> None:
    Path("invoice.pdf").write_bytes(PDF)  # the tests' current folder is their own
    await open_thread(pilot)
    await type_text(pilot, "Your invoice.")
    await attach(pilot, "invoice.pdf")


async def open_thread_with_a_file(pilot: Pilot) -> None:
    await open_thread(pilot)
    await pilot.press("escape")
    await settle(pilot)


# --- snapshots ------------------------------------------------------------------------------------

def test_snapshot_compose_with_an_attachment(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=compose_with_a_file)


def test_snapshot_conversation_with_an_attachment(snap_compare, engine: Engine, make_app) -> None:
    guest_sends_a_file(engine)
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_thread_with_a_file)


# --- attach ---------------------------------------------------------------------------------------

async def test_attach_sends_the_file_with_the_reply(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await compose_with_a_file(pilot)
        assert not isinstance(app.screen, AttachDialog)
        assert f"📎 invoice.pdf ({len(PDF)} B)" in str(pending_line(pilot).render())
        screen = app.screen
        thread_id = screen.conversation.thread["id"]
        await pilot.press("ctrl+s")
        await settle(pilot)
        newest = messages(engine, thread_id)[0]
        assert newest["message"] == "Your invoice."
        assert [(a["file_name"], a["file_type"]) for a in newest["attachments"]] == [("invoice.pdf", "application/pdf")]
        assert engine.chat.attachment(engine.identity.operator(), newest["attachments"][0]["id"])["data"] == PDF
        assert not pending_line(pilot).display and screen.conversation.pending == {}


async def send_a_file_alone(pilot):
    """Open a thread, attach invoice.pdf and send it without words; the inbox screen."""
    Path("invoice.pdf").write_bytes(PDF)
    screen = await open_thread(pilot)
    await attach(pilot, "invoice.pdf")
    await pilot.press("ctrl+s")
    await settle(pilot)
    return screen


async def test_a_file_alone_is_a_reply(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await send_a_file_alone(pilot)
        newest = messages(engine, screen.conversation.thread["id"])[0]
        assert newest["message"] == "" and newest["attachments"][0]["file_name"] == "invoice.pdf"


async def test_a_file_you_sent_is_named_as_yours(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await send_a_file_alone(pilot)
        cells = screen.table.get_row(screen.conversation.thread["id"])
        assert any(str(cell).endswith("You: 1 attachment") for cell in cells)
        await pilot.press("escape")
        dialog = await press_for(pilot, "s", SaveDialog)
        assert dialog.source.startswith("your message of ")


async def test_a_refused_file_shows_the_engines_reason_and_stores_nothing(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        Path("setup.exe").write_bytes(b"MZ\x90\x00\x03\x00\x00\x00\x04\x00")
        screen = await open_thread(pilot)
        await attach(pilot, "setup.exe")
        dialog = app.screen
        assert isinstance(dialog, AttachDialog)
        assert "File type must be one of image/png" in str(dialog.field().error.render())
        dialog.field().control.value = "nowhere.pdf"
        await pilot.press("enter")
        await settle(pilot)
        assert "there is nothing at nowhere.pdf" in str(dialog.field().error.render())
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and screen.conversation.pending == {}
        assert stored_uploads(engine) == 0


async def test_a_pipe_or_a_folder_is_refused_before_anything_reads_it(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        os.mkfifo("guest.pipe")  # nothing ever writes to it: reading it would wait forever
        Path("photos").mkdir()
        await open_thread(pilot)
        await attach(pilot, "guest.pipe")
        dialog = app.screen
        assert isinstance(dialog, AttachDialog)
        assert str(dialog.field().error.render()) == "guest.pipe is a named pipe: only ordinary files can be attached"
        dialog.field().control.value = "photos"
        await pilot.press("enter")
        await settle(pilot)
        assert str(dialog.field().error.render()) == "photos is a folder, not a file"
        assert stored_uploads(engine) == 0


async def test_dropping_or_changing_the_file_deletes_the_upload(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        Path("invoice.pdf").write_bytes(PDF)
        Path("notes.txt").write_bytes(b"Late check-in at 22:00")
        screen = await open_thread(pilot)
        await attach(pilot, "invoice.pdf")
        await attach(pilot, "notes.txt")
        await settle(pilot)
        assert stored_uploads(engine) == 1
        assert screen.conversation.pending[screen.conversation.thread["id"]]["file_name"] == "notes.txt"
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.click("#drop")
        await settle(pilot)
        assert stored_uploads(engine) == 0 and screen.conversation.pending == {}
        assert not pending_line(pilot).display


# --- save -----------------------------------------------------------------------------------------

async def test_save_writes_the_files_and_never_overwrites(engine: Engine, make_app, tmp_path: Path) -> None:
    guest_sends_a_file(engine)
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "flight.txt").write_text("mine, keep it")
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread_with_a_file(pilot)
        for _ in range(2):
            await pilot.press("s")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, SaveDialog)
            folder_box = dialog.query_one("#save-folder", Input)
            assert folder_box.value == str(tmp_path)  # no ~/Downloads here: the current folder
            folder_box.value = str(folder)
            await pilot.press("enter")
            await settle(pilot)
        assert (folder / "flight.txt").read_text() == "mine, keep it"
        assert (folder / "flight (1).txt").read_bytes() == FLIGHT
        assert (folder / "flight (2).txt").read_bytes() == FLIGHT
        assert [n.message for n in app._notifications][-2:] == [f"Saved {folder / 'flight (1).txt'}",
                                                                 f"Saved {folder / 'flight (2).txt'}"]


async def test_save_takes_the_message_in_focus(engine: Engine, make_app) -> None:
    guest_sends_a_file(engine, sent_at="2026-11-22T08:58:00Z")
    guest_sends_a_file(engine, "boarding.txt")
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread_with_a_file(pilot)
        views = [view for view in app.screen.conversation.views.values() if view.message["attachments"]]
        await pilot.press("s")  # nothing in focus: the newest message with files
        await settle(pilot)
        assert [f["file_name"] for f in app.screen.files] == ["boarding.txt"]
        await pilot.press("escape")
        views[0].focus()
        await pilot.press("s")
        await settle(pilot)
        assert [f["file_name"] for f in app.screen.files] == ["flight.txt"]


async def test_save_into_a_missing_folder_says_so(engine: Engine, make_app, tmp_path: Path) -> None:
    guest_sends_a_file(engine)
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        await open_thread_with_a_file(pilot)
        await pilot.press("s")
        await settle(pilot)
        dialog = app.screen
        dialog.query_one("#save-folder", Input).value = str(tmp_path / "nowhere")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        assert "there is no folder at" in str(dialog.field().error.render())


def test_a_guests_file_name_stays_in_the_folder(tmp_path: Path) -> None:
    assert save_new(tmp_path, "../../etc/passwd", b"x") == tmp_path / "passwd"
    assert save_new(tmp_path, "..", b"x") == tmp_path / "attachment"
    assert save_new(tmp_path, "..", b"x") == tmp_path / "attachment (1)"


def test_a_big_file_is_read_only_past_the_limit(engine: Engine, tmp_path: Path) -> None:
    """Enough for the engine to refuse it with its own message, without reading all of it."""
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 1000)
    body = read_upload(str(big), 100)
    assert len(base64.b64decode(body["file"])) == 101
    with pytest.raises(PayloadTooLarge):
        Attachments(engine.store, "", 100).upload(body, user_id=engine.identity.operator().user_id)


async def test_a_file_too_big_is_refused_in_plain_words(engine: Engine, make_app) -> None:
    engine.chat.attachments.max_bytes = 2 * 1024 * 1024
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        Path("big.txt").write_bytes(b"x" * (3 * 1024 * 1024))
        await open_thread(pilot)
        await attach(pilot, "big.txt")
        shown = str(app.screen.field().error.render())
        assert "Too large: an attachment may be at most 2 MiB" in shown
        assert "Payload Too Large" not in shown
