"""Test calls are not a lever (backend/webhooks/trials.py): they wait on their own few threads, so a stalled receiver
holds none that the listeners share, in line up to a bound (then a 503); and each user may start a few a minute
(then a 429 saying when the next may start)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from backend.engine import Engine
from backend.vault import samples
from backend.webhooks.trials import THREADS
from tests.conftest import free_port, serve_site
from tests.shopping.shop import check
from tests.test_serve import _wait_for

CALLS = 45  # more than the 40 threads that every sync route of the three listeners shares


def test_test_calls_to_a_stalled_receiver_leave_every_listener_answering(tmp_path, receiver):
    """`frontdesk serve` as run (three listeners on one loop, one shared thread pool): 45 test calls to a receiver
    that holds every answer, then a pci call and a main-listener write, both sync routes. Both are answered while
    every test call that reached the receiver is still waiting on it; those in line beyond the bound got a 503."""
    db = tmp_path / "served.db"
    engine = Engine.open(db)
    users = []
    for number in range(CALLS):
        actor, issued = engine.identity.add_user(f"tester{number}@example.com")
        users.append((issued.token, engine.properties.create(actor, {"title": f"Inn {number}", "currency": "EUR"})))
    pci_key = engine.pci_keys.add("tests").token
    engine.store.close()
    receiver.gate = threading.Event()
    ports = [free_port() for _ in range(3)]
    server = subprocess.Popen(
        [sys.executable, "-m", "console", "serve", "--db", str(db), "--port", str(ports[0]), "--secure-port",
         str(ports[1]), "--pci-port", str(ports[2]), "--fetch-private-addresses"],  # the receiver is on loopback
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    main, pci = f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[2]}"
    answered: list[tuple[str, int]] = []  # in the order the answers came
    sent = threading.Semaphore(0)

    def trace(event: str, _info: dict) -> None:
        if event == "http11.send_request_body.complete":
            sent.release()

    def test_call(token: str, hotel: dict) -> httpx.Response:
        body = {"webhook": {"property_id": hotel["id"], "callback_url": receiver.url, "event_mask": "*"}}
        with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=60) as client:
            response = client.post(f"{main}/api/v1/webhooks/test", json=body, extensions={"trace": trace})
        answered.append(("test call", response.status_code))
        return response

    try:
        _wait_for(f"{pci}/api/v1/health")
        with ThreadPoolExecutor(CALLS) as callers:
            calls = [callers.submit(test_call, token, hotel) for token, hotel in users]
            for _ in range(CALLS):
                assert sent.acquire(timeout=30), "a test call was never sent"
            receiver.wait_for(THREADS)
            profile = httpx.post(f"{pci}/api/v1/tokenization_profiles", params={"api_key": pci_key}, timeout=60,
                                 json={"tokenization_profile": {**samples.profile("bookings"), "name": "while-held"}})
            answered.append(("pci", profile.status_code))
            token, hotel = users[0]
            renamed = httpx.put(f"{main}/api/v1/properties/{hotel['id']}", headers={"Authorization": f"Bearer {token}"},
                                json={"property": {"title": "Renamed while held"}}, timeout=60)
            answered.append(("main", renamed.status_code))
            receiver.gate.set()
            responses = [call.result() for call in calls]
    finally:
        receiver.gate.set()
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)

    assert (profile.status_code, renamed.status_code) == (201, 200)
    before = answered[:answered.index(("main", 200))]
    assert {status for name, status in before if name == "test call"} <= {503}, before
    statuses = [response.status_code for response in responses]
    assert set(statuses) == {200, 503} and statuses.count(200) >= THREADS, statuses
    for busy in (response for response in responses if response.status_code == 503):
        assert busy.json()["errors"]["code"] == "service_unavailable" and int(busy.headers["Retry-After"]) > 0
    assert "Traceback" not in output


def test_a_user_may_start_a_few_test_calls_a_minute(new_db, receiver):
    with serve_site(new_db(), fetch_private_addresses=True, webhook_tests_per_minute=3) as site:
        user, other = site.user(), site.user()
        bodies = [{"webhook": {"property_id": check(u.client.post("/api/v1/properties", json={"property": {
            "title": "Inn", "currency": "EUR"}}), 201)["data"]["id"], "callback_url": receiver.url, "event_mask": "*"}}
            for u in (user, other)]
        first = time.time()
        for _ in range(3):
            check(user.client.post("/api/v1/webhooks/test", json=bodies[0]))
        refused = user.client.post("/api/v1/webhooks/test", json=bodies[0])
        waited = time.time() - first
        assert check(refused, 429)["errors"]["code"] == "http_too_many_requests"
        # Honest: the next may start when the first of the three leaves the minute, not sooner, not much later.
        assert 60 - waited - 1 <= int(refused.headers["Retry-After"]) <= 60
        assert len(receiver.received) == 3
        check(other.client.post("/api/v1/webhooks/test", json=bodies[1]))  # counted per user
        assert len(receiver.received) == 4
