"""Inbox: the thread list and its filters, a conversation (an inquiry's card included), replying,
closing and reopening, and a guest's message arriving while the console runs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest
from rich.console import Console
from textual.pilot import Pilot

from backend.core.listing import ListQuery
from backend.engine import Engine
from console.inbox.screen import InboxScreen
from console.inbox.text import age, guests, inquiry_card, preview
from console.kit.area import PAGE_SIZE
from tests.console.helpers import NOW, SIZE, frozen_clock, select_row, settle, type_text, until

pytestmark = pytest.mark.anyio

THREADS = 27  # the demo's: 24 booking conversations and 3 Airbnb inquiries
OPEN_THREADS = 23  # of them still open: what the inbox shows first
UNREAD = 18


@pytest.fixture
def clock() -> Callable[[], datetime]:
    return frozen_clock  # the demo's messages are dated back from the clock; frozen, their ages keep still


def guests_listed(screen: InboxScreen) -> list[str]:
    return [row["title"] for row in screen.rows.values()]


async def open_inbox(pilot: Pilot) -> InboxScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, InboxScreen)
    return screen


async def open_thread(pilot: Pilot, guest: str = "Emma Clarke") -> InboxScreen:
    """Put the cursor on a guest's thread and open it with enter."""
    screen = await open_inbox(pilot)
    screen.table.focus()
    row_id = next(key for key, row in screen.rows.items() if row["title"] == guest)
    screen.table.move_cursor(row=screen.table.get_row_index(row_id))
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    return screen


async def open_inquiry(pilot: Pilot) -> None:
    await open_thread(pilot, "Maya Lin")


async def type_reply(pilot: Pilot) -> None:
    await open_thread(pilot)
    await type_text(pilot, "A cot is ready in your room.")


def guest_writes(engine: Engine, thread: dict, text: str) -> dict:
    channel = engine.store.one("SELECT * FROM channels WHERE channel_code = 'BookingCom'")
    return engine.chat.receive(channel, {"booking_id": thread["booking_id"], "message": text})


def add_inquiries(engine: Engine, count: int) -> None:
    """Airbnb inquiries from `count` guests, a second apart, newer than any of the demo's threads."""
    for n in range(count):
        add_inquiry(engine, f"Guest {n:02d}", f"2026-11-22T08:59:{n:02d}Z")


def add_inquiry(engine: Engine, guest: str, sent_at: str) -> None:
    """An Airbnb inquiry from a guest for Casa do Mar, sent at `sent_at`."""
    channel = engine.store.one("SELECT * FROM channels WHERE channel_code = 'AirBNB'")
    casa = engine.store.scalar("SELECT id FROM properties WHERE title = 'Casa do Mar'")
    engine.chat.inquiry(channel, {"guest_name": guest, "message": "Is it free?", "sent_at": sent_at,
                                  "booking_details": {
        "property_id": casa, "listing_id": "1", "listing_name": "Casa do Mar", "guest_name": guest,
        "checkin_date": "2027-01-10", "checkout_date": "2027-01-12", "nights": 2, "currency": "EUR",
        "expected_payout_amount_accurate": "300.00", "non_response_at": "2026-11-23T09:00:00Z",
        "number_of_adults": 2}})


def active_actions(screen: InboxScreen) -> set[str]:
    return {active.binding.action for active in screen.active_bindings.values()}


def messages(engine: Engine, thread_id: str) -> list[dict]:
    rows, _ = engine.chat.thread_messages(engine.identity.operator(), thread_id, ListQuery(limit=100))
    return rows


# --- snapshots ------------------------------------------------------------------------------------

def test_snapshot_conversation(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_thread)


def test_snapshot_inquiry(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=open_inquiry)


def test_snapshot_compose(snap_compare, make_app) -> None:
    assert snap_compare(make_app(mode="inbox"), terminal_size=SIZE, run_before=type_reply)


# --- formatting -----------------------------------------------------------------------------------

def test_ages_and_party() -> None:
    assert [age(stamp, NOW) for stamp in ("2026-11-22T09:00:00", "2026-11-22T08:55:00", "2026-11-22T06:00:00",
                                          "2026-11-20T09:00:00", "2026-10-01T09:00:00", None)] == \
        ["now", "5m", "3h", "2d", "7w", ""]
    assert guests({"number_of_guests": 3, "number_of_adults": 2, "number_of_children": 1}) == "3 (2 adults, 1 child)"
    reply = {"message": "Hi\nthere", "sender": "property", "attachments": [], "user_id": "u1",
             "author_email": "anna@example.com", "via_api": False}
    assert preview({"last_message": reply}, "u1") == "You: Hi there"
    assert preview({"last_message": reply}, "u2") == "anna: Hi there"
    assert preview({"last_message": {**reply, "via_api": True}}, "u1") == "API: Hi there"
    assert preview({"last_message": {**reply, "user_id": None, "author_email": None}}, "u1") == "Staff: Hi there"
    assert [preview({"last_message": {"message": "", "sender": "guest", "attachments": [{}] * count}}, "u1")
            for count in (1, 2)] == ["1 attachment", "2 attachments"]


def test_an_inquiry_that_leaves_out_its_party_shows_only_what_it_says() -> None:
    details = {"checkin_date": "2026-12-01", "checkout_date": "2026-12-04", "nights": 3, "number_of_guests": None,
               "number_of_adults": None, "expected_payout_amount_accurate": None, "listing_name": None}
    console = Console(width=80, record=True)
    console.print(inquiry_card({"inserted_at": "2026-11-22T09:00:00.000000", "meta": {"booking_details": details}}))
    shown = console.export_text()
    assert "1 Dec 2026 → 4 Dec 2026 · 3 nights" in shown
    assert "Guests" not in shown and "None" not in shown and "Payout" not in shown


# --- the list -------------------------------------------------------------------------------------

async def test_opens_on_the_inbox_newest_first(engine: Engine, make_app) -> None:
    app = make_app(mode=None)  # the console's own start
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        # Open conversations first: the ones still to answer.
        assert screen.page.total == OPEN_THREADS and not any(row["is_closed"] for row in screen.rows.values())
        assert str(screen.query_one("#ib-status").render()).startswith("open ")
        assert "open" in str(screen.status.query_one("#status-where").render())
        assert guests_listed(screen)[:3] == ["Maya Lin", "Emma Clarke", "Sofía López"]
        # Moving through the list previews a thread without marking it read.
        assert screen.conversation.thread["title"] == "Maya Lin"
        assert engine.chat.thread(engine.identity.operator(), screen.conversation.thread["id"])["unread_count"] == 1


async def test_filters(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        screen.query_one("#ib-status").clear()  # open and closed
        await settle(pilot)
        assert screen.page.total == THREADS
        await pilot.press("u")
        await settle(pilot)
        assert screen.page.total == UNREAD and all(row["unread_count"] for row in screen.rows.values())
        assert "unread" in str(screen.status.query_one("#status-where").render())
        await pilot.press("u")
        screen.query_one("#ib-provider").value = "AirBNB"
        await settle(pilot)
        assert {row["provider"] for row in screen.rows.values()} == {"AirBNB"}
        screen.query_one("#ib-provider").clear()
        screen.query_one("#ib-status").value = "true"
        await settle(pilot)
        assert all(row["is_closed"] for row in screen.rows.values()) and screen.rows
        screen.query_one("#ib-status").clear()
        casa = next(pid for pid, title in screen.property_titles.items() if title == "Casa do Mar")
        screen.query_one("#ib-property").value = casa
        await settle(pilot)
        assert {row["property_title"] for row in screen.rows.values()} == {"Casa do Mar"}
        screen.query_one("#ib-property").clear()
        await pilot.press("slash")
        await type_text(pilot, "dog")
        await pilot.press("enter")
        await settle(pilot)
        assert guests_listed(screen) == ["Tom Becker"]


async def test_next_unread(make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        await pilot.press("n")  # from Maya Lin (unread) past Emma Clarke to the next unread: Emma
        await settle(pilot)
        assert screen.current_row()["title"] == "Emma Clarke"
        await pilot.press("n")  # Sofía López is read
        await settle(pilot)
        assert screen.current_row()["title"] == "Camille Martin"


# --- a conversation -------------------------------------------------------------------------------

async def test_open_marks_read_and_shows_oldest_first(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread = screen.conversation.thread
        assert thread["unread_count"] == 0
        assert engine.chat.thread(engine.identity.operator(), thread["id"])["unread_count"] == 0
        assert [m for m, _ in screen.conversation.shown] == [m["id"] for m in reversed(messages(engine, thread["id"]))]
        assert app.focused is screen.conversation.compose_box


async def test_the_footer_shows_the_keys_that_do_something(make_app) -> None:
    """esc where it goes back to the list, send and attach while writing, the page keys with pages."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        assert {"back", "send", "attach"} <= active_actions(screen)
        await pilot.press("escape")
        await settle(pilot)
        assert not {"back", "send", "attach", "page(1)", "page(-1)", "save_files", "older"} & active_actions(screen)


async def test_reply(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread_id = screen.conversation.thread["id"]
        await type_text(pilot, "A cot is ready.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        newest = messages(engine, thread_id)[0]
        assert (newest["sender"], newest["message"]) == ("property", "A cot is ready.")
        assert screen.conversation.compose_box.text == ""
        assert screen.conversation.shown[-1][0] == newest["id"]
        assert "Reply to Emma Clarke queued for Booking.com" in str(
            screen.status.query_one("#status-news").render())
        assert str(screen.conversation.views[newest["id"]].render()).splitlines()[0].endswith(
            "· ◷ waiting for the channel")


async def test_blank_reply_is_refused(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        before = len(messages(engine, screen.conversation.thread["id"]))
        await type_text(pilot, "   ")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert len(messages(engine, screen.conversation.thread["id"])) == before
        assert "blank" in str(screen.status.query_one("#status-news").render())


async def test_close_and_reopen(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        (await open_inbox(pilot)).query_one("#ib-status").clear()  # closed ones too: the one closed stays listed
        screen = await open_thread(pilot)
        thread_id = screen.conversation.thread["id"]
        await pilot.press("escape", "c")
        await settle(pilot)
        assert engine.chat.thread(engine.identity.operator(), thread_id)["is_closed"]
        await until(pilot, lambda: screen.conversation.thread["is_closed"])
        await pilot.press("c")
        await settle(pilot)
        assert not engine.chat.thread(engine.identity.operator(), thread_id)["is_closed"]
        await until(pilot, lambda: not screen.rows[thread_id]["is_closed"])


async def test_a_guest_message_arrives(engine: Engine, make_app) -> None:
    """In a thread only previewed (the cursor on it), the new message shows and stays unread."""
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        thread = select_row(screen, "Emma Clarke")
        await settle(pilot)
        message = guest_writes(engine, thread, "We are at the door!")
        await until(pilot, lambda: guests_listed(screen)[0] == "Emma Clarke")
        await settle(pilot)
        first = screen.rows[thread["id"]]
        assert first["unread_count"] == thread["unread_count"] + 1
        assert first["last_message"]["message"] == "We are at the door!"
        assert screen.conversation.shown[-1][0] == message["id"]


async def test_a_guest_message_in_the_open_thread_is_read_at_once(engine: Engine, make_app) -> None:
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        thread = screen.conversation.thread
        message = guest_writes(engine, thread, "We are at the door!")
        await until(pilot, lambda: screen.conversation.shown[-1][0] == message["id"])
        await settle(pilot)
        assert engine.chat.thread(engine.identity.operator(), thread["id"])["unread_count"] == 0
        assert screen.rows[thread["id"]]["unread_count"] == 0
        # Another thread shown: the first one is no longer open, and its new messages wait unread.
        await pilot.press("escape", "down")
        await settle(pilot)
        guest_writes(engine, thread, "Hello?")
        await until(pilot, lambda: screen.rows[thread["id"]]["last_message"]["message"] == "Hello?")
        assert engine.chat.thread(engine.identity.operator(), thread["id"])["unread_count"] == 1


async def test_next_unread_on_a_later_page(engine: Engine, make_app) -> None:
    """Past the last unread row of this page, `n` asks the engine for the next one and turns to its page;
    past the last of all, it starts from the top again."""
    operator = engine.identity.operator()
    add_inquiries(engine, 40)  # newer than the demo's: the list now has two pages
    every, _ = engine.chat.threads(operator, ListQuery(limit=100))
    target = next(thread for thread in every[PAGE_SIZE:] if thread["unread_count"])
    first_unread = every[0]
    for thread in every:
        if thread["id"] not in (target["id"], first_unread["id"]):
            engine.chat.mark_read(operator, thread["id"])
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        assert screen.page.count == 2 and screen.current_id() == first_unread["id"]
        assert {"page(1)", "page(-1)"} <= active_actions(screen)
        await pilot.press("n")
        await settle(pilot)
        assert screen.page.number == 2 and screen.current_id() == target["id"]
        await pilot.press("n")
        await settle(pilot)
        assert screen.page.number == 1 and screen.current_id() == first_unread["id"]


async def test_a_search_too_common_to_count_says_more_than_and_pages_on(engine: Engine, make_app,
                                                                          monkeypatch) -> None:
    """A search matching more messages than it ranks (500 in use, 55 here) reads them newest first only as far as
    the page and one conversation more: the status line says "more than", and the next page is there to turn to.
    (The words out of their order: found in each inquiry, but not as typed in its thread's last message.)"""
    add_inquiries(engine, 60)
    monkeypatch.setattr("backend.chat.store.RANKED", 55)
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        await pilot.press("slash")
        await type_text(pilot, "free it is")
        await pilot.press("enter")
        await settle(pilot)
        assert "Page 1 · more than 55 conversations" in str(screen.status.query_one("#status-where").render())
        await pilot.press("pagedown")
        await settle(pilot)
        assert screen.page.number == 2 and len(screen.rows) == 10 and not screen.page.at_least
        assert "Page 2 of 2 · 60 conversations" in str(screen.status.query_one("#status-where").render())


async def test_load_older_messages_keeps_the_view(engine: Engine, make_app) -> None:
    """A thread shows its newest 500 messages; `o` adds older ones above without moving what is read."""
    operator = engine.identity.operator()
    emma = next(t for t in engine.chat.threads(operator, ListQuery(limit=50))[0] if t["title"] == "Emma Clarke")
    for n in range(520):
        engine.chat.send_to_booking(operator, emma["booking_id"], {"message": f"Note {n}"},
                                    at=f"2026-10-01T{n // 60:02d}:{n % 60:02d}:00.000000")
    guest_writes(engine, emma, "Are you there?")  # the thread's newest again
    total = emma["message_count"] + 521
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_thread(pilot)
        conversation = screen.conversation
        assert len(conversation.shown) == 500 and conversation.older == total - 500
        conversation.box.scroll_to(y=3, animate=False)  # reading near the top
        await settle(pilot)
        view, offset = conversation.anchor()
        await pilot.press("escape", "o")
        await settle(pilot)
        await pilot.pause(0.1)
        assert len(conversation.shown) == total and conversation.older == 0
        assert conversation.anchor() == (view, offset)
        assert conversation.box.scroll_y > 3
        assert not screen.query_one("#conv-older").display
