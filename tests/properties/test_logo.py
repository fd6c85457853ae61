"""Logos are fetched into the media store and served by URL; a logo that can't be had is a 422, not a hang."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from backend.core.errors import ValidationFailed
from tests.conftest import property_body

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 64


class Images(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # the stdlib's name
        routes = {
            "/logo.png": (200, "image/png", PNG),
            "/page.html": (200, "text/html", b"<html>not an image</html>"),
            "/liar.png": (200, "image/png", b"GIF? no, plain text"),
            "/huge.png": (200, "image/png", PNG + b"\x00" * (3 * 1024 * 1024)),
            "/gone.png": (404, "text/plain", b"gone"),
        }
        if self.path == "/slow.png":
            time.sleep(20)  # far past the fetch timeout: the request must not wait for it
        status, content_type, body = routes.get(self.path, (200, "image/png", PNG))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up on a huge body
            self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture(scope="module")
def images() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Images)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_logo_is_copied_and_served(user, images):
    response = user.client.post("/api/v1/properties", json=property_body(logo_url=f"{images}/logo.png"))

    assert response.status_code == 201
    logo_url = response.json()["data"]["attributes"]["logo_url"]
    assert logo_url.startswith(str(user.client.base_url).rstrip("/") + "/api/v1/media/")
    served = httpx.get(logo_url)
    assert served.status_code == 200 and served.content == PNG
    assert served.headers["content-type"] == "image/png"


def test_sending_back_the_served_url_keeps_the_logo(user, images, live_engine):
    created = user.client.post("/api/v1/properties", json=property_body(logo_url=f"{images}/logo.png")).json()["data"]
    media_before = live_engine.store.scalar("SELECT count(*) FROM media")

    updated = user.client.put(f"/api/v1/properties/{created['id']}",
                              json={"property": {"logo_url": created["attributes"]["logo_url"], "city": "Leeds"}})

    assert updated.json()["data"]["attributes"]["logo_url"] == created["attributes"]["logo_url"]
    assert live_engine.store.scalar("SELECT count(*) FROM media") == media_before


@pytest.mark.parametrize("path,why", [
    ("/page.html", "not an image"),
    ("/liar.png", "bytes that are no image"),
    ("/huge.png", "too large"),
    ("/gone.png", "404"),
    ("/slow.png", "too slow"),
])
def test_a_logo_that_cannot_be_had_is_422_and_stores_nothing(user, images, live_engine, path, why):
    """The test client gives up after 10 s, so a fetch that hangs on the slow server fails here."""
    media_before = live_engine.store.scalar("SELECT count(*) FROM media")

    response = user.client.post("/api/v1/properties", json=property_body(logo_url=f"{images}{path}"))

    assert response.status_code == 422, why
    assert list(response.json()["errors"]["details"]) == ["logo_url"]
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0
    assert live_engine.store.scalar("SELECT count(*) FROM media") == media_before


def test_an_unreachable_host_is_422(user):
    response = user.client.post("/api/v1/properties", json=property_body(logo_url="http://127.0.0.1:9/logo.png"))

    assert response.status_code == 422 and "logo_url" in response.json()["errors"]["details"]


def test_no_logo_is_fetched_when_another_field_is_wrong(user, images, live_engine):
    media_before = live_engine.store.scalar("SELECT count(*) FROM media")

    response = user.client.post("/api/v1/properties", json=property_body(currency="EURO", logo_url=f"{images}/logo.png"))

    assert response.status_code == 422
    assert live_engine.store.scalar("SELECT count(*) FROM media") == media_before


def test_unknown_media_is_404(anonymous):
    assert anonymous.get("/api/v1/media/nope").status_code == 404


def test_private_and_local_addresses_are_refused_by_default(engine, images):
    actor, _ = engine.identity.add_user("careful@example.com")

    for url in (f"{images}/logo.png", "http://10.0.0.1/logo.png", "http://[::1]/logo.png",
                "http://169.254.169.254/latest/meta-data"):
        with pytest.raises(ValidationFailed) as refused:
            engine.properties.create(actor, {"title": "T", "currency": "EUR", "logo_url": url})
        assert "private or local address" in refused.value.details["logo_url"][0]
    assert engine.store.scalar("SELECT count(*) FROM properties") == 0
