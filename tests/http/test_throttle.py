"""Failed credentials, whatever their kind, over real loopback: after the default number of 401s in a minute
from one client address, that address is answered 429 with Retry-After before anything is done, on every
listener of the process; a client on another address is served at once. Servers of their own, at the
default threshold (the rest of the suite runs unthrottled)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count

import httpx
import pytest

from backend.config import Config
from backend.engine import Engine
from backend.http.guard import Gate
from backend.keys import INTERNAL_HEADER
from tests.conftest import LiveServer, User, free_port
from tests.shopping.shop import Shop, make_shop

THRESHOLD = Config.failed_auth_per_minute
_addresses = count(10)


@dataclass
class Served:
    engine: Engine
    urls: dict[str, str]
    token: str
    pci_key: str
    shop: Shop

    def client(self, listener: str, address: str) -> httpx.Client:
        return httpx.Client(base_url=self.urls[listener], timeout=10,
                            transport=httpx.HTTPTransport(local_address=address))


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    ports = {listener: free_port() for listener in ("main", "secure", "pci")}
    engine = Engine.open(tmp_path_factory.mktemp("throttle") / "frontdesk.db",
                         Config(secure_url=f"http://127.0.0.1:{ports['secure']}"))
    gate = Gate(engine.config.failed_auth_per_minute)  # one count for the process's listeners, as `frontdesk serve`
    with contextlib.ExitStack() as stack:
        servers = {listener: stack.enter_context(LiveServer(engine, listener, port, gate))
                   for listener, port in ports.items()}
        actor, issued = engine.identity.add_user("owner@example.com")
        owner = User(actor, issued.token, stack.enter_context(httpx.Client(
            base_url=servers["main"].url, timeout=10, headers={"Authorization": f"Bearer {issued.token}"})))
        shop = make_shop(owner, provider_api_key="the-provider-key")
        yield Served(engine, {name: server.url for name, server in servers.items()}, issued.token,
                     engine.pci_keys.add("throttle").token, shop)


Call = Callable[[httpx.Client, Served], httpx.Response]
# Per credential kind: a call with a wrong one, and the same call done right.
KINDS: dict[str, tuple[str, Call, Call]] = {
    "API token (Bearer)": ("main",
                           lambda c, s: c.get("/api/v1/properties", headers={"Authorization": "Bearer fd_wrong"}),
                           lambda c, s: c.get("/api/v1/properties", headers={"Authorization": f"Bearer {s.token}"})),
    "API token (user-api-key)": ("main",
                                 lambda c, s: c.get("/api/v1/groups", headers={"user-api-key": "fd_wrong"}),
                                 lambda c, s: c.get("/api/v1/groups", headers={"user-api-key": s.token})),
    "web chat session": ("main",
                         lambda c, s: c.get("/api/v1/message_threads", headers={"Authorization": "Bearer fdc_wrong"}),
                         lambda c, s: c.get("/api/v1/message_threads", headers={"Authorization": f"Bearer {s.token}"})),
    "one-time chat token": ("main",
                            lambda c, s: c.post("/api/v1/auth/chat_session",
                                                json={"chat_session": {"one_time_token": "fdo_wrong"}}),
                            lambda c, s: c.get("/api/v1/health")),
    "pci key": ("pci",
                lambda c, s: c.get("/api/v1/tokenization_profiles", params={"api_key": "wrong"}),
                lambda c, s: c.get("/api/v1/tokenization_profiles", params={"api_key": s.pci_key})),
    "channel inbound key": ("main",
                            lambda c, s: c.get(f"/api/v1/inbound/{s.shop.channel_id}", headers={"api-key": "wrong"}),
                            lambda c, s: c.get(f"/api/v1/inbound/{s.shop.channel_id}",
                                               headers={"api-key": s.shop.inbound_key})),
    "shopping provider key": ("main",
                              lambda c, s: c.get(f"{s.shop.meta}/property_info", headers={"api-key": "wrong"}),
                              lambda c, s: c.get(f"{s.shop.meta}/property_info",
                                                 headers={"api-key": "the-provider-key"})),
}


def _fresh_address() -> str:
    return f"127.0.0.{next(_addresses)}"


def _fail_until_throttled(client: httpx.Client, served: Served, wrong: Call) -> httpx.Response:
    for _ in range(THRESHOLD):
        assert wrong(client, served).status_code == 401
    return wrong(client, served)


@pytest.mark.parametrize("kind", KINDS)
def test_repeated_wrong_credentials_are_answered_429_and_other_addresses_are_not_slowed(served, kind):
    listener, wrong, right = KINDS[kind]
    with served.client(listener, _fresh_address()) as attacker, served.client(listener, _fresh_address()) as other:
        assert right(other, served).status_code == 200

        throttled = _fail_until_throttled(attacker, served, wrong)
        with_the_right_one = right(attacker, served)  # refused before anything is looked at

        assert throttled.status_code == 429
        assert throttled.json() == {"errors": {"code": "http_too_many_requests", "title": "Too Many Requests"}}
        assert 1 <= int(throttled.headers["retry-after"]) <= 60
        assert with_the_right_one.status_code == 429
        assert right(other, served).status_code == 200


def test_one_count_for_every_listener_of_the_process(served):
    address = _fresh_address()
    with served.client("pci", address) as pci, served.client("main", address) as main:
        assert _fail_until_throttled(pci, served, KINDS["pci key"][1]).status_code == 429
        assert main.get("/api/v1/properties", headers={"Authorization": f"Bearer {served.token}"}).status_code == 429


def test_the_tokenisation_service_is_not_throttled_on_the_secure_listener(served):
    """Capture calls the secure listener from this host with the internal credential, on behalf of its own
    callers (whose failures the pci listener counts): another loopback client's failures must not stop it."""
    address = _fresh_address()
    with served.client("secure", address) as secure:
        throttled = _fail_until_throttled(secure, served, KINDS["API token (Bearer)"][1])
        internal = secure.get("/api/v1/properties", headers={"Authorization": f"Bearer {served.token}",
                                                             INTERNAL_HEADER: served.engine.keys.internal_secret})

        assert throttled.status_code == 429 and internal.status_code == 200
