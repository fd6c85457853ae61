"""Failed credentials over real loopback, at the default threshold, on servers of their own (the rest of the suite
runs unthrottled). A stranger's failures never refuse a valid credential from its address: 401s count against the
client address and the credential presented together, and against the address alone only when that credential
matched nothing. A credential that failed too often from an address is refused there before anything is done; an
address over its limit has its 401s answered 429, and nothing else. Health and public shopping are never throttled.
Linux routes all of 127.0.0.0/8 to loopback: each test's clients take addresses of their own."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count

import httpx
import pytest

from backend.core.config import Config
from backend.core.keys import INTERNAL_HEADER
from backend.engine import Engine
from backend.http.guard import Gate
from backend.http.throttle import WINDOW, Throttle
from tests.conftest import LiveServer, User, free_port
from tests.shopping.shop import Shop, check, make_shop

THRESHOLD = Config.failed_auth_per_minute
_addresses = count(10)


@dataclass
class Served:
    engine: Engine
    urls: dict[str, str]
    token: str
    pci_key: str
    shop: Shop  # with a provider key
    public: Shop  # without

    def client(self, listener: str, address: str, **headers: str) -> httpx.Client:
        return httpx.Client(base_url=self.urls[listener], timeout=10, headers=headers,
                            transport=httpx.HTTPTransport(local_address=address))

    def one_time_token(self, client: httpx.Client) -> str:
        return check(client.post("/api/v1/auth/one_time_token", headers={"Authorization": f"Bearer {self.token}"},
                                 json={"one_time_token": {"property_id": self.shop.property_id}}), 201)["data"][
            "attributes"]["token"]

    def chat_session(self, client: httpx.Client) -> str:
        return check(exchange(client, self.one_time_token(client)), 201)["data"]["attributes"]["token"]

    def card_form_session(self) -> str:
        """A card form's session, as a booking engine's page asks for one (from loopback itself)."""
        url = check(httpx.get(f"{self.urls['main']}/api/v1/meta/{self.public.channel_name}/card_capture_form_url"))[
            "data"]["attributes"]["card_capture_form_url"]
        return url.rsplit("session_token=", 1)[1]


def start(stack: contextlib.ExitStack, folder, **config) -> tuple[Engine, dict[str, str]]:
    """`frontdesk serve`'s three listeners at the default threshold, sharing one count as it shares one."""
    ports = {listener: free_port() for listener in ("main", "secure", "pci")}
    engine = Engine.open(folder / "frontdesk.db", Config(secure_url=f"http://127.0.0.1:{ports['secure']}", **config))
    gate = Gate(engine.config.failed_auth_per_minute)
    servers = {listener: stack.enter_context(LiveServer(engine, listener, port, gate))
               for listener, port in ports.items()}
    return engine, {name: server.url for name, server in servers.items()}


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    with contextlib.ExitStack() as stack:
        engine, urls = start(stack, tmp_path_factory.mktemp("throttle"))
        actor, issued = engine.identity.add_user("owner@example.com")
        owner = User(actor, issued.token, stack.enter_context(httpx.Client(
            base_url=urls["main"], timeout=10, headers={"Authorization": f"Bearer {issued.token}"})))
        shop = make_shop(owner, provider_api_key="the-provider-key", days=0)
        check(owner.client.post("/api/v1/applications/install", json={"application_installation": {
            "property_id": shop.property_id, "application_code": "chat"}}), 201)
        yield Served(engine, urls, issued.token, engine.pci_keys.add("throttle").token, shop,
                     make_shop(owner, days=0))


def exchange(client: httpx.Client, one_time_token: str) -> httpx.Response:
    return client.post("/api/v1/auth/chat_session", json={"chat_session": {"one_time_token": one_time_token}})


def keep_card(client: httpx.Client, session_token: str) -> httpx.Response:
    return client.post("/api/v1/capture_form/cards", params={"session_token": session_token}, json={"card": {
        "card_number": "4000056655665556", "cardholder_name": "Ada Guest", "expiration_month": "9",
        "expiration_year": "2099", "service_code": "737"}})


Wrong = Callable[[httpx.Client, Served, int], httpx.Response]  # the i-th wrong credential of a kind
Right = Callable[[httpx.Client, Served], httpx.Response]
# Per credential kind: its listener, a call with a wrong one (a new one for each i), and the call done right.
KINDS: dict[str, tuple[str, Wrong, Right]] = {
    "API token (Bearer)": ("main",
                           lambda c, s, i: c.get("/api/v1/properties", headers={"Authorization": f"Bearer fd_{i}"}),
                           lambda c, s: c.get("/api/v1/properties", headers={"Authorization": f"Bearer {s.token}"})),
    "API token (user-api-key)": ("main",
                                 lambda c, s, i: c.get("/api/v1/groups", headers={"user-api-key": f"fd_{i}"}),
                                 lambda c, s: c.get("/api/v1/groups", headers={"user-api-key": s.token})),
    "web chat session": ("main",
                         lambda c, s, i: c.get("/api/v1/message_threads", headers={"Authorization": f"Bearer fdc_{i}"}),
                         lambda c, s: c.get("/api/v1/message_threads",
                                            headers={"Authorization": f"Bearer {s.chat_session(c)}"})),
    "one-time chat token": ("main",
                            lambda c, s, i: exchange(c, f"fdo_{i}"),
                            lambda c, s: exchange(c, s.one_time_token(c))),
    "pci key (query)": ("pci",
                        lambda c, s, i: c.get("/api/v1/tokenization_profiles", params={"api_key": f"wrong{i}"}),
                        lambda c, s: c.get("/api/v1/tokenization_profiles", params={"api_key": s.pci_key})),
    "pci key (header)": ("pci",
                         lambda c, s, i: c.get("/api/v1/tokenization_profiles", headers={"api-key": f"wrong{i}"}),
                         lambda c, s: c.get("/api/v1/tokenization_profiles", headers={"api-key": s.pci_key})),
    "card form session": ("pci",
                          lambda c, s, i: keep_card(c, f"fdcf_{i}"),
                          lambda c, s: keep_card(c, s.card_form_session())),
    "channel inbound key": ("main",
                            lambda c, s, i: c.get(f"/api/v1/inbound/{s.shop.channel_id}", headers={"api-key": f"k{i}"}),
                            lambda c, s: c.get(f"/api/v1/inbound/{s.shop.channel_id}",
                                               headers={"api-key": s.shop.inbound_key})),
    "shopping provider key": ("main",
                              lambda c, s, i: c.get(f"{s.shop.meta}/property_info", headers={"api-key": f"k{i}"}),
                              lambda c, s: c.get(f"{s.shop.meta}/property_info",
                                                 headers={"api-key": "the-provider-key"})),
}


def _fresh_address() -> str:
    return f"127.0.0.{next(_addresses)}"


def _statuses(responses) -> list[int]:
    return [response.status_code for response in responses]


@pytest.mark.parametrize("kind", KINDS)
def test_a_strangers_failures_never_refuse_a_valid_credential_from_its_address(served, kind):
    listener, wrong, right = KINDS[kind]
    address = _fresh_address()
    with served.client(listener, address) as stranger, served.client(listener, address) as neighbour, \
            served.client(listener, _fresh_address()) as elsewhere:
        rotating = _statuses(wrong(stranger, served, i) for i in range(THRESHOLD + 5))
        throttled = wrong(stranger, served, THRESHOLD + 5)

        assert rotating == [401] * THRESHOLD + [429] * 5
        assert throttled.json() == {"errors": {"code": "http_too_many_requests", "title": "Too Many Requests"}}
        assert 1 <= int(throttled.headers["retry-after"]) <= 60
        assert right(neighbour, served).status_code in (200, 201)  # behind the same address, its own credential
        assert wrong(elsewhere, served, 0).status_code == 401  # other addresses are not slowed


def test_a_thousand_failures_leave_the_address_served(served):
    """One stranger behind a shared address (a NAT, an office) fails a thousand times; everyone else behind it is
    served: valid tokens, the pci listener, public shopping and health."""
    address = _fresh_address()
    with served.client("main", address) as main, served.client("pci", address) as pci, \
            served.client("secure", address) as secure:
        failures = _statuses(main.get("/api/v1/properties", headers={"Authorization": f"Bearer fd_{i}"})
                             for i in range(1000))

        assert failures.count(401) == THRESHOLD and failures.count(429) == 1000 - THRESHOLD
        assert main.get("/api/v1/properties", headers={"Authorization": f"Bearer {served.token}"}).status_code == 200
        assert secure.get("/api/v1/properties", headers={"user-api-key": served.token}).status_code == 200
        assert pci.get("/api/v1/tokenization_profiles", params={"api_key": served.pci_key}).status_code == 200
        assert main.get(f"/api/v1/meta/{served.public.channel_name}/property_list").status_code == 200
        assert main.get(f"{served.public.meta}/property_info").status_code == 200
        assert _statuses(client.get("/api/v1/health") for client in (main, secure, pci)) == [200] * 3


def test_the_same_wrong_credential_repeated_is_refused_from_its_address(served):
    address = _fresh_address()
    with served.client("main", address, Authorization="Bearer fd_the-same-wrong-one") as stranger, \
            served.client("main", address, Authorization=f"Bearer {served.token}") as neighbour:
        repeated = _statuses(stranger.get("/api/v1/properties") for _ in range(THRESHOLD + 3))

        assert repeated == [401] * THRESHOLD + [429] * 3
        assert neighbour.get("/api/v1/properties").status_code == 200


def test_a_valid_credential_failing_counts_against_itself_not_its_address(served):
    """A valid user asking for others' objects is refused its own credential after too many 401s; the strangers and
    neighbours behind its address are not counted for it."""
    _, other = served.engine.identity.add_user(f"neighbour{next(_addresses)}@example.com")
    _, prober = served.engine.identity.add_user(f"prober{next(_addresses)}@example.com")
    address = _fresh_address()
    with served.client("main", address, Authorization=f"Bearer {prober.token}") as probing, \
            served.client("main", address) as neighbour:
        probes = _statuses(probing.get(f"/api/v1/properties/{served.shop.property_id}") for _ in range(THRESHOLD + 1))
        own = probing.get("/api/v1/properties")

        assert probes == [401] * THRESHOLD + [429] and own.status_code == 429
        assert neighbour.get("/api/v1/properties", headers={"Authorization": f"Bearer {other.token}"}
                             ).status_code == 200
        assert neighbour.get("/api/v1/properties", headers={"Authorization": "Bearer fd_typo"}).status_code == 401


def test_one_count_for_every_listener_of_the_process(served):
    address = _fresh_address()
    with served.client("pci", address) as pci, served.client("main", address) as main:
        assert _statuses(pci.get("/api/v1/tokenization_profiles", params={"api_key": f"wrong{i}"})
                         for i in range(THRESHOLD)) == [401] * THRESHOLD

        assert main.get("/api/v1/properties", headers={"Authorization": "Bearer fd_other"}).status_code == 429
        assert main.get("/api/v1/properties", headers={"Authorization": f"Bearer {served.token}"}).status_code == 200


def test_the_tokenisation_service_is_not_throttled_on_the_secure_listener(served):
    """Capture calls the secure listener from this host with the internal credential and its caller's token (whose
    failures the pci listener counts): it gets the real answer, whoever failed from loopback before."""
    address = _fresh_address()
    with served.client("secure", address, Authorization="Bearer fd_wrong") as secure:
        throttled = _statuses(secure.get("/api/v1/properties") for _ in range(THRESHOLD + 1))
        internal = secure.get("/api/v1/properties", headers={INTERNAL_HEADER: served.engine.keys.internal_secret})

        assert throttled[-1] == 429 and internal.status_code == 401


def test_x_forwarded_for_is_not_trusted_by_default(tmp_path):
    """Any local process could name its own address: from loopback itself too, the header changes nothing."""
    with contextlib.ExitStack() as stack:
        _, urls = start(stack, tmp_path)
        stranger = stack.enter_context(httpx.Client(base_url=urls["main"], timeout=10,
                                                    transport=httpx.HTTPTransport(local_address="127.0.0.1")))
        rotating = _statuses(stranger.get("/api/v1/properties", headers={
            "Authorization": f"Bearer fd_{i}", "X-Forwarded-For": f"198.51.100.{i}"}) for i in range(THRESHOLD + 5))

    assert rotating == [401] * THRESHOLD + [429] * 5


def test_x_forwarded_for_names_the_client_only_from_the_proxies_named(tmp_path):
    proxy, other = _fresh_address(), _fresh_address()
    with contextlib.ExitStack() as stack:
        _, urls = start(stack, tmp_path, forwarded_allow_ips=(proxy,))
        via_proxy = stack.enter_context(httpx.Client(base_url=urls["main"], timeout=10,
                                                     transport=httpx.HTTPTransport(local_address=proxy)))
        direct = stack.enter_context(httpx.Client(base_url=urls["main"], timeout=10,
                                                  transport=httpx.HTTPTransport(local_address=other)))

        def fail(client: httpx.Client, i: int, forwarded_for: str) -> int:
            return client.get("/api/v1/properties", headers={
                "Authorization": f"Bearer fd_{i}", "X-Forwarded-For": forwarded_for}).status_code

        # Through the proxy each client is its own; the one that fails too often is throttled, alone.
        assert [fail(via_proxy, i, f"198.51.100.{i}") for i in range(2 * THRESHOLD)] == [401] * 2 * THRESHOLD
        assert [fail(via_proxy, i, "203.0.113.9") for i in range(THRESHOLD + 1)] == [401] * THRESHOLD + [429]
        assert fail(via_proxy, 0, "203.0.113.10") == 401
        # Anyone else's header is ignored.
        assert [fail(direct, i, f"198.51.100.{i}") for i in range(THRESHOLD + 1)] == [401] * THRESHOLD + [429]


def test_memory_stays_bounded_however_credentials_and_addresses_rotate():
    """(An IPv6 subscriber's /64 is one client: tests/core/test_clients.py.)"""
    now = [1000.0]
    throttle = Throttle(THRESHOLD, max_keys=500, clock=lambda: now[0])

    for i in range(10_000):  # one stranger, a new wrong credential each time
        throttle.failed("192.0.2.1", f"credential {i}", accepted=False)
    assert len(throttle.failures) <= THRESHOLD + 1  # the address, and the credentials counted before it was over
    for i in range(10_000):  # many strangers
        throttle.failed(f"10.0.{i // 256}.{i % 256}", None, accepted=False)
    assert len(throttle.failures) == 500  # the least recently failed are forgotten first

    now[0] += WINDOW + 1
    throttle.failed("192.0.2.2", None, accepted=False)
    assert len(throttle.failures) == 1  # failures older than the window are forgotten
