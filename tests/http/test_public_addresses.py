"""`frontdesk serve --public-url/--public-secure-url/--public-pci-url`, as behind a proxy: every address
handed to a client is the public one, while capture still reaches the secure listener where it listens."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys

import httpx

from tests.chat.test_chat_api import png
from tests.conftest import free_port
from tests.test_serve import _frontdesk, _wait_for

PUBLIC = {"main": "https://desk.example", "secure": "https://secure.desk.example/fd",
          "pci": "https://vault.desk.example"}


def test_clients_get_the_public_addresses_and_capture_the_listen_one(tmp_path):
    db = tmp_path / "served.db"
    token = _frontdesk("demo", db=db).stdout.strip().splitlines()[-1]
    key = _frontdesk("pci-keys", "add", db=db).stdout.strip().splitlines()[-1]
    ports = [free_port() for _ in range(3)]
    server = subprocess.Popen(
        [sys.executable, "-m", "console", "serve", "--db", str(db), "--port", str(ports[0]),
         "--secure-port", str(ports[1]), "--pci-port", str(ports[2]), "--public-url", PUBLIC["main"],
         "--public-secure-url", PUBLIC["secure"] + "/", "--public-pci-url", PUBLIC["pci"]],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        main, secure, pci = (f"http://127.0.0.1:{p}" for p in ports)
        _wait_for(f"{pci}/api/v1/health")
        auth = {"Authorization": f"Bearer {token}"}
        chat = httpx.get(f"{main}/api/v1/applications/installed", headers=auth).json()["data"][0]
        body = {"one_time_token": {"property_id": chat["attributes"]["property_id"]}}
        for url, public in ((main, PUBLIC["main"]), (secure, PUBLIC["secure"]), (pci, PUBLIC["pci"])):
            assert httpx.get(f"{url}/openapi.json").json()["servers"] == [{"url": public}]
        for url, public in ((main, PUBLIC["main"]), (secure, PUBLIC["secure"])):
            issued = httpx.post(f"{url}/api/v1/auth/one_time_token", headers=auth, json=body).json()["data"]
            assert issued["attributes"]["embed_url"] == f"{public}/chat?token={issued['attributes']['token']}"
        uploaded = httpx.post(f"{main}/api/v1/attachments", headers=auth, json={"attachment": {
            "file": base64.b64encode(png()).decode(), "file_name": "a.png", "file_type": "image/png"}})
        assert uploaded.json()["data"]["attributes"]["url"].startswith(f"{PUBLIC['main']}/api/v1/attachments/")

        captured = httpx.post(f"{pci}/api/v1/capture", headers=auth, params={
            "api_key": key, "profile": "frontdesk", "method": "get", "url": f"{secure}/api/v1/bookings"}, timeout=30)
        assert captured.status_code == 200, captured.text
        assert "x-pci-frontdesk-tokens" in captured.headers
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=15)
    assert server.returncode == 0, output
