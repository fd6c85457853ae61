"""The card tokenisation API over real HTTP on the pci listener: keys, profiles, tokenize, the vault
by token, and capture of the secure listener's bookings."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from urllib.parse import unquote

import httpx
import pytest

from backend.vault import samples
from tests.shopping.shop import CARD, booking, check, day, make_shop
from tests.stores import on_disk

NUMBERS = ("4111111111111111", "5555555555554444", "378282246310005", "4000056655665556")


@pytest.fixture
def key(live) -> str:
    return live[0].pci_keys.add("tests").token


@pytest.fixture
def vault(pci, key) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=pci.url, params={"api_key": key}, timeout=30) as client:
        yield client


def profile_body(name: str, sample: str = "bookings") -> dict:
    return {"tokenization_profile": {**samples.profile(sample), "name": name}}


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def tokens_of(response: httpx.Response) -> list[str]:
    return [unquote(t) for t in response.headers["x-pci-frontdesk-tokens"].split(",")]


def assert_no_clear_card(engine) -> None:
    """Neither the database's files nor its rows hold a test card number."""
    raw = on_disk(engine)
    for number in NUMBERS:
        assert number.encode() not in raw


def test_every_call_needs_a_live_key(pci, live, user):
    with httpx.Client(base_url=pci.url, timeout=10) as anonymous:
        assert anonymous.get("/api/v1/tokenization_profiles").status_code == 401
        assert anonymous.get("/api/v1/tokenization_profiles", params={"api_key": "nope"}).status_code == 401
        # A user's main-API token opens nothing here.
        assert anonymous.get("/api/v1/tokenization_profiles", params={"api_key": user.token}).status_code == 401
        issued = live[0].pci_keys.add("short-lived")
        assert anonymous.get("/api/v1/tokenization_profiles", params={"api_key": issued.token}).status_code == 200
        live[0].pci_keys.revoke(issued.id)
        refused = anonymous.get("/api/v1/tokenization_profiles", params={"api_key": issued.token})
        assert refused.status_code == 401 and refused.json()["errors"]["code"] == "unauthorized"
    stored = live[0].store.query("SELECT key_hash FROM pci_keys")
    assert all(issued.token not in row[0] for row in stored)


def test_the_card_listener_serves_nothing_of_the_main_api(pci, user):
    with httpx.Client(base_url=pci.url, timeout=10, headers={"Authorization": f"Bearer {user.token}"}) as client:
        assert client.get("/api/v1/groups").status_code == 404
        assert client.get(f"/api/v1/media/{uuid.uuid4()}").status_code == 404
        assert client.get("/api/v1/properties").status_code == 404
        assert client.get("/api/v1/health").status_code == 200


def test_profile_crud_with_the_spec_shapes(vault):
    name = unique("ota")
    created = check(vault.post("/api/v1/tokenization_profiles", json=profile_body(name, "ota_res_retrieve")), 201)
    data = created["data"]
    assert data["type"] == "tokenization_profile" and data["attributes"]["name"] == name
    placement = data["attributes"]["profile"]["card_token_placement"]
    assert placement["type"] == "card_node" and placement["card_token_node"] and "node" not in placement
    assert "error_node" in placement
    path = f"/api/v1/tokenization_profiles/{data['id']}"
    assert check(vault.get(path))["data"]["attributes"]["name"] == name
    # PUT what was read, renamed: the read shape is accepted back.
    changed = {**data["attributes"], "name": name + "-2"}
    assert check(vault.put(path, json={"tokenization_profile": changed}))["data"]["attributes"]["name"] == name + "-2"
    names = [p["attributes"]["name"] for p in check(vault.get("/api/v1/tokenization_profiles"))["data"]]
    assert names[:2] == ["frontdesk", "frontdesk_entity"] and name + "-2" in names
    deleted = vault.delete(path)
    assert deleted.status_code == 204 and deleted.content == b""
    assert vault.get(path).status_code == 404


def test_bad_profiles_name_every_problem_and_store_nothing(vault, live):
    before = live[0].store.scalar("SELECT count(*) FROM tokenization_profiles")
    body = samples.profile("bookings")
    body.update(name="bad name!", card_token_placement={"type": "card_node"})
    body["schema"]["message_node"]["selector"] = "$.data[*"
    body["card_node"]["expiration_month"]["transformation"] = "upper"
    response = vault.post("/api/v1/tokenization_profiles", json={"tokenization_profile": body})
    details = check(response, 422)["errors"]["details"]
    assert {"name", "schema.message_node.selector", "card_node.expiration_month.transformation"} <= set(details)
    assert any(field.startswith("card_token_placement") for field in details)
    assert live[0].store.scalar("SELECT count(*) FROM tokenization_profiles") == before
    taken = unique("taken")
    check(vault.post("/api/v1/tokenization_profiles", json=profile_body(taken)), 201)
    assert "name" in check(vault.post("/api/v1/tokenization_profiles", json=profile_body(taken)), 422)["errors"][
        "details"]


def test_built_in_profiles_are_read_only(vault):
    builtin = check(vault.get("/api/v1/tokenization_profiles"))["data"][0]
    path = f"/api/v1/tokenization_profiles/{builtin['id']}"
    assert check(vault.get(path))["data"]["attributes"]["name"] == "frontdesk"
    assert vault.put(path, json=profile_body(unique("x"))).status_code == 403
    assert vault.delete(path).status_code == 403
    assert check(vault.post("/api/v1/tokenization_profiles", json=profile_body("frontdesk")), 422)


def test_tokenize_a_json_message_into_the_vault(vault, live):
    name = unique("json")
    check(vault.post("/api/v1/tokenization_profiles", json=profile_body(name)), 201)
    response = vault.post("/api/v1/tokenize", params={"profile": name}, content=samples.message("bookings"),
                          headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text
    tokens = tokens_of(response)
    # The sample's second booking has no guarantee: its position is empty, with a warning.
    assert len(tokens) == 3 and tokens[1] == "" and all(len(tokens[i]) == 32 for i in (0, 2))
    assert "no card" in unquote(response.headers["x-pci-frontdesk-warnings"].split(",")[1])
    for number in NUMBERS:
        assert number not in response.text
    card = check(vault.get(f"/api/v1/cards/{tokens[0]}"))["data"]["attributes"]
    assert card["card_number"].startswith("411111") and "*" in card["card_number"]
    assert card["has_cvv"] is True and card["card_type"] == "visa"
    wiped = check(vault.post(f"/api/v1/cards/{tokens[0]}/wipe_cvv"))["data"]["attributes"]
    assert wiped["has_cvv"] is False
    assert check(vault.delete(f"/api/v1/cards/{tokens[0]}"))["meta"]["message"] == "Success"
    assert vault.get(f"/api/v1/cards/{tokens[0]}").status_code == 404
    assert vault.get("/api/v1/cards/not-a-token").status_code == 404
    actions = [row["action"] for row in live[0].vault.audit(tokens[0])]
    assert actions == ["delete", "read", "wipe_cvv", "read", "store"]
    assert_no_clear_card(live[0])


@pytest.mark.parametrize("sample", ["ota_hotel_res_notif", "ota_res_retrieve"])
def test_tokenize_ota_xml(vault, live, sample):
    name = unique(sample.replace("_", "-"))
    check(vault.post("/api/v1/tokenization_profiles", json=profile_body(name, sample)), 201)
    response = vault.post("/api/v1/tokenize", params={"profile": name}, content=samples.message(sample))
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/xml")
    tokens = [t for t in tokens_of(response) if t]
    assert tokens and all(live[0].store.scalar("SELECT 1 FROM vault_cards WHERE token = ?", (t,)) for t in tokens)
    for number in NUMBERS:
        assert number not in response.text


@pytest.mark.parametrize("body, status", [
    (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>', 400),
    (b"<OTA_ResRetrieveRS><unclosed></OTA_ResRetrieveRS>", 400),
    (b"\xff\xfe<r/>", 400),
])
def test_hostile_xml_is_refused_and_nothing_kept(vault, live, body, status):
    name = unique("xml")
    check(vault.post("/api/v1/tokenization_profiles", json=profile_body(name, "ota_res_retrieve")), 201)
    before = live[0].store.scalar("SELECT count(*) FROM vault_cards")
    response = vault.post("/api/v1/tokenize", params={"profile": name}, content=body)
    assert response.status_code == status and response.json()["errors"]["code"] == "bad_request"
    assert "passwd" not in response.text
    assert live[0].store.scalar("SELECT count(*) FROM vault_cards") == before


@pytest.mark.parametrize("body", [
    b'{"data": [{"attributes": {"guarantee": {"card_number": "4111111111111111", "card_number": "1"}}}]}',
    b'{"data": [{"attributes": {"amount": NaN}}]}',
    b'{"data": ' + b"[" * 100 + b"]" * 100 + b"}",
    '{"data": [{"attributes": {"guest": "Jos\u00e9"}}]}'.encode("latin-1"),
])
def test_hostile_json_is_refused_and_nothing_kept(vault, live, body):
    before = live[0].store.scalar("SELECT count(*) FROM vault_cards")
    response = vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, content=body)
    assert response.status_code == 400 and response.json()["errors"]["code"] == "bad_request"
    assert "4111111111111111" not in response.text
    assert live[0].store.scalar("SELECT count(*) FROM vault_cards") == before


def test_no_card_reaches_a_log(vault, caplog):
    caplog.set_level(logging.DEBUG)
    bad_luhn = samples.message("bookings").replace(b"4111111111111111", b"4111111111111112")
    response = vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, content=bad_luhn)
    assert response.status_code == 200
    errors = unquote(response.headers["x-pci-frontdesk-errors"].split(",")[0])
    assert "Luhn" in errors and "4111111111111112" not in response.text
    for number in (*NUMBERS, "4111111111111112"):
        assert number not in caplog.text


def test_tokenize_refuses_oversize_and_unknown_profiles(vault, live):
    huge = b'{"data": "' + b"x" * (live[0].config.tokenise_max_bytes + 1) + b'"}'
    assert vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, content=huge).status_code == 413
    unknown = vault.post("/api/v1/tokenize", params={"profile": "nothing-here"}, content=b"{}")
    assert unknown.status_code == 422 and "profile" in unknown.json()["errors"]["details"]


# --- capture -------------------------------------------------------------------------------------

@pytest.fixture
def sealed_booking(user, secure) -> tuple:
    """A booking pushed with a card on the secure listener, so the vault has one to capture."""
    shop = make_shop(user, rooms=3)
    with httpx.Client(base_url=secure.url, timeout=10) as client:
        made = check(client.post(f"{shop.meta}/push_booking", json=booking(
            shop, day(2), day(4), guarantee=CARD, reservation_id=unique("CAP"))), 201)["data"]
    return user, made


def test_capture_returns_bookings_with_tokens_for_cards(vault, secure, live, sealed_booking):
    user, made = sealed_booking
    auth = {"Authorization": f"Bearer {user.token}"}
    response = vault.post("/api/v1/capture", headers=auth, params={
        "profile": "frontdesk", "method": "get", "url": f"{secure.url}/api/v1/bookings"})
    assert response.status_code == 200, response.text
    guarantee = response.json()["data"][0]["attributes"]["guarantee"]
    assert guarantee["card_number"] == "411111******1111" and guarantee["cvv"] == "***"
    token = guarantee["token"]
    assert tokens_of(response) == [token]
    card = check(vault.get(f"/api/v1/cards/{token}"))["data"]["attributes"]
    assert card["cardholder_name"] == "Jane Doe" and card["expiration_year"] == "2031"
    # Kept until 30 days after the guest leaves.
    assert card["purge_after"] > made["attributes"]["departure_date"]
    one = vault.post("/api/v1/capture", headers=auth, params={
        "profile": "frontdesk_entity", "method": "get", "url": f"{secure.url}/api/v1/bookings/{made['id']}"})
    # The booking's own card, which the vault holds already: no copy.
    assert one.json()["data"]["attributes"]["guarantee"]["token"] == token == live[0].store.scalar(
        "SELECT card_token FROM booking_revisions WHERE id = ?", (made["attributes"]["revision_id"],))
    assert "4111111111111111" not in response.text + one.text
    assert_no_clear_card(live[0])


def test_capture_passes_the_main_api_errors_through(vault, secure, live, sealed_booking):
    user, made = sealed_booking
    before = live[0].store.scalar("SELECT count(*) FROM vault_cards")
    wrong = vault.post("/api/v1/capture", headers={"Authorization": "Bearer fd_wrong"}, params={
        "profile": "frontdesk", "method": "get", "url": f"{secure.url}/api/v1/bookings"})
    assert wrong.status_code == 401 and wrong.json()["errors"]["code"] == "unauthorized"
    missing = vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"}, params={
        "profile": "frontdesk_entity", "method": "get", "url": f"{secure.url}/api/v1/bookings/{made['id']}0"})
    assert missing.status_code == 404
    assert live[0].store.scalar("SELECT count(*) FROM vault_cards") == before


@pytest.mark.parametrize("params, field", [
    ({"method": "post"}, "method"),
    ({"url": "http://example.com/api/v1/bookings"}, "url"),
    ({"url": "MAIN/api/v1/bookings"}, "url"),  # the main listener never reveals cards: not a capture target
    ({"url": "SECURE/api/v1/../../etc/passwd"}, "url"),
    ({"url": "http://user@127.0.0.1/api/v1/bookings"}, "url"),
    ({"profile": "nothing-here"}, "profile"),
])
def test_capture_is_not_an_open_proxy(vault, secure, live, user, params, field):
    base = {"profile": "frontdesk", "method": "get", "url": f"{secure.url}/api/v1/bookings"}
    chosen = {k: v.replace("MAIN", live[1].url).replace("SECURE", secure.url) for k, v in params.items()}
    response = vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"},
                          params={**base, **chosen})
    assert response.status_code == 422 and field in response.json()["errors"]["details"]
