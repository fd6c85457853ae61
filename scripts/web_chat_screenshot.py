"""Regenerate screenshots/web-chat.png: the embeddable web chat of a demo property, opened the way an
integrator opens it (a one-time token from the API), in Debian's headless Chromium, on a conversation with a
staff note.

    .venv/bin/python scripts/web_chat_screenshot.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.core.config import Config
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.chat.test_web_chat import CHROMIUM, FLAGS
from tests.conftest import LiveServer, free_port


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()  # the server's address is the one embed_url gives
        engine = Engine.open(Path(folder) / "demo.db", Config(base_url=f"http://127.0.0.1:{port}"))
        token = load_demo(engine)
        with LiveServer(engine, "main", port) as server, httpx.Client(
                base_url=server.url, headers={"Authorization": f"Bearer {token.token}"}) as client:
            threads = client.get("/api/v1/message_threads").json()["data"]
            property_id = threads[0]["relationships"]["property"]["data"]["id"]
            client.post(f"/api/v1/message_threads/{threads[0]['id']}/notes", json={"note": {
                "message": "Two-bedroom is held until Friday: confirm the price with revenue first."}})
            url = client.post("/api/v1/auth/one_time_token", json={"one_time_token": {
                "property_id": property_id}}).json()["data"]["attributes"]["embed_url"]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                page = browser.new_page(viewport={"width": 1000, "height": 640})
                page.goto(url)
                page.locator(".thread").first.click()
                page.locator(".message").first.wait_for()
                page.screenshot(path=str(ROOT / "screenshots" / "web-chat.png"))
                browser.close()


if __name__ == "__main__":
    main()
