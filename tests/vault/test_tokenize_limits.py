"""What one tokenize may cost its caller and the server (issue 22, item 7): an answer's headers stay under 8 KB, the
per-position lists of a message of many nodes going to the body; a message holds so many objects, elements or
message nodes at most, so that its memory stays within a few times its size."""

from __future__ import annotations

import json

import pytest
from lxml import etree

from backend.vault import documents, samples, tokenise
from tests.vault.test_pci_api import key, profile_body, unique, vault  # noqa: F401 — fixtures and helpers

OTA = {"ota": "http://www.opentravel.org/OTA/2003/05"}


def reservations(copies: int) -> bytes:
    """The OTA_ResRetrieveRS sample with its three reservations repeated."""
    message = samples.message("ota_res_retrieve")
    head, rest = message.split(b"<ReservationsList>", 1)
    listed, tail = rest.split(b"</ReservationsList>", 1)
    return head + b"<ReservationsList>" + listed * copies + b"</ReservationsList>" + tail


def header_bytes(response) -> int:
    return sum(len(name) + len(value) + 4 for name, value in response.headers.raw)


def test_an_answer_of_many_positions_keeps_its_headers_small_and_its_lists_in_the_body(vault):
    """300 reservations: their tokens alone were a 10 KB header line (6,000 were over 64 KiB)."""
    name = unique("many")
    vault.post("/api/v1/tokenization_profiles", json=profile_body(name, "ota_res_retrieve")).raise_for_status()
    response = vault.post("/api/v1/tokenize", params={"profile": name}, content=reservations(100))
    assert response.status_code == 200, response.text
    assert header_bytes(response) < 8 * 1024
    assert "x-pci-frontdesk-tokens" not in response.headers
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert len(body["tokens"]) == len(body["errors"]) == len(body["warnings"]) == 300
    tokens = [token for token in body["tokens"] if token]
    assert response.headers["x-pci-frontdesk-summary"].startswith(f"positions=300; tokens={len(tokens)}; ")
    message = etree.fromstring(body["message"].encode())  # the tokenised XML, without its declaration
    assert message.xpath("//ota:CardNumber/@Token", namespaces=OTA) == tokens
    assert "4111111111111111" not in response.text


def test_a_message_of_nodes_without_cards_gets_a_summary_not_a_warning_each(vault):
    """The issue's case: `no card,` a million times in one header."""
    message = {"data": [{"id": str(n)} for n in range(3000)]}
    response = vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, content=json.dumps(message))
    assert response.status_code == 200, response.text
    assert header_bytes(response) < 8 * 1024
    assert response.headers["x-pci-frontdesk-summary"] == (
        "positions=3000; tokens=0; errors=0; warnings=3000 (no card: 3000); lists=body")
    body = response.json()
    assert body["message"] == message and body["warnings"] == ["no card"] * 3000


def test_an_ordinary_message_keeps_the_spec_headers(vault):
    response = vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, content=samples.message("bookings"))
    assert response.status_code == 200 and "x-pci-frontdesk-summary" not in response.headers
    assert len(response.headers["x-pci-frontdesk-tokens"].split(",")) == 3
    assert response.json()["data"][0]["attributes"]["guarantee"]["card_number"] == "411111******1111"


@pytest.mark.parametrize("module, cap, limit, profile, body", [
    (documents, "MAX_CONTAINERS", 100, "frontdesk", b'{"data": [' + b",".join([b"{}"] * 101) + b"]}"),
    (tokenise, "MAX_MESSAGES", 50, "frontdesk", b'{"data": [' + b",".join([b"0"] * 51) + b"]}"),
    (documents, "MAX_MARKUP", 200, "ota_res_retrieve", reservations(10)),
    (documents, "MAX_VALUES", 100, "by-filter", b'{"data": [' + b",".join([b"0"] * 101) + b"]}"),
], ids=["objects", "message-nodes", "elements", "values-for-jsonpath"])
def test_a_message_beyond_a_cap_is_a_413_and_keeps_nothing(vault, live, monkeypatch, module, cap, limit, profile,
                                                            body):
    if profile != "frontdesk":  # the sample's, or one whose message selector jsonpath-ng must find
        sample = "ota_res_retrieve" if profile == "ota_res_retrieve" else "bookings"
        created = profile_body(unique(profile), sample)
        if profile == "by-filter":
            created["tokenization_profile"]["schema"]["message_node"]["selector"] = "$.data[?(@.id)]"
        vault.post("/api/v1/tokenization_profiles", json=created).raise_for_status()
        profile = created["tokenization_profile"]["name"]
    monkeypatch.setattr(module, cap, limit)
    before = live[0].store.scalar("SELECT count(*) FROM vault_cards")
    response = vault.post("/api/v1/tokenize", params={"profile": profile}, content=body)
    assert response.status_code == 413, response.text
    assert response.json()["errors"]["code"] == "payload_too_large" and f"{limit:,}" in response.text
    assert live[0].store.scalar("SELECT count(*) FROM vault_cards") == before


def test_an_xml_message_in_the_body_is_text_in_its_own_characters(engine):
    """The message goes into the JSON body as a string: decoded from its own encoding, without the declaration
    that named it (a parser reading the string would take the declaration's word over the string's)."""
    latin = reservations(100).replace(b'encoding="UTF-8"', b'encoding="ISO-8859-1"').replace(
        b"Anna Keller</CardHolderName>", "Anna Müller</CardHolderName>".encode("latin-1"))
    body, media_type, headers = engine.tokenisation.dry_run(samples.profile("ota_res_retrieve"),
                                                            latin).answer("application/xml")
    message = json.loads(body)["message"]
    assert media_type == "application/json" and not message.startswith("<?xml")
    assert "Anna Müller" in message and etree.fromstring(message.encode()).tag.endswith("OTA_ResRetrieveRS")
