"""`kill -9` of `frontdesk serve` in the middle of a stream of ARI writes and bookings, then a restart: every
committed change reaches the webhook receiver (a change sent twice comes under the same event id), every booking
committed has its event, and the push channel's ARI, as its receiver assembles it from what arrived in order,
equals the engine's on every night of the window.

The receivers answer a little slowly, so the deliverer lags behind the stream: at the kill there are committed
events it has not sent (checked), and calls in flight, which the restarted server must send."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx
from standardwebhooks.webhooks import Webhook

from backend.core.config import Config
from backend.engine import Engine
from tests.conftest import CONTACT, free_port
from tests.receiver import Receiver
from tests.test_serve import _wait_for

DAYS = 40
SLOW = 0.02  # seconds each receiver takes to answer: the deliverer falls behind a stream of writes


class Served:
    """`frontdesk serve` as a subprocess on free ports, started again on the same ports after a kill."""

    def __init__(self, db: Path) -> None:
        self.db, self.ports = db, [free_port() for _ in range(3)]
        self.url = f"http://127.0.0.1:{self.ports[0]}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "console", "serve", "--db", str(self.db), "--port", str(self.ports[0]),
             "--secure-port", str(self.ports[1]), "--pci-port", str(self.ports[2]), "--fetch-private-addresses"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        _wait_for(f"{self.url}/api/v1/health")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(15)


def build(db: Path, channel_url: str, hook_url: str) -> dict:
    engine = Engine.open(db, Config(fetch_private_addresses=True))  # the receivers are on loopback
    actor, issued = engine.identity.add_user("stream@example.com")
    prop = engine.properties.create(actor, {"title": "Crash Test Inn", "currency": "EUR", **CONTACT})["id"]
    room = engine.inventory.room_types.create(actor, {"property_id": prop, "title": "Double", "count_of_rooms": 5,
                                                      "occ_adults": 2})["id"]
    parent = engine.inventory.rate_plans.create(actor, {"property_id": prop, "room_type_id": room, "title": "Flexible",
                                                        "options": [{"occupancy": 2, "rate": "100", "is_primary": True}]})
    child = engine.inventory.rate_plans.create(actor, {
        "property_id": prop, "room_type_id": room, "title": "Non-refundable", "rate_mode": "derived",
        "parent_rate_plan_id": parent["id"],
        "options": [{"occupancy": 2, "rate": "100", "is_primary": True,
                     "derived_option": {"rate": [["decrease_by_percent", "10"]]}}]})
    engine.channels.create(actor, {"title": "Push OTA", "channel": "BookingCom", "properties": [prop],
                                   "rate_plans": [{"rate_plan_id": parent["id"]}, {"rate_plan_id": child["id"]}],
                                   "settings": {"ari_distribution": "push", "ari_url": channel_url,
                                                "ari_format": "json"}})
    hook = engine.webhooks.create(actor, {"property_id": prop, "callback_url": hook_url, "event_mask": "*"})
    first = datetime.now(UTC).date() + timedelta(days=2)
    engine.inventory.ari.set_availability(actor, [{"property_id": prop, "room_type_id": room,
                                                   "date_from": first.isoformat(),
                                                   "date_to": (first + timedelta(days=DAYS)).isoformat(),
                                                   "availability": 5}])
    engine.inventory.ari.set_restrictions(actor, [{"property_id": prop, "rate_plan_id": parent["id"],
                                                   "date_from": first.isoformat(),
                                                   "date_to": (first + timedelta(days=DAYS)).isoformat(),
                                                   "rate": "100.00"}])
    engine.store.close()
    return {"token": issued.token, "property": prop, "room": room, "parent": parent["id"], "child": child["id"],
            "secret": hook["secret"], "first": first}


class Stream(threading.Thread):
    """ARI writes and bookings one after another until stopped; keeps what was answered 200/201."""

    def __init__(self, url: str, setup: dict, start_at: int) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {setup['token']}"}, timeout=5)
        self.setup, self.number, self.answered, self.halt = setup, start_at, 0, threading.Event()
        self.refused = ""

    def run(self) -> None:
        while not self.halt.is_set():
            try:
                response = self.write(self.number)
            except httpx.TransportError:
                return  # the server is gone: what was in flight may or may not have committed
            if response.status_code not in (200, 201):
                self.refused = response.text
                return
            self.answered += 1
            self.number += 1

    def write(self, n: int) -> httpx.Response:
        setup, day = self.setup, (self.setup["first"] + timedelta(days=n * 7 % DAYS)).isoformat()
        if n % 10 == 9:
            return self.client.post("/api/v1/bookings", json={"booking": {
                "property_id": setup["property"], "status": "new", "arrival_date": day,
                "departure_date": (date.fromisoformat(day) + timedelta(days=1)).isoformat(), "currency": "EUR",
                "customer": {"name": "Guest", "surname": str(n)},
                "rooms": [{"room_type_code": setup["room"], "rate_plan_code": setup["parent"],
                           "occupancy": {"adults": 1, "children": 0, "infants": 0}}]}})
        if n % 2:
            return self.client.post("/api/v1/availability", json={"values": [{
                "property_id": setup["property"], "room_type_id": setup["room"], "date": day, "availability": n % 4 + 1}]})
        return self.client.post("/api/v1/restrictions", json={"values": [{
            "property_id": setup["property"], "rate_plan_id": setup["parent"], "date_from": day,
            "date_to": (date.fromisoformat(day) + timedelta(days=n % 3)).isoformat(), "rate": f"{100 + n}.00"}]})


def wait_for_answers(stream: Stream, count: int) -> None:
    deadline = time.monotonic() + 30
    while stream.answered < count:
        assert stream.is_alive() and time.monotonic() < deadline, \
            f"the stream stopped at {stream.answered} answers: {stream.refused}"
        time.sleep(0.01)


def caught_up(db: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    with sqlite3.connect(db) as conn:
        while conn.execute("SELECT count(*) FROM destinations WHERE cursor < (SELECT max(seq) FROM events)").fetchone()[0]:
            assert time.monotonic() < deadline, "the deliverer did not catch up"
            time.sleep(0.1)


def unsent(db: Path) -> int:
    """Committed events some destination has not had yet."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT coalesce(sum((SELECT count(*) FROM events e WHERE e.seq > d.cursor)), 0) "
                            "FROM destinations d").fetchone()[0]


def assembled(receiver: Receiver) -> dict[tuple[str, str, str], object]:
    """The channel's ARI as its receiver builds it: every pushed range applied in the order it arrived."""
    ari: dict[tuple[str, str, str], object] = {}
    for call in receiver.received:
        for value in call.json()["values"]:
            start, end = date.fromisoformat(value["date_from"]), date.fromisoformat(value["date_to"])
            for offset in range((end - start).days + 1):
                day = (start + timedelta(days=offset)).isoformat()
                if "availability" in value:
                    ari[("availability", value["room_type_id"], day)] = value["availability"]
                else:
                    ari[("rate", value["rate_plan_id"], day)] = value["rate"]
    return ari


def engines_ari(url: str, setup: dict) -> dict[tuple[str, str, str], object]:
    client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {setup['token']}"})
    window = {"filter[property_id]": setup["property"], "filter[date][gte]": setup["first"].isoformat(),
              "filter[date][lte]": (setup["first"] + timedelta(days=DAYS)).isoformat()}
    rates = client.get("/api/v1/restrictions", params={**window, "filter[restrictions]": "rate"}).json()["data"]
    rooms = client.get("/api/v1/availability", params=window).json()["data"]
    return {**{("rate", plan, day): values["rate"] for plan, days in rates.items() for day, values in days.items()},
            **{("availability", room, day): count for room, days in rooms.items() for day, count in days.items()}}


def test_nothing_committed_is_lost_to_kill_nine(tmp_path):
    channel, hook = Receiver(), Receiver()
    channel.delay = hook.delay = SLOW
    db = tmp_path / "frontdesk.db"
    setup = build(db, channel.url, hook.url)
    served = Served(db)
    try:
        served.start()
        stream = Stream(served.url, setup, 0)
        stream.start()
        wait_for_answers(stream, 60)
        served.kill()  # in the middle of the stream, with deliveries in flight
        stream.join(10)
        behind = unsent(db)
        assert behind > 0, "the deliverer had sent everything before the kill: nothing was left for the restart"
        served.start()
        after = Stream(served.url, setup, stream.number + 1)
        after.start()
        wait_for_answers(after, 20)
        after.halt.set()
        after.join(10)
        caught_up(db)

        with sqlite3.connect(db) as conn:
            events = dict(conn.execute("SELECT id, event FROM events"))
            bookings = {row[0] for row in conn.execute("SELECT id FROM bookings")}
        arrived: dict[str, dict] = {}
        for call in hook.received:
            Webhook(setup["secret"]).verify(call.body, call.headers)
            message = json.loads(call.body)
            first = arrived.setdefault(call.headers["webhook-id"], message)
            # Sent twice: the same event under the same id; an ARI range's values are read again when it is sent
            # again (never older than the first time), anything else is the very same message.
            assert first == message or (first["event"] == "ari" and
                                        {**first, "payload": None} == {**message, "payload": None})
        resent = len(hook.received) - len(arrived)
        assert set(events) <= set(arrived), f"{len(set(events) - set(arrived))} committed events never arrived"
        assert {"ari", "booking_new"} <= set(events.values())
        told = {message["payload"]["booking_id"] for message in arrived.values() if message["event"] == "booking_new"}
        assert bookings and told == bookings  # every booking committed, before the kill or after, was told
        window = {(setup["first"] + timedelta(days=n)).isoformat() for n in range(DAYS + 1)}
        pushed = {key: value for key, value in assembled(channel).items() if key[2] in window}
        assert pushed == engines_ari(served.url, setup)  # every night of every mapped plan and the room
        assert {key[1] for key in pushed} == {setup["room"], setup["parent"], setup["child"]}
        print(f"{behind} event deliveries owed at the kill; {resent} webhook calls received twice")
    finally:
        served.stop()
        channel.close()
        hook.close()
