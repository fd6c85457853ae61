"""A booking engine on another site: CORS for the shopping API and the card form, and the card capture form
that keeps a guest's card in the vault and hands the page a token that push_booking takes instead of the card.
(The service's booking engine: ChannexIO/instant_booking_page, src/api_actions/actions.js and
src/components/payment_form/card_capture_form/card_capture_form.js.)"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import datetime, timedelta

import httpx
import pytest

from backend.bookings.cards import Reveal
from backend.core.card_data import luhn_ok
from backend.core.errors import TooManyRequests
from backend.engine import Engine
from tests.conftest import Site, serve_site
from tests.shopping.shop import booking, check, day, make_shop

ENGINE_SITE = "https://book.hotel.example"
GUEST_CARD = {"card_number": "4000 0566 5566 5556", "cardholder_name": "Ada Guest", "expiration_month": "9",
              "expiration_year": "2031", "service_code": "737"}


def guest_card() -> dict[str, str]:
    """GUEST_CARD with a number of its own (first 6 and last 4 alike): the vault keeps a card once, so a test that
    follows one card through a booking needs one that no other test of the module typed."""
    middle = f"{secrets.randbelow(10**5):05d}"
    number = next(n for d in "0123456789" if luhn_ok(n := f"400005{middle}{d}5556"))
    return {**GUEST_CARD, "card_number": number}


@pytest.fixture(scope="module")
def site(session_db) -> Iterator[Site]:
    with serve_site(session_db("booking-engine"), cors_origins=(ENGINE_SITE,)) as served:
        yield served


@pytest.fixture(scope="module")
def shop(site):
    return make_shop(site.user(), rooms=3)


@pytest.fixture
def browser_client(site) -> Iterator[httpx.Client]:
    """What the booking engine's page sends from a visitor's browser: its origin and JSON headers, no credential."""
    with httpx.Client(base_url=site.main.url, timeout=10, headers={
            "Origin": ENGINE_SITE, "Accept": "application/json", "Content-Type": "application/json"}) as client:
        yield client


def form_session(client: httpx.Client, shop) -> tuple[str, str]:
    """The form's address and its session token, as the page gets them."""
    url = check(client.get(f"/api/v1/meta/{shop.channel_name}/card_capture_form_url"))["data"]["attributes"][
        "card_capture_form_url"]
    return url, re.search(r"session_token=([^&]+)", url)[1]


def keep(site: Site, token: str, card: dict) -> httpx.Response:
    return httpx.post(f"{site.pci.url}/api/v1/capture_form/cards", params={"session_token": token},
                      json={"card": card}, timeout=10)


# --- CORS ------------------------------------------------------------------------------------------

def test_the_shopping_api_answers_a_preflight_for_an_allowed_site(site, shop):
    preflight = httpx.options(f"{site.main.url}/api/v1/meta/{shop.channel_name}/{shop.property_id}/rooms", headers={
        "Origin": ENGINE_SITE, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == ENGINE_SITE
    assert "GET" in preflight.headers["access-control-allow-methods"]
    assert "content-type" in preflight.headers["access-control-allow-headers"].lower()


def test_a_shopping_answer_names_the_allowed_site_and_no_other(site, shop, browser_client):
    allowed = browser_client.get(f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/property_info")
    assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == ENGINE_SITE
    other = httpx.get(f"{site.main.url}/api/v1/meta/{shop.channel_name}/{shop.property_id}/property_info",
                      headers={"Origin": "https://elsewhere.example"})
    assert other.status_code == 200 and "access-control-allow-origin" not in other.headers
    refused = httpx.options(f"{site.main.url}/api/v1/meta/{shop.channel_name}/property_list", headers={
        "Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"})
    assert "access-control-allow-origin" not in refused.headers


def test_refusals_name_the_allowed_site_too_so_the_page_can_read_them(site, shop, browser_client):
    base = f"/api/v1/meta/{shop.channel_name}"
    for path, params, status in ((f"{base}/{shop.property_id}/rooms", {"checkinDate": "soon"}, 422),
                                 (f"{base}/nowhere/rooms", {}, 404),
                                 ("/api/v1/meta/NoSuchChannel/property_list", {}, 404)):
        answer = browser_client.get(path, params=params)
        assert answer.status_code == status and answer.headers["access-control-allow-origin"] == ENGINE_SITE
        assert answer.json()["errors"]["code"] in ("validation_error", "not_found")
    refused = browser_client.post(f"{base}/{shop.property_id}/push_booking", json={"booking": {"status": "new"}})
    assert refused.status_code == 422 and refused.headers["access-control-allow-origin"] == ENGINE_SITE
    spent = httpx.post(f"{site.pci.url}/api/v1/capture_form/cards", params={"session_token": "fdcf_gone"},
                       json={"card": GUEST_CARD}, headers={"Origin": ENGINE_SITE})
    assert spent.status_code == 401 and spent.headers["access-control-allow-origin"] == ENGINE_SITE


def test_a_channel_with_a_provider_key_is_asked_without_it_and_called_with_it(site, browser_client):
    keyed = make_shop(site.user(), rooms=1, provider_api_key="engine-key-0001")
    rooms = f"/api/v1/meta/{keyed.channel_name}/{keyed.property_id}/rooms"
    preflight = httpx.options(f"{site.main.url}{rooms}", headers={  # a browser's preflight carries no credential
        "Origin": ENGINE_SITE, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "accept,api-key,content-type"})
    assert preflight.status_code == 204 and "api-key" in preflight.headers["access-control-allow-headers"].lower()
    assert preflight.headers["access-control-allow-origin"] == ENGINE_SITE
    without = browser_client.get(rooms)
    assert without.status_code == 401 and without.headers["access-control-allow-origin"] == ENGINE_SITE
    called = browser_client.get(rooms, headers={"api-key": "engine-key-0001"})
    assert called.status_code == 200 and called.headers["access-control-allow-origin"] == ENGINE_SITE


def test_the_card_forms_own_calls_answer_the_allowed_site(site):
    preflight = httpx.options(f"{site.pci.url}/api/v1/capture_form/cards", headers={
        "Origin": ENGINE_SITE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == ENGINE_SITE
    assert "POST" in preflight.headers["access-control-allow-methods"]
    other = httpx.options(f"{site.pci.url}/api/v1/capture_form/cards", headers={
        "Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in other.headers


def test_any_site_when_the_operator_allows_any(new_db):
    with serve_site(new_db(), cors_origins=("*",)) as public:
        shop = make_shop(public.user(), rooms=1)
        anywhere = {"Origin": "https://any.example"}
        listed = httpx.get(f"{public.main.url}/api/v1/meta/{shop.channel_name}/property_list", headers=anywhere)
        assert listed.status_code == 200 and listed.headers["access-control-allow-origin"] == "*"
        url = check(httpx.get(f"{public.main.url}/api/v1/meta/{shop.channel_name}/card_capture_form_url",
                              headers=anywhere))["data"]["attributes"]["card_capture_form_url"]
        assert "frame-ancestors *" in httpx.get(url).headers["content-security-policy"]
        private = httpx.options(f"{public.main.url}/api/v1/properties", headers={
            **anywhere, "Access-Control-Request-Method": "GET"})
        assert private.status_code == 405 and "access-control-allow-origin" not in private.headers


def test_nothing_else_gets_cors(site, shop):
    for path in ("/api/v1/properties", "/api/v1/bookings", "/api/v1/message_threads"):
        preflight = httpx.options(f"{site.main.url}{path}", headers={
            "Origin": ENGINE_SITE, "Access-Control-Request-Method": "GET"})
        assert preflight.status_code == 405 and "access-control-allow-origin" not in preflight.headers
    pci = httpx.options(f"{site.pci.url}/api/v1/tokenization_profiles", headers={
        "Origin": ENGINE_SITE, "Access-Control-Request-Method": "GET"})
    assert "access-control-allow-origin" not in pci.headers


def test_without_cors_origins_a_server_answers_no_site(new_db):
    with serve_site(new_db()) as plain:
        shop = make_shop(plain.user())
        preflight = httpx.options(f"{plain.main.url}/api/v1/meta/{shop.channel_name}/property_list", headers={
            "Origin": ENGINE_SITE, "Access-Control-Request-Method": "GET"})
        assert preflight.status_code == 405 and "access-control-allow-origin" not in preflight.headers


# --- the card form -------------------------------------------------------------------------------

def test_the_form_is_served_by_the_pci_listener_for_the_allowed_sites_to_frame(site, shop, browser_client):
    url, _ = form_session(browser_client, shop)
    assert url.startswith(f"{site.pci.url}/api/v1/capture_form?session_token=fdcf_")
    page = httpx.get(url)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert f"frame-ancestors {ENGINE_SITE}" in policy and "script-src 'self'" in policy
    assert "connect-src 'self'" in policy and page.headers["referrer-policy"] == "no-referrer"
    assert f'content="{ENGINE_SITE}"' in page.text
    assert httpx.get(f"{site.pci.url}/api/v1/capture_form/card_form.js").headers["content-type"].startswith(
        "text/javascript")
    assert httpx.get(f"{site.pci.url}/api/v1/capture_form/secrets.txt").status_code == 404


def test_the_card_form_and_the_web_chat_are_served_under_one_policy(site, shop, browser_client):
    """backend/http/pages.py serves both pages: they differ only in who may frame them and the chat's images."""
    url, _ = form_session(browser_client, shop)
    form, chat = httpx.get(url), httpx.get(f"{site.main.url}/chat")

    def directives(response: httpx.Response) -> dict[str, str]:
        return dict(d.strip().partition(" ")[::2] for d in response.headers["content-security-policy"].split(";"))

    assert directives(chat).pop("img-src") == "'self' blob: data:" and "img-src" not in directives(form)
    assert (directives(form)["frame-ancestors"], directives(chat)["frame-ancestors"]) == (ENGINE_SITE, "'none'")
    shared = {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'", "connect-src": "'self'",
              "base-uri": "'none'", "form-action": "'none'"}
    for page in (form, chat):
        assert {k: v for k, v in directives(page).items() if k in shared} == shared
        assert set(directives(page)) <= {*shared, "img-src", "frame-ancestors"}
        assert (page.headers["referrer-policy"], page.headers["cache-control"],
                page.headers["x-content-type-options"]) == ("no-referrer", "no-store", "nosniff")


def test_the_form_keeps_the_card_and_answers_it_masked_with_its_token(site, shop, browser_client):
    _, token = form_session(browser_client, shop)
    kept = keep(site, token, GUEST_CARD)
    assert kept.status_code == 201, kept.text
    card = kept.json()["data"]["attributes"]
    assert card["card_number"] == "400005******5556" and card["service_code"] == "***"
    assert (card["expiration_month"], card["expiration_year"], card["cardholder_name"]) == ("09", "2031", "Ada Guest")
    assert re.fullmatch(r"[0-9a-f]{32}", card["card_token"]) and "4000056655665556" not in kept.text
    vaulted = site.engine.vault.card(card["card_token"], "tests")
    assert vaulted["profile"] == "card_form" and vaulted["has_cvv"]
    again = keep(site, token, GUEST_CARD)  # single use
    assert again.status_code == 401 and again.json()["errors"]["code"] == "unauthorized"


def test_a_refused_card_names_each_field_and_leaves_the_session_for_another_try(site, shop, browser_client):
    _, token = form_session(browser_client, shop)
    before = site.engine.store.scalar("SELECT count(*) FROM vault_cards")
    bad = keep(site, token, {**GUEST_CARD, "card_number": "4000056655665557", "expiration_month": "13",
                             "service_code": "12"})
    assert bad.status_code == 422
    assert set(bad.json()["errors"]["details"]) == {"card_number", "expiration_month", "service_code"}
    assert "4000056655665557" not in bad.text
    expired = keep(site, token, {**GUEST_CARD, "expiration_year": "2020"})
    assert expired.status_code == 422 and "expiration_year" in expired.json()["errors"]["details"]
    assert site.engine.store.scalar("SELECT count(*) FROM vault_cards") == before
    assert keep(site, token, GUEST_CARD).status_code == 201


@pytest.mark.parametrize("token", [None, "fdcf_nothing", "x" * 300])
def test_no_card_without_a_live_session(site, token):
    refused = keep(site, token, GUEST_CARD)
    assert refused.status_code == 401 and "4000" not in refused.text


def test_push_booking_takes_the_forms_card_by_its_token_and_holds_that_very_card(site, shop, browser_client):
    _, session = form_session(browser_client, shop)
    typed = guest_card()
    card = keep(site, session, typed).json()["data"]["attributes"]
    # What the service's booking engine builds from the form's answer (build_booking.js): masked number, no CVV.
    guarantee = {"card_token": card["card_token"], "card_number": card["card_number"], "card_type": "visa",
                 "cardholder_name": card["cardholder_name"], "expiration_date": "09/2031", "cvv": "***"}
    body = booking(shop, day(2), day(4), reservation_id="FORM-1", guarantee=guarantee)
    made = check(browser_client.post(f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/push_booking", json=body),
                 201)["data"]
    assert made["attributes"]["guarantee"] == {
        "card_number": "400005******5556", "cardholder_name": "Ada Guest", "card_type": "visa",
        "expiration_date": "09/2031", "cvv": "***", "meta": None}
    engine = site.engine
    revision = engine.store.scalar("SELECT card_token FROM booking_revisions WHERE id = ?",
                                   (made["attributes"]["revision_id"],))
    assert revision == card["card_token"]  # the vault's card itself: no copy
    assert engine.store.scalar("SELECT count(*) FROM vault_cards WHERE token = ?", (revision,)) == 1
    assert engine.vault.card(revision, "tests")["departure_date"] == day(4)
    clear = engine.bookings.get(engine.identity.operator(), made["id"], reveal=Reveal("tests"))["guarantee"]
    assert clear["card_number"] == typed["card_number"] and clear["cvv"] == "737"
    # Once: another booking can't take it, nor can a repeat of this one take it twice.
    second = booking(shop, day(5), day(6), reservation_id="FORM-2", guarantee=guarantee)
    refused = browser_client.post(f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/push_booking", json=second)
    assert refused.status_code == 422 and "guarantee.token" in refused.json()["errors"]["details"]
    assert browser_client.post(f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/push_booking",
                               json=body).status_code == 201


def test_one_card_typed_into_two_forms_is_one_vault_card_that_each_form_gives_once(site, browser_client):
    shop, typed, tokens = make_shop(site.user(), rooms=3), guest_card(), []
    for _ in range(2):
        _, session = form_session(browser_client, shop)
        tokens.append(keep(site, session, typed).json()["data"]["attributes"]["card_token"])
    assert tokens[0] == tokens[1]
    assert site.engine.store.scalar("SELECT count(*) FROM card_form_sessions WHERE card_token = ?", tokens[:1]) == 2
    push = f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/push_booking"
    bodies = [booking(shop, day(2), day(3), reservation_id=f"TWICE-{n}", guarantee={"token": tokens[0]})
              for n in (1, 2, 3)]
    for body in bodies[:2]:
        check(browser_client.post(push, json=body), 201)
    refused = browser_client.post(push, json=bodies[2])
    assert refused.status_code == 422 and list(refused.json()["errors"]["details"]) == ["guarantee.token"]


def test_a_token_of_another_channels_form_or_no_form_is_refused(site, shop, browser_client):
    other = make_shop(site.user(), rooms=1)
    _, session = form_session(browser_client, other)
    foreign = keep(site, session, guest_card()).json()["data"]["attributes"]["card_token"]
    for token in (foreign, "0" * 32):
        body = booking(shop, day(2), day(3), reservation_id=f"T-{token[:4]}", guarantee={"token": token})
        refused = browser_client.post(f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/push_booking", json=body)
        assert refused.status_code == 422 and list(refused.json()["errors"]["details"]) == ["guarantee.token"]
    # A token that is no token is the one problem named: the card it stands for is not "missing".
    for guarantee, field in (({"token": "not-a-token"}, "guarantee.token"),
                             ({"card_token": "F" * 32, "card_number": "400005******5556", "cvv": "***"},
                              "guarantee.card_token")):
        malformed = booking(shop, day(2), day(3), guarantee=guarantee)
        refused = browser_client.post(f"/api/v1/meta/{shop.channel_name}/{shop.property_id}/push_booking",
                                      json=malformed)
        assert refused.status_code == 422 and list(refused.json()["errors"]["details"]) == [field]


def loopback_clients(site: Site, *addresses: str) -> list[httpx.Client]:
    """Clients of the main listener from other loopback addresses (all of 127.0.0.0/8 reaches lo)."""
    return [httpx.Client(base_url=site.main.url, timeout=10, transport=httpx.HTTPTransport(local_address=address))
            for address in addresses]


def test_a_crowd_of_addresses_fills_one_propertys_forms_and_no_one_elses(site, monkeypatch):
    """The forms of one channel and property are bounded, whoever asks; the bound is that property's alone: the
    channel's other forms and another channel's are served meanwhile. Retry-After is when the oldest form counted
    leaves the count."""
    from backend.vault import card_form

    monkeypatch.setattr(card_form, "PER_PROPERTY", 4)
    shop, other = make_shop(site.user(), rooms=1), make_shop(site.user(), rooms=1)
    path = f"/api/v1/meta/{shop.channel_name}/card_capture_form_url"
    crowd = loopback_clients(site, *(f"127.0.1.{n}" for n in range(1, 7)))
    try:
        for client in crowd[:4]:
            check(client.get(path, params={"property_id": shop.property_id}))
        made = site.engine.store.scalar("SELECT count(*) FROM card_form_sessions")
        refused = crowd[4].get(path, params={"property_id": shop.property_id})
        assert refused.status_code == 429 and refused.json()["errors"]["code"] == "http_too_many_requests"
        assert 30 * 60 - 10 <= int(refused.headers["retry-after"]) <= 30 * 60  # the oldest was made just now
        assert site.engine.store.scalar("SELECT count(*) FROM card_form_sessions") == made  # refused: nothing made
        check(crowd[4].get(path))  # the channel's forms without a property
        check(crowd[5].get(f"/api/v1/meta/{other.channel_name}/card_capture_form_url",
                           params={"property_id": other.property_id}))
        # The oldest form counted was made 20 minutes ago: one more may be made in 10 minutes.
        with site.engine.store.transaction() as conn:
            oldest = conn.execute("SELECT id, inserted_at FROM card_form_sessions WHERE property_id = ? "
                                  "ORDER BY inserted_at LIMIT 1", (shop.property_id,)).fetchone()
            earlier = datetime.fromisoformat(oldest["inserted_at"]) - timedelta(minutes=20)
            conn.execute("UPDATE card_form_sessions SET inserted_at = ? WHERE id = ?",
                         (earlier.isoformat(timespec="microseconds"), oldest["id"]))
        later = crowd[5].get(path, params={"property_id": shop.property_id})
        assert later.status_code == 429 and 10 * 60 - 10 <= int(later.headers["retry-after"]) <= 10 * 60
    finally:
        for client in crowd:
            client.close()


def test_a_form_for_a_property_the_channel_does_not_sell_is_refused(site, shop):
    other = make_shop(site.user(), rooms=1)
    with loopback_clients(site, "127.0.1.9")[0] as client:
        refused = client.get(f"/api/v1/meta/{shop.channel_name}/card_capture_form_url",
                             params={"property_id": other.property_id})
    assert refused.status_code == 404 and refused.json()["errors"]["code"] == "not_found"


def test_one_client_address_cant_use_up_every_propertys_card_forms(site, shop):
    """A client that opens its PER_CLIENT forms is answered 429 until they age; another client is served meanwhile,
    though both call the same public channel. The count is the database's: another process sees it too."""
    from backend.vault.card_form import PER_CLIENT

    path = f"/api/v1/meta/{shop.channel_name}/card_capture_form_url"
    greedy, guest = loopback_clients(site, "127.0.0.7", "127.0.0.8")
    with greedy, guest:
        for _ in range(PER_CLIENT):
            check(greedy.get(path))
        made = site.engine.store.scalar("SELECT count(*) FROM card_form_sessions")
        refused = greedy.get(path)
        assert refused.status_code == 429 and refused.json()["errors"]["code"] == "http_too_many_requests"
        assert 30 * 60 - 10 <= int(refused.headers["retry-after"]) <= 30 * 60
        assert site.engine.store.scalar("SELECT count(*) FROM card_form_sessions") == made  # refused: nothing made
        check(guest.get(path))
    another_process = Engine.open(site.engine.store.location, site.engine.config)
    with pytest.raises(TooManyRequests):
        another_process.card_form.session([shop.channel_id], "127.0.0.7")


def test_sessions_expired_unspent_are_swept_as_new_ones_are_made(site, shop, browser_client):
    _, token = form_session(browser_client, shop)
    store = site.engine.store
    with store.transaction() as conn:  # its 30 minutes are over
        conn.execute("UPDATE card_form_sessions SET expires_at = '2000-01-01T00:00:00.000000' WHERE card_token IS NULL")
    form_session(browser_client, shop)
    assert store.scalar("SELECT count(*) FROM card_form_sessions WHERE expires_at < '2001'") == 0
    assert keep(site, token, GUEST_CARD).status_code == 401


def test_a_spent_session_leaves_with_its_card(site, shop, browser_client):
    """Kept while its card may be taken by a booking; gone when the card leaves the vault, by the purge or deleted."""
    store, vault = site.engine.store, site.engine.vault
    spent = []
    for _ in range(2):
        _, token = form_session(browser_client, shop)
        spent.append(keep(site, token, guest_card()).json()["data"]["attributes"]["card_token"])

    def sessions() -> int:
        return store.scalar("SELECT count(*) FROM card_form_sessions WHERE card_token IN (?, ?)", spent)

    vault.purge("tests")
    assert sessions() == 2  # their cards came in today: the purge keeps them
    with store.transaction() as conn:  # the first card's purge date is past
        conn.execute("UPDATE vault_cards SET departure_date = '2000-01-01' WHERE token = ?", (spent[0],))
    vault.purge("tests")
    assert sessions() == 1
    vault.delete(spent[1], "tests")
    assert sessions() == 0
