"""A card number written any way, in any free-form field, never comes back in clear (PCI DSS 3.3, 3.4).

Hypothesis writes a Luhn-valid number in the forms people type (groups between spaces of any width, dashes, dots,
slashes, underscores, tabs or line breaks; full-width digits; glued to letters) into a field of a booking (pushed
to the main listener, or sent by an OTA's adapter), a guest or staff message, an internal note, a saved reply, an
Airbnb inquiry, or a meta key. What comes back is searched for the number's digits in clear, whatever separates
them: the answers of the main and secure listeners, the engine's reads that the console shows, then a capture
through the pci listener with the built-in profile, the webhook payloads a receiver got, the server's log and the
database file with its write-ahead log. One live site serves the whole test.
"""

from __future__ import annotations

import itertools
import json
import logging
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from backend.core.card_data import luhn_ok
from backend.core.listing import ListQuery
from tests.chat.test_chat_api import inquiry_body
from tests.conftest import Site, delivering_site
from tests.receiver import Receiver
from tests.shopping.shop import CARD, Shop, booking, check, day, make_shop
from tests.stores import Database
from tests.webhooks.hooks import make_hook, settled

SEPARATORS = [" ", "  ", "\u00a0", "-", "–", ".", "/", "_", "\t", "\n", " - "]
FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
GLUES = [("", ""), ("VISA", "exp"), ("card", ""), ("", "exp"), ("Nr.", "")]
CONTEXTS = [("", ""), ("card ", " thanks"), ("pay with: ", ", exp 12/31"), ("(", ")")]
PUSHES = itertools.count(1)


@st.composite
def written_cards(draw) -> tuple[str, str]:
    """(the number, as written): a 16-digit Visa or Mastercard or a 15-digit Amex, Luhn-valid, in some form."""
    prefix, length, groups = draw(st.sampled_from([("4", 16, (4, 4, 4, 4)), ("5", 16, (4, 4, 4, 4)),
                                                   ("37", 15, (4, 6, 5))]))
    body = prefix + "".join(str(d) for d in draw(st.lists(st.integers(0, 9), min_size=length - len(prefix) - 1,
                                                          max_size=length - len(prefix) - 1)))
    number = next(body + str(check) for check in range(10) if luhn_ok(body + str(check)))
    separator = draw(st.sampled_from(["", *SEPARATORS]))
    parts, at = [], 0
    for size in groups:
        parts.append(number[at:at + size])
        at += size
    written = separator.join(parts)
    if draw(st.booleans()):
        written = written.translate(FULL_WIDTH)
    before, after = draw(st.sampled_from(GLUES))
    return number, f"{before}{written}{after}"


def in_clear(number: str, text: str) -> bool:
    """Whether the number's digits stand in `text` in a row, whatever separates them (digits of any script read as
    ASCII); another number's digits between would have to match by chance."""
    return number in "".join(c for c in unicodedata.normalize("NFKC", text) if c.isdigit())


def decoded(body: bytes) -> str:
    """A JSON body's keys and strings joined (its escapes undone), else the body as text."""
    try:
        document = json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")
    parts: list[str] = []
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            parts += [str(key) for key in value]
            stack += value.values()
        elif isinstance(value, list):
            stack += value
        else:
            parts.append(str(value))
    return "\n".join(parts)


@dataclass
class World:
    site: Site
    token: str
    email: str
    main: httpx.Client
    secure: httpx.Client
    shop: Shop
    ota: Shop
    airbnb: Shop
    ota_booking: str
    thread_id: str
    log: list[str]
    receiver: Receiver
    hooks: list[str] = field(default_factory=list)

    def adapter(self, shop: Shop) -> httpx.Client:
        return httpx.Client(base_url=self.site.main.url, timeout=30, headers={"api-key": shop.inbound_key})

    def both(self, path: str) -> list[httpx.Response]:
        """The same read from the main and the secure listener."""
        return [self.main.get(path), self.secure.get(path)]


class Collect(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(self.format(record))


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[World]:
    lines: list[str] = []
    handler = Collect(lines)
    loggers = [logging.getLogger(name) for name in ("frontdesk", "uvicorn")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    receiver = Receiver()
    try:
        with delivering_site(Database(tmp_path_factory.mktemp("cards") / "frontdesk.db"), max_attempts=3) as site:
            user = site.user()
            secure = httpx.Client(base_url=site.secure.url, timeout=30,
                                  headers={"Authorization": f"Bearer {user.token}"})
            shop = make_shop(user, rooms=200, days=60)
            ota = make_shop(user, channel_code="BookingCom")
            airbnb = make_shop(user, channel_code="AirBNB")
            for each in (ota, airbnb):
                check(user.client.post("/api/v1/applications/install", json={"application_installation": {
                    "property_id": each.property_id, "application_code": "chat"}}), 201)
            made = World(site, user.token, user.actor.email, user.client, secure, shop, ota, airbnb, "", "", lines,
                         receiver)
            made.hooks = [make_hook(user.client, each.property_id, f"{receiver.url}/hook")["id"]
                          for each in (shop, ota, airbnb)]
            with made.adapter(ota) as adapter:
                body = booking(ota, day(3), day(5), property_id=ota.property_id, reservation_id="OTA-1")
                made.ota_booking = check(adapter.post(f"/api/v1/inbound/{ota.channel_id}/bookings", json=body),
                                         201)["data"]["id"]
                check(adapter.post(f"/api/v1/inbound/{ota.channel_id}/messages", json={"message": {
                    "booking_id": made.ota_booking, "message": "Hello"}}))
            made.thread_id = check(user.client.get("/api/v1/message_threads", params={
                "filter[property_id]": ota.property_id}))["data"][0]["id"]
            yield made
            secure.close()
    finally:
        receiver.close()
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)


# --- where a card goes in: each returns the answers it got, and the engine's reads of what it made -------------


def _pushed(world: World, fields: dict[str, Any], ota: bool = False) -> list[Any]:
    """A booking carrying `fields` (dotted paths), pushed on the main listener or sent by the OTA's adapter."""
    shop = world.ota if ota else world.shop
    push = next(PUSHES)
    arrival = 2 + push % 40  # spread over the shop's days, so that rooms stay free
    body = booking(shop, day(arrival), day(arrival + 1), reservation_id=f"R-{push}",
                   agent={"name": "Agent"}, services=[{
                       "type": "Extra", "name": "Cot", "total_price": "10.00", "price_per_unit": "10.00",
                       "price_mode": "Per stay", "persons": 1, "nights": 1}])
    for path, value in fields.items():
        place = body["booking"]
        *parents, last = path.split(".")
        for name in parents:
            place = place[int(name)] if isinstance(place, list) else place.setdefault(name, {})
        place[last] = value
    if ota:
        body["booking"]["property_id"] = shop.property_id
        with world.adapter(shop) as adapter:
            answer = adapter.post(f"/api/v1/inbound/{shop.channel_id}/bookings", json=body)
    else:
        answer = httpx.post(f"{world.site.main.url}{shop.meta}/push_booking", json=body, timeout=30)
    assert answer.status_code in (201, 422), answer.text
    if answer.status_code != 201:
        return [answer]
    booking_id = answer.json()["data"]["id"]
    actor = world.site.engine.identity.actor_for(world.email)
    return [answer, *world.both(f"/api/v1/bookings/{booking_id}"), world.site.engine.bookings.get(actor, booking_id)]


def booking_field(path: str, ota: bool = False) -> Callable[[World, str], list[Any]]:
    return lambda world, written: _pushed(world, {path: written}, ota)


def meta_key(world: World, written: str) -> list[Any]:
    return _pushed(world, {"meta": {written: "a key"}})


def guarantee_meta(world: World, written: str) -> list[Any]:
    return _pushed(world, {"guarantee": {**CARD, "meta": {"phone": written}}})


def guest_message(world: World, written: str) -> list[Any]:
    with world.adapter(world.ota) as adapter:
        said = adapter.post(f"/api/v1/inbound/{world.ota.channel_id}/messages", json={"message": {
            "booking_id": world.ota_booking, "message": written}})
    return [said, *world.both(f"/api/v1/message_threads/{world.thread_id}/messages")]


def staff_message(world: World, written: str) -> list[Any]:
    sent = world.main.post(f"/api/v1/bookings/{world.ota_booking}/messages", json={"message": {"message": written}})
    with world.adapter(world.ota) as adapter:
        outbox = adapter.get(f"/api/v1/inbound/{world.ota.channel_id}/outbox")  # what the channel takes
    return [sent, outbox, *world.both(f"/api/v1/message_threads/{world.thread_id}/messages")]


def internal_note(world: World, written: str) -> list[Any]:
    url = f"/api/v1/message_threads/{world.thread_id}/notes"
    made = world.main.post(url, json={"note": {"message": written}})
    actor = world.site.engine.identity.actor_for(world.email)
    return [made, *world.both(url), world.site.engine.notes.list(actor, world.thread_id, ListQuery(limit=100))[0]]


def saved_reply(world: World, written: str) -> list[Any]:
    made = world.main.post("/api/v1/message_templates", json={"message_template": {
        "title": f"Card {written}"[:255], "message": f"Pay with {written}", "property_id": world.ota.property_id}})
    return [made, *world.both("/api/v1/message_templates")]


def inquiry(world: World, written: str) -> list[Any]:
    body = inquiry_body(world.airbnb.property_id)
    body.update(guest_name=f"Guest {written}", message=f"My card {written}")
    body["booking_details"]["listing_name"] = f"Flat {written}"
    with world.adapter(world.airbnb) as adapter:
        made = adapter.post(f"/api/v1/inbound/{world.airbnb.channel_id}/inquiries", json={"inquiry": body})
    if made.status_code != 201:
        return [made]
    return [made, *world.both(f"/api/v1/message_threads/{made.json()['data']['id']}/messages")]


TARGETS: dict[str, Callable[[World, str], list[Any]]] = {
    "notes": booking_field("notes"), "reservation_id": booking_field("reservation_id"),
    "meta.reservation_id": booking_field("meta.reservation_id"), "meta.uniqueid": booking_field("meta.uniqueid"),
    "meta key": meta_key, "rooms.0.meta.note": booking_field("rooms.0.meta.note"),
    "rooms.0.guests": lambda world, written: _pushed(world, {"rooms.0.guests": [{"name": "Ann", "surname": written}]}),
    "customer.name": booking_field("customer.name"), "customer.address": booking_field("customer.address"),
    "customer.phone": booking_field("customer.phone"),
    "customer.meta.mobilePhone": booking_field("customer.meta.mobilePhone"),
    "agent.phone": booking_field("agent.phone"), "agent.code": booking_field("agent.code"),
    "services.0.name": booking_field("services.0.name"), "guarantee.meta.phone": guarantee_meta,
    "OTA notes": booking_field("notes", ota=True), "OTA reservation_id": booking_field("reservation_id", ota=True),
    "OTA meta.uniqueid": booking_field("meta.uniqueid", ota=True),
    "guest message": guest_message, "staff message": staff_message, "internal note": internal_note,
    "saved reply": saved_reply, "inquiry": inquiry,
}


def test_a_card_written_any_way_in_any_field_never_comes_back_in_clear(world: World):
    used: list[str] = []

    @settings(max_examples=50, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(card=written_cards(), target=st.sampled_from(sorted(TARGETS)), context=st.sampled_from(CONTEXTS))
    def example(card: tuple[str, str], target: str, context: tuple[str, str]) -> None:
        number, written = card
        used.append(number)
        text = written if target == "meta key" else f"{context[0]}{written}{context[1]}"
        for answer in TARGETS[target](world, text):
            shown = decoded(answer.content) if isinstance(answer, httpx.Response) else json.dumps(answer)
            assert answer.status_code < 500 if isinstance(answer, httpx.Response) else True
            assert not in_clear(number, shown), f"{target}: {text!r} came back in clear"

    example()
    everywhere = {"capture": _capture(world), "webhook payloads": _webhooks(world), "log": "\n".join(world.log),
                  "database": _on_disk(world)}
    for where, text in everywhere.items():
        for number in used:
            assert not in_clear(number, text), f"a card in clear in the {where}"


def _capture(world: World) -> str:
    """Every booking through the pci listener's capture with the built-in `frontdesk` profile: its last look
    finds nothing left in clear (a 200, not a 502)."""
    key = world.site.engine.pci_keys.add("cards").token
    captured = httpx.post(f"{world.site.pci.url}/api/v1/capture", timeout=60, headers={
        "Authorization": f"Bearer {world.token}"}, params={
        "api_key": key, "profile": "frontdesk", "method": "get",
        "url": f"{world.site.secure.url}/api/v1/bookings?pagination[limit]=100"})
    assert captured.status_code == 200, captured.text
    return decoded(captured.content)


def _webhooks(world: World) -> str:
    settled(world.site.engine, *world.hooks)
    assert world.receiver.received, "the webhooks got the events"
    return "\n".join(decoded(got.body) for got in world.receiver.received)


def _on_disk(world: World) -> str:
    world.site.engine.store.forget_history()
    path = world.site.engine.store.path
    wal = path.with_name(path.name + "-wal")
    return (path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")).decode("utf-8", "replace")


def test_no_error_body_quotes_a_card(world: World):
    """Each echoes what was sent (a name, an id, a key): the error shape masks it, whichever route made it."""
    number = "4929000000006"  # 13 digits, Luhn-valid
    key = world.site.engine.pci_keys.add("errors").token
    answers = [
        world.main.get(f"/api/v1/bookings/{number}"),
        world.main.post("/api/v1/webhooks", json={"webhook": {
            "property_id": world.shop.property_id, "callback_url": "https://example.com/hook",
            "event_mask": f"booking,{number}"}}),
        httpx.post(f"{world.site.pci.url}/api/v1/tokenize", params={"api_key": key, "profile": f"p{number}"},
                   json={}, timeout=30),
        world.main.post("/api/v1/properties", json={"property": {"title": "Hotel", "currency": "EUR", number: 1}}),
        world.main.get(f"/api/v1/message_threads/{number}/messages"),
    ]
    for answer in answers:
        assert 400 <= answer.status_code < 500 and "errors" in answer.json(), answer.text
        assert not in_clear(number, decoded(answer.content)), answer.text
