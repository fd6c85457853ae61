"""The address guard of every call out (backend/core/addresses.py, backend/core/outbound_client.py): an address is called only
when it is one public host's, judged by the IPv4 address an IPv6 form carries; multicast, broadcast and reserved
addresses are refused even where private ones are allowed; and a connection goes to the address that was checked,
so a name that resolves to a public address for the check and to loopback afterwards (DNS rebinding) reaches
nothing. The only stand-in is the resolver's answer for one made-up name; the servers are real, on loopback."""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
import time
from collections.abc import Iterator

import pytest

from backend.core.config import Config
from backend.core.errors import ValidationFailed
from backend.engine import Engine
from backend.outbox.sending import Sender, SendFailed
from tests.conftest import CONTACT
from tests.http.test_headers import _self_signed
from tests.loopback import LoopbackSite
from tests.receiver import Receiver

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
REFUSALS = ("private or local address", "no one host's")  # the guard's two answers
NOT_ONE_PUBLIC_HOST = [
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254, the cloud's metadata service
    "::127.0.0.1",  # IPv4-compatible loopback
    "::ffff:0:127.0.0.1",  # SIIT's IPv4-translated loopback
    "224.0.0.1",  # multicast
    "::ffff:127.0.0.1", "2002:7f00:1::1",  # IPv4-mapped and 6to4 loopback
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, its client 127.0.0.1
    "100.64.0.1", "198.18.0.1", "10.0.0.1", "169.254.169.254", "0.0.0.0", "240.0.0.1", "255.255.255.255",
    "ff0e::1", "fc00::1", "fe80::1", "::1",
]
PUBLIC = ["93.184.216.34", "64:ff9b::5db8:d822", "2002:5db8:d822::1", "2606:2800:220:1:248:1893:25c8:1946"]
PUBLIC_FIRST = "93.184.216.34"  # what `rebind.example` answers the first time; nothing there answers on our ports


def literal(address: str) -> str:
    return f"[{address}]" if ":" in address else address


@pytest.fixture
def operator(engine):
    return engine.identity.operator()


@pytest.fixture
def hotel(engine, operator) -> str:
    return engine.properties.create(operator, {"title": "Inn", "currency": "EUR", **CONTACT})["id"]


def refused(call) -> str:
    with pytest.raises(ValidationFailed) as error:
        call()
    [(_, [message])] = error.value.details.items()
    return message


@pytest.mark.parametrize("address", NOT_ONE_PUBLIC_HOST)
def test_an_address_of_no_one_public_host_is_refused_wherever_a_url_is_given(engine, operator, hotel, address):
    url = f"http://{literal(address)}/x"
    webhook = refused(lambda: engine.webhooks.create(operator, {"property_id": hotel, "callback_url": url,
                                                                "event_mask": "*"}))
    channel = refused(lambda: engine.channels.create(operator, {
        "title": "OTA", "channel": "BookingCom", "properties": [hotel],
        "settings": {"ari_distribution": "push", "ari_url": url}}))
    logo = refused(lambda: engine.properties.create(operator, {"title": "T", "currency": "EUR", "logo_url": url}))
    for message in (webhook, channel, logo):
        assert any(refusal in message for refusal in REFUSALS), message
    assert engine.store.scalar("SELECT (SELECT count(*) FROM webhooks) + (SELECT count(*) FROM channels)") == 0


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_is_taken_in_whatever_form_carries_it(engine, operator, hotel, address):
    made = engine.webhooks.create(operator, {"property_id": hotel, "callback_url": f"http://{literal(address)}/x",
                                             "event_mask": "*"})
    assert made["callback_url"] == f"http://{literal(address)}/x"


def test_where_private_addresses_are_allowed_the_ipv4_inside_is_judged_all_the_same(receiver):
    sender = Sender(private_addresses=True, timeout=1.0)
    assert sender.post(f"http://[::ffff:127.0.0.1]:{receiver.port}/hook", "{}", {}).status == 200
    for address in ("224.0.0.1", "::ffff:224.0.0.1", "0.0.0.0", "::ffff:0.0.0.0"):
        with pytest.raises(SendFailed, match="no one host's"):
            sender.post(f"http://{literal(address)}:{receiver.port}/hook", "{}", {})
    assert len(receiver.received) == 1


def resolve(monkeypatch, name: str, *addresses: str) -> None:
    """`name` resolves to each of `addresses` in turn, then to the last one again."""
    real, answers = socket.getaddrinfo, iter(addresses)

    def getaddrinfo(host, port, *args, **kwargs):
        if host == name:
            host = next(answers, addresses[-1])
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.fixture
def rebinding(monkeypatch) -> None:
    """`rebind.example` as a hostile name server answers it: a public address the first time, loopback after."""
    resolve(monkeypatch, "rebind.example", PUBLIC_FIRST, "127.0.0.1")


def test_a_webhook_call_to_a_name_that_rebinds_to_loopback_reaches_nothing(rebinding, receiver: Receiver):
    with pytest.raises(SendFailed):  # it went to the address checked, where nothing answers
        Sender(timeout=0.5).post(f"http://rebind.example:{receiver.port}/hook", "{}", {})
    time.sleep(0.1)
    assert receiver.received == []


@pytest.fixture
def logo_site() -> Iterator[LoopbackSite]:
    site = LoopbackSite(lambda: PNG, "image/png")
    yield site
    site.close()


def test_a_logo_on_a_name_that_rebinds_to_loopback_is_not_fetched(rebinding, tmp_path, logo_site):
    engine = Engine.open(tmp_path / "frontdesk.db", Config(fetch_timeout=0.5))
    port = logo_site.url.rsplit(":", 1)[1]
    with pytest.raises(ValidationFailed):
        engine.properties.create(engine.identity.operator(), {"title": "T", "currency": "EUR",
                                                              "logo_url": f"http://rebind.example:{port}/logo.png"})
    assert logo_site.seen == [] and engine.store.scalar("SELECT count(*) FROM media") == 0


def test_a_call_to_the_address_checked_keeps_the_host_name_for_host_and_tls(monkeypatch, receiver, tmp_path):
    """Connected to the address, spoken to the name: the `Host` header, and TLS's SNI and certificate check (a
    self-signed certificate fails it)."""
    resolve(monkeypatch, "hooks.test", "127.0.0.1")
    sender = Sender(private_addresses=True, timeout=2.0)
    assert sender.post(f"http://hooks.test:{receiver.port}/hook", "{}", {}).status == 200
    assert receiver.received[0].headers["host"] == f"hooks.test:{receiver.port}"

    certfile, keyfile = _self_signed(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certfile, keyfile)
    named: list[str | None] = []
    context.sni_callback = lambda _socket, name, _context: named.append(name)
    with socket.create_server(("127.0.0.1", 0)) as listening:
        threading.Thread(target=_handshake_once, args=(listening, context), daemon=True).start()
        with pytest.raises(SendFailed, match="could not connect"):
            sender.post(f"https://hooks.test:{listening.getsockname()[1]}/hook", "{}", {})
    assert named == ["hooks.test"]


def _handshake_once(listening: socket.socket, context: ssl.SSLContext) -> None:
    connection, _ = listening.accept()
    with contextlib.suppress(ssl.SSLError, OSError), context.wrap_socket(connection, server_side=True):
        pass
