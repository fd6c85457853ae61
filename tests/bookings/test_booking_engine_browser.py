"""A property's own booking engine, on its own site, sells a room through Frontdesk in a real headless Chromium:
it lists the property, reads rooms and the best offer, frames the card form, the guest types a card, the page gets
a token and pushes a booking that holds the card. The card number goes only to the pci listener: it is in none of
the page's other requests, and, on the server's side of the wire, in nothing the main or secure listener receives or
sends. The form keeps to its Content-Security-Policy and fits a narrow iframe.

The page calls the API as the service's booking engine does (ChannexIO/instant_booking_page,
src/api_actions/utils/transport.js: JSON headers on every call, so the browser asks first; camelCase dates;
src/components/payment_form/card_capture_form/card_capture_form.js: postMessage "submit" to the form, its answer
`{card}` read at the form's origin)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from backend.bookings.cards import Reveal
from backend.http.guard import Guard
from tests.chat.test_web_chat import WAIT_MS, browser  # noqa: F401 — the Chromium fixture
from tests.conftest import serve_site
from tests.loopback import LoopbackSite
from tests.shopping.shop import day, make_shop
from tests.stores import Database

NUMBER, CVV = "5555555555554444", "4321"

PAGE = """<!doctype html><meta charset="utf-8"><title>Hotel Marina: book direct</title>
<h1 id="hotel">…</h1><ul id="rooms"></ul><p id="offer"></p>
<iframe id="card" title="Card" width="300" height="260" style="border:0"></iframe>
<button id="book">Book now</button><p id="result"></p>
<script>
const SETTINGS = __SETTINGS__;
const HEADERS = {"Accept": "application/json", "Content-Type": "application/json"};
const stay = `checkinDate=${SETTINGS.checkin}&checkoutDate=${SETTINGS.checkout}&adults=2&currency=EUR`;
const get = async (path) => {
  const response = await fetch(SETTINGS.api + path, {headers: HEADERS});
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return (await response.json()).data;
};
(async () => {
  const hotels = await get("/property_list");
  document.getElementById("hotel").textContent = hotels[0].attributes.title;
  const rooms = await get(`/${SETTINGS.property}/rooms?${stay}`);
  for (const room of rooms) {
    const item = document.createElement("li");
    item.textContent = `${room.attributes.title}: ${room.attributes.rate_plans[0].total_price}`;
    document.getElementById("rooms").append(item);
  }
  const offer = await get(`/${SETTINGS.property}/best_offer?${stay}`);
  document.getElementById("offer").textContent = `from ${JSON.stringify(offer.attributes)}`;
  const form = await get("/card_capture_form_url");
  document.getElementById("card").src = form.attributes.card_capture_form_url;
})().catch((error) => { document.getElementById("result").textContent = `failed: ${error}`; });

document.getElementById("book").onclick = () =>
  document.getElementById("card").contentWindow.postMessage("submit", SETTINGS.pci);

window.addEventListener("message", async (event) => {
  if (event.origin !== SETTINGS.pci) return;
  if (!event.data.card) { document.getElementById("result").textContent = "card refused"; return; }
  const card = event.data.card;
  const booking = {
    status: "new", arrival_date: SETTINGS.checkin, departure_date: SETTINGS.checkout, currency: "EUR",
    customer: {name: "Ada", surname: "Guest", mail: "ada@example.com"},
    rooms: [{room_type_code: SETTINGS.room, rate_plan_code: SETTINGS.plan, occupancy: {adults: 2, children: 0,
             infants: 0}}],
    guarantee: {card_token: card.card_token, card_number: card.card_number, cardholder_name: card.cardholder_name,
                card_type: card.card_type, expiration_date: `${card.expiration_month}/${card.expiration_year}`,
                cvv: card.service_code}};
  const response = await fetch(`${SETTINGS.api}/${SETTINGS.property}/push_booking`,
                               {method: "POST", headers: HEADERS, body: JSON.stringify({booking})});
  const body = await response.json();
  document.getElementById("result").textContent =
    `${response.status} ${body.data ? body.data.attributes.unique_id + " " + body.data.id : JSON.stringify(body)}`;
});
</script>"""


class HotelSite(LoopbackSite):
    """The property's own site, on an origin of its own, serving its booking page."""

    def __init__(self) -> None:
        self.settings: dict[str, str] = {}
        super().__init__(lambda: PAGE.replace("__SETTINGS__", json.dumps(self.settings)).encode(),
                         "text/html; charset=utf-8")


class Wire:
    """What each listener receives and sends, by port, as it crosses the wire: request line, headers and body, the
    answer's headers and body (tapped in front of the guard, the outermost layer of every listener)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.traffic: dict[int, bytearray] = defaultdict(bytearray)
        guarded = Guard.__call__

        async def tapped(guard, scope, receive, send) -> None:
            if scope["type"] != "http":
                return await guarded(guard, scope, receive, send)
            seen = self.traffic[scope["server"][1]]
            seen.extend(f"{scope['method']} {scope['raw_path'].decode('latin-1')}?".encode() + scope["query_string"])
            for name, value in scope["headers"]:
                seen.extend(b"\n" + name + b": " + value)

            async def receiving():
                message = await receive()
                seen.extend(message.get("body", b""))
                return message

            async def sending(message) -> None:
                for name, value in message.get("headers", ()):
                    seen.extend(b"\n" + name + b": " + value)
                seen.extend(message.get("body", b""))
                await send(message)

            await guarded(guard, scope, receiving, sending)

        monkeypatch.setattr(Guard, "__call__", tapped)

    def of(self, url: str) -> bytes:
        return bytes(self.traffic[urlsplit(url).port])


def overflow(frame) -> list[str]:
    """The form's parts that stick out of its frame sideways (a narrow iframe must not need a sideways scroll)."""
    return frame.locator("body").evaluate("""() => {
      const width = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll("input, label, #status")]
        .filter((node) => node.getBoundingClientRect().right > width + 0.5).map((node) => node.id || node.tagName);
      return document.documentElement.scrollWidth > width ? ["page", ...out] : out;
    }""")


@pytest.fixture
def hotel_site() -> Iterator[HotelSite]:
    made = HotelSite()
    yield made
    made.close()


def test_a_booking_engine_on_another_site_sells_a_room_with_a_card_it_never_sees(browser, hotel_site, tmp_path,
                                                                                  monkeypatch):
    wire = Wire(monkeypatch)
    with serve_site(Database(tmp_path / "frontdesk.db"), cors_origins=(hotel_site.url,)) as site:
        shop = make_shop(site.user(), rooms=2)
        pci = site.pci.url
        hotel_site.settings.update(api=f"{site.main.url}/api/v1/meta/{shop.channel_name}", pci=pci,
                                   property=shop.property_id, room=shop.room_id, plan=shop.plan_id,
                                   checkin=day(3), checkout=day(5))
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        requests: list[tuple[str, str]] = []
        page.on("request", lambda request: requests.append((request.url, request.post_data or "")))
        complaints: list[str] = []  # a Content-Security-Policy refusal or a script error, in the page or the form
        page.on("console", lambda message: message.type == "error" and complaints.append(message.text))
        page.on("pageerror", lambda error: complaints.append(str(error)))
        page.goto(hotel_site.url + "/")

        title = site.engine.store.scalar("SELECT title FROM properties WHERE id = ?", (shop.property_id,))
        page.locator("#hotel", has_text=title).wait_for()
        page.locator("#rooms li", has_text="Double").wait_for()
        page.locator("#offer", has_text="200.00").wait_for()
        form = page.frame_locator("#card")
        form.locator("#card_number").wait_for()
        assert overflow(form) == []  # 300 px wide
        (framed,) = [frame for frame in page.frames if frame.url.startswith(f"{pci}/api/v1/capture_form")]
        assert "session_token" not in framed.evaluate("location.href")  # out of the address once the form has it
        form.locator("#card_number").fill(NUMBER)
        form.locator("#cardholder_name").fill("Ada Guest")
        form.locator("#expiration_month").fill("12")
        form.locator("#expiration_year").fill("2031")
        form.locator("#service_code").fill(CVV)
        page.click("#book")
        page.locator("#result", has_text="201").wait_for()
        form.locator("#status", has_text="555555******4444").wait_for()
        assert form.locator("#card_number").input_value() == ""  # the number leaves the form too

        booking_id = page.locator("#result").inner_text().split()[-1]
        engine = site.engine
        held = engine.bookings.get(engine.identity.operator(), booking_id, reveal=Reveal("tests"))
        assert held["guarantee"]["card_number"] == NUMBER and held["guarantee"]["cvv"] == CVV
        assert held["unique_id"].startswith("OSH-") and held["rooms"][0]["rate_plan_id"] == shop.plan_id
        page.evaluate("document.getElementById('card').width = 220")  # a phone's column beside a summary
        page.wait_for_function("document.getElementById('card').getBoundingClientRect().width === 220")
        assert overflow(form) == []
        assert complaints == []
        page.close()

    carrying = [url for url, body in requests if NUMBER in url + body or CVV in body]
    assert carrying and all(url.startswith(f"{pci}/api/v1/capture_form/cards") for url in carrying)
    listeners = {urlsplit(url).netloc for url, _ in requests} - {urlsplit(hotel_site.url).netloc}
    assert urlsplit(site.main.url).netloc in listeners  # the page did call the shopping API itself
    # On the server's side of the wire too: the number crossed the pci listener only, never the main or the secure.
    assert NUMBER.encode() in wire.of(site.pci.url) and b"push_booking" in wire.of(site.main.url)
    assert NUMBER.encode() not in wire.of(site.main.url) + wire.of(site.secure.url)
    assert b"555555******4444" in wire.of(site.main.url)  # the booking's answer shows the card masked
