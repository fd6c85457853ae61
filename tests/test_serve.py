"""`frontdesk serve` as a user runs it: a subprocess on free ports, called over real HTTP."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx

from backend.outbox.lease import ServerAddresses, running_server
from storage import SqliteStore
from tests.conftest import free_port

BOOKING_SITE = "https://book.hotel.example"


def _frontdesk(*args: str, db) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "console", *args, "--db", str(db)],
                          capture_output=True, text=True, timeout=60, check=True)


def test_serve_runs_three_listeners_over_one_database(tmp_path):
    db = tmp_path / "served.db"
    token = _frontdesk("demo", db=db).stdout.strip().splitlines()[-1]
    ports = [free_port() for _ in range(3)]
    server = subprocess.Popen(
        [sys.executable, "-m", "console", "serve", "--db", str(db), "--port", str(ports[0]),
         "--secure-port", str(ports[1]), "--pci-port", str(ports[2]),
         "--cors-origin", "HTTPS://Book.Hotel.Example:443"],  # kept as a browser sends it: BOOKING_SITE
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        urls = [f"http://127.0.0.1:{p}" for p in ports]
        _wait_for(f"{urls[2]}/api/v1/health")
        headers = {"Authorization": f"Bearer {token}"}

        main = httpx.get(f"{urls[0]}/api/v1/properties", headers=headers, params={"pagination[limit]": 100})
        secure = httpx.get(f"{urls[1]}/api/v1/properties/options", headers=headers)
        pci = httpx.get(f"{urls[2]}/api/v1/health")
        created = httpx.post(f"{urls[0]}/api/v1/properties", headers=headers,
                             json={"property": {"title": "Served Inn", "currency": "EUR"}})
        seen_on_secure = httpx.get(f"{urls[1]}/api/v1/properties/{created.json()['data']['id']}", headers=headers)

        assert main.status_code == 200 and main.json()["meta"]["total"] == 8
        assert len(secure.json()["data"]) == 8
        assert pci.json()["data"]["id"] == "pci"
        assert created.status_code == 201 and seen_on_secure.status_code == 200
        for url, docs in zip(urls, (200, 200, 404)):  # no interactive docs on pci without --pci-docs
            assert httpx.get(f"{url}/openapi.json").json()["openapi"].startswith("3.")
            assert httpx.get(f"{url}/docs").status_code == docs
        asked = httpx.options(f"{urls[0]}/api/v1/meta/OpenShopping/property_list", headers={
            "Origin": BOOKING_SITE, "Access-Control-Request-Method": "GET"})
        assert asked.status_code == 204 and asked.headers["access-control-allow-origin"] == BOOKING_SITE
        chat_policy = httpx.get(f"{urls[0]}/chat").headers["content-security-policy"]
        assert "frame-ancestors 'none'" in chat_policy  # no site frames the web chat unless the operator says so
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=15)
    assert server.returncode == 0, output
    assert "Traceback" not in output


def test_serve_refuses_a_cors_origin_a_browser_never_sends(tmp_path):
    # Some would never match; the rest would write directives or sources of their own into the card form's CSP.
    for origin in ("https://book.hotel.example/", "book.hotel.example", "https://book.hotel.example/rooms",
                   "https://a.example;sandbox", "https://a.example,https://b.example", "'https://a.example'",
                   "https://a.example:99999", "https://[::1;]", "https://a..example"):
        refused = subprocess.run([sys.executable, "-m", "console", "serve", "--db", str(tmp_path / "x.db"),
                                  "--cors-origin", origin], capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2 and "is not an origin" in refused.stderr, refused.stderr


def test_serve_refuses_a_proxy_that_is_no_address(tmp_path):
    # uvicorn would keep it as a literal that no client address ever is, and trust nobody without a word.
    for proxies in ("proxy.example", "10.0.0.1/24", "10.0.0.5,localhost"):
        refused = subprocess.run([sys.executable, "-m", "console", "serve", "--db", str(tmp_path / "x.db"),
                                  "--forwarded-allow-ips", proxies], capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2 and "is not an IP address or network" in refused.stderr, refused.stderr


def _serving(db, ports: list[int], *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "console", "serve", "--db", str(db), "--port", str(ports[0]),
         "--secure-port", str(ports[1]), "--pci-port", str(ports[2]), *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _recorded(db) -> ServerAddresses:
    deadline = time.monotonic() + 30
    while (found := running_server(SqliteStore(db))) is None:
        assert time.monotonic() < deadline, "serve recorded no addresses"
        time.sleep(0.05)
    return found


def test_serve_records_its_addresses_while_it_runs_and_clears_them_when_it_stops(tmp_path):
    db = tmp_path / "served.db"
    ports = [free_port() for _ in range(3)]
    server = _serving(db, ports, "--public-secure-url", "https://secure.hotel.example")
    try:
        assert _recorded(db) == ServerAddresses(*(f"http://127.0.0.1:{port}" for port in ports),
                                                public_secure="https://secure.hotel.example")
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=15)
    assert server.returncode == 0, output
    assert running_server(SqliteStore(db)) is None


def test_a_killed_servers_addresses_are_not_trusted(tmp_path):
    db = tmp_path / "served.db"
    server = _serving(db, [free_port() for _ in range(3)])
    try:
        _recorded(db)
    finally:
        server.send_signal(signal.SIGKILL)
        server.communicate(timeout=15)
    assert running_server(SqliteStore(db)) is None  # its record is still there, but its process is gone


def _wait_for(url: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(url).status_code == 200:
                return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.1)


def test_workers_refuse_a_port_another_frontdesk_listens_on_rather_than_share_it(tmp_path):
    # Another Frontdesk's workers listen with SO_REUSEPORT, which would let this one's sockets join theirs.
    taken = socket.socket()
    taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        refused = subprocess.run([sys.executable, "-m", "console", "serve", "--db", str(tmp_path / "x.db"),
                                  "--workers", "2", "--port", str(port), "--secure-port", str(free_port()),
                                  "--pci-port", str(free_port())], capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert refused.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in refused.stderr and "Traceback" not in refused.stderr, refused.stderr
