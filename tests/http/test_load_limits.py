"""Hostile load over real sockets against a listener run as `frontdesk serve` runs it (guarded h11 protocol and
the guard): idle, trickling and slow clients are cut off, excess connections and requests get a 503 in the
error shape, each route takes the body it needs, and a well-behaved client is served all along. Timeouts are
fractions of a second here; the bounds the tests wait for are generous."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import pytest

from backend.core.config import Config, MiB
from backend.engine import Engine
from backend.http.apps import create_app
from backend.http.guard import Gate
from backend.http.limits import BOOKING_BYTES, LargeBodies, body_limits
from tests.conftest import UNTHROTTLED, LiveServer, User, free_port
from tests.shopping.shop import booking, day, make_shop

PATIENCE = 5.0  # seconds a test waits for what should happen within a fraction of one
# Seconds a setup request may take: on a loaded CI machine one has stalled past PATIENCE (a fsync, twice in
# ~30 full runs), and the setup is not what these tests time.
SETUP_PATIENCE = 30.0


@dataclass
class Served:
    engine: Engine
    server: LiveServer
    token: str
    stack: contextlib.ExitStack

    @property
    def port(self) -> int:
        return int(self.server.url.rsplit(":", 1)[1])

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=PATIENCE, source_address=(source, 0))

    def user(self) -> User:
        actor, issued = self.engine.identity.add_user(f"shop{time.monotonic_ns()}@example.com")
        return User(actor, issued.token, self.stack.enter_context(httpx.Client(
            base_url=self.server.url, timeout=SETUP_PATIENCE, headers={"Authorization": f"Bearer {issued.token}"})))

    def healthy(self) -> bool:
        return httpx.get(f"{self.server.url}/api/v1/health", timeout=PATIENCE).status_code == 200


@pytest.fixture
def serve(tmp_path) -> Iterator[Callable[..., Served]]:
    with contextlib.ExitStack() as stack:
        def start(gate: Gate | None = None, **settings: float) -> Served:
            engine = Engine.open(tmp_path / f"{free_port()}.db", Config(failed_auth_per_minute=UNTHROTTLED, **settings))
            server = stack.enter_context(LiveServer(engine, "main", free_port(), gate))
            _, issued = engine.identity.add_user(f"desk{time.monotonic_ns()}@example.com")
            return Served(engine, server, issued.token, stack)

        yield start


def request(method: str, path: str, *, token: str | None = None, length: int | None = None, body: bytes = b"",
            **headers: str) -> bytes:
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if length is not None:
        headers["Content-Length"] = str(length)
    head = f"{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
    head += "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in headers.items())
    return head.encode() + b"\r\n" + body


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP answer read off a raw socket: status, headers (lower-case names), body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed without an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode().split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    while len(body) < int(headers.get("content-length", 0)):
        body += sock.recv(65536)
    return int(status_line.split()[1]), headers, body


def readable(sock: socket.socket, within: float) -> bool:
    """Whether the socket has something to read (or is closed) within `within` seconds. poll, not select: a long
    test process may hold more than select's 1,024 descriptors."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(within * 1000))


def closed(sock: socket.socket, within: float = PATIENCE) -> bool:
    """Whether the server closes the connection within `within` seconds (anything it still sends is read)."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        if readable(sock, left):
            try:
                if not sock.recv(65536):
                    return True
            except ConnectionResetError:
                return True
    return False


def error(body: bytes) -> str:
    errors = json.loads(body)["errors"]
    assert set(errors) <= {"code", "title", "details"}
    return errors["code"]


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(serve):
    served = serve(header_timeout=0.3, idle_timeout=60)

    with served.connect() as silent, served.connect() as answered:
        answered.sendall(request("GET", "/api/v1/health"))
        assert answer(answered)[0] == 200

        assert closed(silent)
        assert closed(answered)  # after an answer too, however long the keep-alive
        assert served.healthy()


def test_headers_trickled_a_byte_at_a_time_are_cut_off_while_others_are_served(serve):
    served = serve(header_timeout=0.5)

    with served.connect() as slowloris:
        slowloris.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: test\r\n")
        deadline = time.monotonic() + PATIENCE
        cut_off = False
        while not cut_off and time.monotonic() < deadline:
            try:
                slowloris.sendall(b"X")  # never a whole header line, yet never silent
            except OSError:
                cut_off = True
            cut_off = cut_off or closed(slowloris, within=0.05)
            assert served.healthy()

    assert cut_off


def test_a_body_that_does_not_arrive_in_time_is_a_408(serve):
    served = serve(body_timeout=0.5)

    with served.connect() as slow:
        slow.sendall(request("POST", "/api/v1/properties", token=served.token, length=100, body=b'{"property": '))
        assert served.healthy()
        status, headers, body = answer(slow)

        assert status == 408 and error(body) == "request_timeout"
        assert headers["connection"] == "close" and closed(slow)


def test_slow_bodies_hold_no_slot_of_the_listener_and_are_cut_off_in_seconds(serve):
    """120 clients' bodies of push_booking, public, sent a byte at a time: health and an authenticated read are
    answered all along (they held all 100 slots of max_requests for a minute), each slow body is cut off once its
    time is up, and as many again find the listener as whole as before."""
    # Two seconds: the shop's own requests must not be cut off on a machine loaded by the rest of the suite (at one
    # second, its room type's body was, once); the slow bodies below stay well under it.
    served = serve(body_timeout=2.0)
    shop = make_shop(served.user(), rooms=1)
    body = json.dumps(booking(shop, day(2), day(3))).encode()  # under a KB: a few seconds' allowance by default
    reader = served.user().client
    for _ in range(2):
        slow = [served.connect(f"127.0.1.{client}") for client in range(1, 13)  # 12 clients, each at its cap
                for _ in range(Config.max_waiting_bodies)]
        for sock in slow:
            sock.sendall(request("POST", f"{shop.meta}/push_booking", length=len(body), body=body[:1]))
        for at in range(3):  # a byte each, every tenth of a second, for less than the body timeout
            for sock in slow:
                sock.sendall(body[at + 1:at + 2])
            time.sleep(0.1)

        assert served.healthy() and reader.get("/api/v1/properties").status_code == 200
        for sock in slow:
            status, headers, answered = answer(sock)
            assert status == 408 and error(answered) == "request_timeout" and headers["connection"] == "close"
            sock.close()
    assert reader.post(f"{shop.meta}/push_booking", content=body).status_code == 201


def test_a_client_has_few_bodies_arriving_at_a_time(serve):
    served = serve(max_waiting_bodies=3, body_timeout=3.0)
    head = request("POST", "/api/v1/properties", token=served.token, length=100, body=b"{")

    with contextlib.ExitStack() as stack:
        def body_from(source: str, wait: float | None = 0.3) -> tuple[int, dict[str, str], bytes] | None:
            """Its answer; None when there is none within `wait` seconds: its body is waited for."""
            sock = stack.enter_context(served.connect(source))
            sock.sendall(head)
            return answer(sock) if wait is None or readable(sock, wait) else None

        assert [body_from("127.0.2.1") for _ in range(3)] == [None] * 3
        status, headers, body = body_from("127.0.2.1", wait=None)

        assert status == 429 and error(body) == "http_too_many_requests" and int(headers["retry-after"]) >= 1
        assert body_from("127.0.2.2") is None  # another client's body is waited for


def test_a_body_has_time_in_proportion_to_its_length(serve):
    """--body-timeout, plus what the declared length takes at --body-min-rate: a large upload at a modest rate is
    not cut off as a stalled small one is."""
    served = serve(body_timeout=0.5, body_min_rate=1000)
    properties = b'{"property": {"title": "Slow Inn", "currency": "EUR"}}'
    whole = properties + b" " * (2000 - len(properties))  # 2 KB: 0.5 + 2 seconds

    with served.connect() as steady, served.connect() as stalled:
        steady.sendall(request("POST", "/api/v1/properties", token=served.token, length=len(whole), body=whole[:1000]))
        stalled.sendall(request("POST", "/api/v1/properties", token=served.token, length=100, body=b"{"))
        started = time.monotonic()
        status, _, _ = answer(stalled)  # 0.5 + 0.1 seconds
        time.sleep(max(0.0, 1.5 - (time.monotonic() - started)))
        steady.sendall(whole[1000:])

        assert status == 408 and answer(steady)[0] == 201


def test_connections_beyond_the_cap_get_a_503_in_the_error_shape_and_are_closed(serve):
    served = serve(max_connections=3)
    kept = [served.connect() for _ in range(3)]
    for sock in kept:  # each served once, then idle on keep-alive: open connections, all three
        sock.sendall(request("GET", "/api/v1/health"))
        assert answer(sock)[0] == 200

    with served.connect() as extra:
        extra.sendall(request("GET", "/api/v1/health"))
        status, headers, body = answer(extra)

        assert status == 503 and error(body) == "service_unavailable"
        assert int(headers["retry-after"]) >= 1 and closed(extra)

    kept.pop().close()
    assert _eventually(served.healthy)
    for sock in kept:
        sock.close()


def test_requests_beyond_the_in_flight_cap_get_a_503_not_a_queue(serve):
    served = serve(max_requests=2)
    whole = b'{"property": {"title": "Busy Inn", "currency": "EUR"}}'
    with contextlib.closing(sqlite3.connect(served.engine.location, isolation_level=None)) as writer, \
            served.connect() as first, served.connect() as second:
        writer.execute("BEGIN IMMEDIATE")  # another process writing: the creates wait for it, in progress
        for sock in (first, second):
            sock.sendall(request("POST", "/api/v1/properties", token=served.token, length=len(whole), body=whole))

        busy = _eventually(lambda: _status_of(served, 503))

        assert error(busy.content) == "service_unavailable" and int(busy.headers["retry-after"]) >= 1
        writer.execute("ROLLBACK")
        assert answer(first)[0] == answer(second)[0] == 201
    assert served.healthy()


def test_large_bodies_wait_briefly_for_one_of_few_slots_then_get_a_503(serve):
    gate = Gate(UNTHROTTLED, LargeBodies(slots=2, wait=0.3))
    served = serve(gate=gate)
    large = request("POST", "/api/v1/availability", token=served.token, length=2 * MiB, body=b'{"values": [')
    with served.connect() as first, served.connect() as second, served.connect() as third:
        first.sendall(large)
        second.sendall(large)
        assert _eventually(gate.large_bodies.slots.locked)  # both slots held, waiting for the rest of the bodies

        third.sendall(large)
        status, headers, body = answer(third)

        assert status == 503 and error(body) == "service_unavailable" and int(headers["retry-after"]) >= 1
        first.close()
        whole = b'{"values": []}' + b" " * (2 * MiB)
        client = served.user().client
        assert _eventually(lambda: client.post("/api/v1/availability", content=whole).status_code != 503)


def test_each_route_takes_the_body_it_needs(serve):
    served = serve()
    shop = make_shop(served.user())
    client = shop.user.client
    over_a_booking = b'{"booking": {"notes": "' + b"x" * BOOKING_BYTES + b'"}}'
    over_a_default = b'{"property": {"title": "' + b"x" * (MiB + 1) + b'"}}'
    under_ari = b'{"values": [], "padding": "' + b"x" * (2 * MiB) + b'"}'

    assert client.post(f"{shop.meta}/push_booking", content=over_a_booking).status_code == 413
    assert client.post(f"/api/v1/inbound/{shop.channel_id}/bookings", content=over_a_booking,
                       headers={"api-key": shop.inbound_key}).status_code == 413
    assert client.post("/api/v1/properties", content=over_a_booking).status_code == 400  # read: the wrong envelope
    assert client.post("/api/v1/properties", content=over_a_default).json()["errors"]["code"] == "payload_too_large"
    assert client.post("/api/v1/restrictions", content=under_ari).status_code not in (413, 503)


def test_the_limits_table_names_real_routes(engine):
    paths = {path for listener in ("main", "pci") for path in create_app(engine, listener).openapi()["paths"]}

    assert set(body_limits(Config())) <= paths


def test_push_booking_refuses_a_wrong_provider_key_before_reading_the_body(serve):
    served = serve()
    shop = make_shop(served.user(), provider_api_key="the-right-key")

    with served.connect() as sock:  # declares 14 MiB and sends none of it: the answer must not wait for it
        sock.sendall(request("POST", f"{shop.meta}/push_booking", length=14 * MiB, api_key="a-wrong-key"))
        status, _, body = answer(sock)

    assert status == 401 and error(body) == "unauthorized"


def test_serve_options_reach_every_listener(tmp_path):
    """The real CLI: the options set each listener's protocol and guard, one failed-credential count is shared by
    the three listeners, and the proxy named is trusted to name its clients."""
    ports = [free_port() for _ in range(3)]
    server = subprocess.Popen([sys.executable, "-m", "console", "serve", "--db", str(tmp_path / "served.db"),
                               "--port", str(ports[0]), "--secure-port", str(ports[1]), "--pci-port", str(ports[2]),
                               "--header-timeout", "0.3", "--failed-auth-per-minute", "2",
                               "--forwarded-allow-ips", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    main, pci = f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[2]}"

    def wrong_token(client: str) -> int:
        return httpx.get(f"{main}/api/v1/properties", headers={"Authorization": "Bearer fd_wrong",
                                                               "X-Forwarded-For": client}).status_code
    try:
        assert _eventually(lambda: _answers(f"{main}/api/v1/health"), within=SETUP_PATIENCE)  # a process starting
        with socket.create_connection(("127.0.0.1", ports[1]), timeout=PATIENCE) as silent:
            assert closed(silent)
        for key in ("wrong", "wrong too"):
            assert httpx.get(f"{pci}/api/v1/tokenization_profiles", params={"api_key": key},
                             headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 401
        assert wrong_token("198.51.100.7") == 429 and wrong_token("198.51.100.8") == 401
    finally:
        server.terminate()
        server.wait(PATIENCE)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url).status_code == 200
    except httpx.TransportError:
        return False


def _status_of(served: Served, status: int) -> httpx.Response | None:
    response = httpx.get(f"{served.server.url}/api/v1/health", timeout=PATIENCE)
    return response if response.status_code == status else None


def _eventually(check: Callable[[], object], within: float = PATIENCE) -> object:
    deadline = time.monotonic() + within
    while not (result := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return result
