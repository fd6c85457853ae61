"""The embeddable web chat in a real headless Chromium (Debian's, driven by Playwright), inside an
iframe of a host page on another origin, against `frontdesk serve`'s real listener.

Chromium comes from the system (`scripts/install-test-browser`); without it these tests are skipped,
unless FRONTDESK_REQUIRE_BROWSER is set, as `.ci/run` does, when its absence is a failure."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator

import pytest

from tests.chat.test_chat_api import Desk
from tests.loopback import LoopbackSite
from tests.shopping.shop import check

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps calling home, and this machine's closed
# network refuses it, many times a run.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
WAIT_MS = 10_000  # the page polls every 4 s; live arrival is seen within one or two polls


@pytest.fixture(scope="module")
def browser() -> Iterator:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("FRONTDESK_REQUIRE_BROWSER"):
            pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/install-test-browser")
        pytest.skip("no Chromium on this machine (scripts/install-test-browser installs it)")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


class HostPage(LoopbackSite):
    """A host application's page on its own origin, which puts the chat in an iframe."""

    def __init__(self) -> None:
        self.frame_url = ""
        super().__init__(lambda: (f'<!doctype html><title>PMS</title><h1>Our PMS</h1>'
                                  f'<iframe src="{self.frame_url}" width="900" height="600"></iframe>').encode(),
                         "text/html; charset=utf-8")


@pytest.fixture
def host() -> Iterator[HostPage]:
    page = HostPage()
    yield page
    page.close()


@pytest.fixture
def desk(user, live) -> Iterator[Desk]:
    made = Desk(user, live)
    made.guest_says("Is breakfast included?")
    yield made
    made.adapter.close()


def issue_embed(desk: Desk) -> dict:
    """A one-time token and the embed address of the desk's property, as the integrator's backend asks for them."""
    return check(desk.client.post("/api/v1/auth/one_time_token", json={
        "one_time_token": {"property_id": desk.shop.property_id}}), 201)["data"]["attributes"]


def open_host_page(browser, host: HostPage, embed_url: str):
    """The integrator's page on its own origin, with the chat in its iframe."""
    host.frame_url = embed_url
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(host.url + "/")
    return page


def test_staff_read_and_answer_a_guest_in_the_embedded_chat(browser, host, desk, live, tmp_path):
    store = live[0].store
    issued = issue_embed(desk)
    page = open_host_page(browser, host, issued["embed_url"])
    chat = page.frame_locator("iframe")

    # The thread list: the guest's thread, unread, with its preview.
    thread = chat.locator(".thread", has_text="Jane Doe")
    thread.wait_for()
    assert "unread" in thread.get_attribute("class")
    assert "Is breakfast included?" in thread.inner_text()
    assert "token=" not in page.frames[1].url  # the spent one-time token is out of the address

    # Open it: the guest's message, and the thread is read.
    thread.click()
    chat.locator(".message.guest", has_text="Is breakfast included?").wait_for()
    thread_id = desk.thread_id()
    assert _eventually(lambda: store.scalar("SELECT unread_count FROM message_threads WHERE id = ?", (thread_id,)) == 0)

    # Reply with a file: it shows on the right, and the database holds both.
    note = tmp_path / "menu.txt"
    note.write_text("Breakfast 7:00-10:30\n")
    chat.locator("#reply").fill("Yes, from 7 to 10:30. Here is the menu.")
    chat.locator("#file").set_input_files(str(note))
    chat.locator("#send").click()
    chat.locator(".message.property", has_text="Yes, from 7 to 10:30.").wait_for()
    row = store.one("SELECT id, sender FROM messages WHERE thread_id = ? AND message = ?",
                    (thread_id, "Yes, from 7 to 10:30. Here is the menu."))
    assert row is not None and row["sender"] == "property"
    assert store.scalar("SELECT file_name FROM attachments WHERE message_id = ?", (row["id"],)) == "menu.txt"

    # A guest writes while staff watch: it appears without a reload.
    desk.guest_says("Wonderful, thank you!")
    chat.locator(".message.guest", has_text="Wonderful, thank you!").wait_for()

    # Close the thread from the page.
    chat.locator("#toggle-closed").click()
    chat.locator("#toggle-closed", has_text="Reopen").wait_for()
    assert store.scalar("SELECT is_closed FROM message_threads WHERE id = ?", (thread_id,)) == 1
    page.close()


def test_a_spent_or_bad_token_shows_a_message_not_the_chat(browser, host, desk, anonymous):
    issued = issue_embed(desk)
    check(anonymous.post("/api/v1/auth/chat_session", json={
        "chat_session": {"one_time_token": issued["token"]}}), 201)  # someone used it first
    page = open_host_page(browser, host, issued["embed_url"])
    notice = page.frame_locator("iframe").locator("#notice")
    notice.wait_for()
    assert "used or expired" in notice.inner_text()
    assert page.frame_locator("iframe").locator(".thread").count() == 0
    page.close()


def _eventually(condition, tries: int = 50) -> bool:
    """Whether the condition comes true within 5 s: the page's calls land a moment after its clicks."""
    for _ in range(tries):
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_internal_notes_show_apart_and_are_written_from_the_page(browser, host, desk, live):
    """A colleague's note (over the API) shows in its own box with its author; one saved from the page is a note,
    never a message the guest or the channel could see."""
    store, thread_id = live[0].store, desk.thread_id()
    check(desk.client.post(f"/api/v1/message_threads/{thread_id}/notes",
                           json={"note": {"message": "Regular guest: offer the upgrade"}}), 201)
    issued = issue_embed(desk)
    page = open_host_page(browser, host, issued["embed_url"])
    chat = page.frame_locator("iframe")
    chat.locator(".thread", has_text="Jane Doe").click()

    note = chat.locator(".message.note", has_text="Regular guest: offer the upgrade")
    note.wait_for()
    assert f"Internal note · {desk.shop.user.actor.email}" in note.inner_text()
    assert chat.locator(".message.guest", has_text="offer the upgrade").count() == 0

    chat.locator("#reply").fill("Upgrade given: room 12")
    chat.locator("#add-note").click()
    chat.locator(".message.note", has_text="Upgrade given: room 12").wait_for()
    assert chat.locator("#reply").input_value() == ""
    assert store.scalar("SELECT count(*) FROM thread_notes WHERE thread_id = ? AND note = ?",
                        (thread_id, "Upgrade given: room 12")) == 1
    assert store.scalar("SELECT count(*) FROM messages WHERE thread_id = ? AND message LIKE '%Upgrade%'",
                        (thread_id,)) == 0
    assert check(desk.adapter.get(f"{desk.inbound}/outbox"))["data"] == []
    assert check(desk.client.get(f"/api/v1/message_threads/{thread_id}"))["data"]["attributes"]["message_count"] == 1
    page.close()
