"""Tokenising messages: one position per message node, tokens placed, card data masked everywhere,
and only valid cards ever reach the vault."""

from __future__ import annotations

import copy
import json
from datetime import date

import pytest
from lxml import etree

from backend.vault import samples
from backend.vault.builtin import builtin_profile
from backend.vault.cards import CardData
from backend.vault.profiles import compile_profile
from backend.vault.tokenise import CardDataLeft, NodeReport, Tokenised, tokenise

CAP = 1_000_000
OTA = {"ota": "http://www.opentravel.org/OTA/2003/05"}
TODAY = date(2026, 11, 22)
NUMBERS = ["4111111111111111", "5555555555554444", "378282246310005", "4000056655665556"]
TOKEN_1, TOKEN_2, TOKEN_3 = (f"{n:032x}" for n in (1, 2, 3))


def run(profile, body: bytes | dict, vault) -> Tokenised:
    if isinstance(body, dict):
        body = json.dumps(body).encode()
    return tokenise(profile, body, vault, max_bytes=CAP, today=TODAY)


def assert_no_card_data(result: Tokenised) -> None:
    """No full number (nor a CVV of the samples) anywhere the caller or a log could see."""
    seen = result.body + repr(result.nodes).encode() + repr(result.headers()).encode()
    for number in NUMBERS:
        assert number.encode() not in seen
    for cvv in (b'"737"', b'"4321"', b'"4021"', b'"552"', b">318<", b">902<", b">7710<"):
        assert cvv not in seen


def bookings() -> dict:
    return json.loads(samples.message("bookings"))


def guarantee(result: Tokenised, position: int) -> dict:
    return json.loads(result.body)["data"][position]["attributes"]["guarantee"]


def xml(result: Tokenised) -> etree._Element:
    return etree.fromstring(result.body)


# --- the samples ---------------------------------------------------------------------------------

def test_frontdesk_booking_list(vault):
    result = run(builtin_profile("frontdesk"), samples.message("bookings"), vault)
    assert result.tokens == [TOKEN_1, "", TOKEN_2]
    assert result.errors == ["", "", ""]
    assert result.warnings == ["", "no card", ""]
    assert guarantee(result, 0) == {"card_number": "411111******1111", "cardholder_name": "Ingrid Solberg",
                                    "card_type": "visa", "expiration_date": "09/2030", "cvv": "***", "meta": None,
                                    "token": TOKEN_1}
    assert guarantee(result, 1) is None
    assert guarantee(result, 2)["token"] == TOKEN_2 and guarantee(result, 2)["card_number"] == "555555******4444"
    assert len(vault.calls) == 1
    assert vault.cards == [CardData("4111111111111111", "Ingrid Solberg", "09", "2030", "737"),
                           CardData("5555555555554444", "Priya Raman", "03", "2029", "4321")]
    assert vault.departures == [date(2027, 5, 6), date(2027, 6, 21)]
    assert result.nodes[0] == NodeReport(0, {"card_number": "411111******1111", "cardholder_name": "Ingrid Solberg",
                                             "expiration_month": "09", "expiration_year": "2030",
                                             "service_code": "***"}, TOKEN_1, (), ())
    assert_no_card_data(result)


def test_frontdesk_entity(vault):
    body = {"data": bookings()["data"][2]}
    result = run(builtin_profile("frontdesk_entity"), body, vault)
    assert result.tokens == [TOKEN_1]
    assert json.loads(result.body)["data"]["attributes"]["guarantee"]["token"] == TOKEN_1
    assert_no_card_data(result)


def test_headers_placement_leaves_tokens_out_of_the_body(vault):
    result = run(compile_profile(samples.profile("bookings")), samples.message("bookings"), vault)
    assert result.headers() == {"X-PCI-FRONTDESK-TOKENS": f"{TOKEN_1},,{TOKEN_2}",
                                "X-PCI-FRONTDESK-ERRORS": ",,", "X-PCI-FRONTDESK-WARNINGS": ",no card,"}
    assert "token" not in guarantee(result, 0) and guarantee(result, 0)["cvv"] == "***"
    assert_no_card_data(result)


def test_ota_notification_with_card_attributes(vault):
    result = run(compile_profile(samples.profile("ota_hotel_res_notif")), samples.message("ota_hotel_res_notif"), vault)
    assert result.tokens == [TOKEN_1, TOKEN_2]
    cards = xml(result).findall(".//ota:PaymentCard", OTA)
    assert [(c.get("CardNumber"), c.get("SeriesCode"), c.get("ExpireDate")) for c in cards] == [
        ("378282*****0005", "***", "0828"), ("400005******5556", "***", "1131")]
    assert [c.findtext("ota:CardHolderName", namespaces=OTA) for c in cards] == ["Maja Kowalczyk", "Luc Ferrand"]
    assert vault.cards == [CardData("378282246310005", "Maja Kowalczyk", "08", "2028", "4021"),
                           CardData("4000056655665556", "Luc Ferrand", "11", "2031", "552")]
    assert vault.departures == [date(2027, 7, 5), date(2027, 7, 10)]
    assert result.body.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    assert_no_card_data(result)


def test_ota_retrieve_with_plain_text_elements_and_the_token_in_card_number(vault):
    result = run(compile_profile(samples.profile("ota_res_retrieve")), samples.message("ota_res_retrieve"), vault)
    assert result.tokens == [TOKEN_1, TOKEN_2, TOKEN_3]
    numbers = xml(result).findall(".//ota:PaymentCard/ota:CardNumber", OTA)
    assert [n.get("Token") for n in numbers] == [TOKEN_1, TOKEN_2, TOKEN_3]
    assert [n.findtext("ota:PlainText", namespaces=OTA) for n in numbers] == [
        "411111******1111", "555555******4444", "378282*****0005"]
    assert [s.text for s in xml(result).findall(".//ota:SeriesCode/ota:PlainText", OTA)] == ["***"] * 3
    assert [card.service_code for card in vault.cards] == ["318", "902", "7710"]
    assert_no_card_data(result)


# --- per message node ------------------------------------------------------------------------------

def test_a_luhn_failure_is_an_error_at_its_position_and_never_reaches_the_vault(vault):
    body = bookings()
    body["data"][0]["attributes"]["guarantee"]["card_number"] = "4111111111111112"
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.tokens == ["", "", TOKEN_1]
    assert result.errors == ["card_number fails the check digit (Luhn)", "", ""]
    failed = guarantee(result, 0)
    assert failed["card_number"] == "411111******1112" and failed["cvv"] == "***"
    assert failed["token_error"] == "card_number fails the check digit (Luhn)" and "token" not in failed
    assert [card.card_number for card in vault.cards] == ["5555555555554444"]
    assert b"4111111111111112" not in result.body


def test_an_error_in_xml_goes_to_the_error_node(vault):
    body = samples.message("ota_res_retrieve").replace(b"5555555555554444", b"5555555555554440")
    result = run(compile_profile(samples.profile("ota_res_retrieve")), body, vault)
    assert result.tokens == [TOKEN_1, "", TOKEN_2]
    numbers = xml(result).findall(".//ota:PaymentCard/ota:CardNumber", OTA)
    assert [(n.get("Token"), n.get("TokenError")) for n in numbers] == [
        (TOKEN_1, None), (None, "card_number fails the check digit (Luhn)"), (TOKEN_2, None)]
    assert numbers[1].findtext("ota:PlainText", namespaces=OTA) == "555555******4440"


def test_every_problem_of_a_card_at_once(vault):
    body = bookings()
    body["data"][0]["attributes"]["guarantee"].update(card_number="1234", expiration_date="13/2o27", cvv="12")
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.nodes[0].errors == ("card_number must have 12 to 19 digits",
                                      "expiration_month must be a month from 1 to 12",
                                      "expiration_year must have 2 or 4 digits", "service_code must have 3 or 4 digits")
    assert result.errors[0] == "; ".join(result.nodes[0].errors)
    assert guarantee(result, 0)["card_number"] == "****"


def test_a_node_without_its_card_node_has_an_empty_position_and_a_warning(vault):
    body = bookings()
    del body["data"][0]["attributes"]["guarantee"]
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.tokens == ["", "", TOKEN_1]
    assert result.warnings == ["no card", "no card", ""]
    assert result.nodes[0].card == {}


def test_a_required_field_that_matches_nothing_is_an_error(vault):
    body = bookings()
    del body["data"][0]["attributes"]["guarantee"]["card_number"]
    del body["data"][2]["attributes"]["guarantee"]["expiration_date"]
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.errors == ["card_number is missing", "", "expiration_month is missing; expiration_year is missing"]
    assert vault.calls == []  # no valid card, so the vault is not called at all


def test_an_optional_field_that_matches_nothing_is_no_error(vault):
    body = bookings()
    del body["data"][0]["attributes"]["guarantee"]["cvv"]
    body["data"][2]["attributes"]["guarantee"]["cardholder_name"] = None
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.tokens == [TOKEN_1, "", TOKEN_2]
    assert [(c.cardholder_name, c.service_code) for c in vault.cards] == [("Ingrid Solberg", None), (None, "4321")]


def test_several_card_nodes_in_one_message_node_are_an_error_and_all_are_masked(vault):
    profile = samples.profile("bookings")
    profile["schema"]["card_node"]["selector"] = "attributes.guarantees[*]"
    body = {"data": [{"attributes": {"guarantees": [{"card_number": n, "expiration_date": "01/2030", "cvv": "737"}
                                                    for n in NUMBERS[:2]]}}]}
    result = run(compile_profile(profile), body, vault)
    assert result.errors == ["2 card nodes where one is expected"]
    assert [g["card_number"] for g in json.loads(result.body)["data"][0]["attributes"]["guarantees"]] == [
        "411111******1111", "555555******4444"]
    assert vault.calls == []
    assert_no_card_data(result)


def test_a_field_matching_several_values_is_an_error_and_all_are_masked(vault):
    profile = samples.profile("bookings")
    profile["card_node"]["card_number"]["selector"] = "numbers[*]"
    body = {"data": [{"attributes": {"guarantee": {"numbers": NUMBERS[:2], "expiration_date": "01/2030"}}}]}
    result = run(compile_profile(profile), body, vault)
    assert result.errors == ["card_number matched 2 values where one is expected"]
    assert json.loads(result.body)["data"][0]["attributes"]["guarantee"]["numbers"] == [
        "411111******1111", "555555******4444"]


def test_a_card_sent_as_numbers_is_masked_as_text(vault):
    body = bookings()
    body["data"][0]["attributes"]["guarantee"].update(card_number=4111111111111111, cvv=737)
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.tokens[0] == TOKEN_1
    assert guarantee(result, 0)["card_number"] == "411111******1111" and guarantee(result, 0)["cvv"] == "***"


def test_a_field_that_is_not_text_is_an_error(vault):
    body = bookings()
    body["data"][0]["attributes"]["guarantee"]["card_number"] = {"pan": "4111111111111112"}  # fails Luhn
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.errors[0] == "card_number is not a text value"


def test_a_card_the_selectors_do_not_reach_refuses_the_message(vault):
    """A card number inside an object where text belongs is not cut out by the profile: rather than
    leave with it, the whole message is refused, naming nothing of it."""
    body = bookings()
    body["data"][0]["attributes"]["guarantee"]["card_number"] = {"pan": "4111111111111111"}
    with pytest.raises(CardDataLeft) as left:
        run(builtin_profile("frontdesk"), body, vault)
    assert left.value.kind == "a card number" and "4111" not in str(left.value.details)


@pytest.mark.parametrize("where, value", [
    ("notes", "card 4111 1111 1111 1111"), ("meta", {"cc": 5555555555554444}), ("ref", "x 378282246310005"),
    ("cvv", "737"), ("note", "cvc: 4321"),
])
def test_card_data_outside_the_card_node_refuses_the_message(vault, where, value):
    body = bookings()
    body["data"][1]["attributes"][where] = value
    with pytest.raises(CardDataLeft):
        run(builtin_profile("frontdesk"), body, vault)


def test_phone_numbers_are_not_card_data_but_identifiers_may_be(vault):
    """A phone field keeps a phone (at most 15 digits); no identifier is exempt, so a card in one is never let out."""
    body = bookings()
    body["data"][1]["attributes"].update(customer={"surname": "Ng", "phone": "+49 1512 3456001"})
    result = run(builtin_profile("frontdesk"), body, vault)
    assert json.loads(result.body)["data"][1]["attributes"]["customer"]["phone"] == "+49 1512 3456001"
    for identifier in ({"reservation_id": "4111111111111111"}, {"unique_id": "OSH-5555555555554444"},
                       {"customer": {"surname": "Ng", "phone": "4111 1111 1111 1111"}}):
        body["data"][1]["attributes"].update(identifier)
        with pytest.raises(CardDataLeft):
            run(builtin_profile("frontdesk"), body, vault)
        body = bookings()


def test_an_expired_card_is_tokenised_with_a_warning(vault):
    body = bookings()
    body["data"][0]["attributes"]["guarantee"]["expiration_date"] = "10/2026"
    result = run(builtin_profile("frontdesk"), body, vault)
    assert result.tokens[0] == TOKEN_1 and result.warnings[0] == "card has expired"


def test_several_fields_cut_from_one_value_are_masked_where_they_were(vault):
    profile = {
        "name": "combined", "type": "xml", "schema": {"message_node": {"selector": "/r/b"},
                                                      "card_node": {"selector": "card"}},
        "card_token_placement": {"type": "card_node", "node": "card/@token"},
        "card_node": {"card_number": {"selector": "@data", "transformation": "substring:0,16"},
                      "expiration_month": {"selector": "@data", "transformation": "substring:17,19"},
                      "expiration_year": {"selector": "@data", "transformation": "substring:19,21"},
                      "service_code": {"selector": "@data", "transformation": "substring:22,26"}},
    }
    body = b'<r><b><card data="4111111111111111|0530|7370"/></b><b><card data="5555555555554444|1229|123"/></b></r>'
    result = run(compile_profile(profile), body, vault)
    assert [c.get("data") for c in xml(result).iter("card")] == ["411111******1111|0530|***",
                                                                "555555******4444|1229|***"]
    assert [c.get("token") for c in xml(result).iter("card")] == [TOKEN_1, TOKEN_2]
    assert vault.cards == [CardData("4111111111111111", None, "05", "2030", "7370"),
                           CardData("5555555555554444", None, "12", "2029", "123")]


def test_a_missing_token_element_is_created_in_the_documents_namespace(vault):
    profile = samples.profile("ota_hotel_res_notif")
    profile["card_token_placement"] = {"type": "card_node", "node": ".//ota:PaymentCard/ota:Token"}
    result = run(compile_profile(profile), samples.message("ota_hotel_res_notif"), vault)
    tokens = xml(result).findall(".//ota:PaymentCard/ota:Token", OTA)
    assert [t.text for t in tokens] == [TOKEN_1, TOKEN_2]
    assert b"<Token>" in result.body  # in the default namespace, without a prefix


def test_an_existing_token_node_is_overwritten(vault):
    profile = samples.profile("ota_hotel_res_notif")
    profile["card_token_placement"] = {"type": "card_node", "node": ".//ota:PaymentCard/@CardNumber"}
    result = run(compile_profile(profile), samples.message("ota_hotel_res_notif"), vault)
    assert [c.get("CardNumber") for c in xml(result).findall(".//ota:PaymentCard", OTA)] == [TOKEN_1, TOKEN_2]


def test_a_token_node_with_nowhere_to_go_is_an_error_before_the_vault(vault):
    profile = samples.profile("bookings")
    profile["card_token_placement"] = {"type": "card_node", "node": "attributes.status.token"}
    result = run(compile_profile(profile), samples.message("bookings"), vault)
    assert result.errors == ["token node has no object to go into", "", "token node has no object to go into"]
    assert vault.calls == []
    xml_profile = samples.profile("ota_res_retrieve")
    xml_profile["card_token_placement"]["node"] = "ota:Missing/@Token"
    result = run(compile_profile(xml_profile), samples.message("ota_res_retrieve"), vault)
    assert result.errors == ["token node has 0 elements to go into where one is expected"] * 3
    assert vault.calls == []


def test_a_json_token_node_creates_the_objects_on_its_way(vault):
    profile = samples.profile("bookings")
    profile["card_token_placement"] = {"type": "card_node", "node": "vault.card.token"}
    result = run(compile_profile(profile), samples.message("bookings"), vault)
    assert json.loads(result.body)["data"][0]["vault"] == {"card": {"token": TOKEN_1}}
    assert "vault" not in json.loads(result.body)["data"][1]


def test_no_message_nodes_means_empty_headers_and_no_vault_call(vault):
    result = run(builtin_profile("frontdesk"), {"data": [], "meta": {}}, vault)
    assert result.nodes == () and vault.calls == []
    assert result.headers() == {"X-PCI-FRONTDESK-TOKENS": "", "X-PCI-FRONTDESK-ERRORS": "",
                                "X-PCI-FRONTDESK-WARNINGS": ""}


def test_departures_without_a_departure_node_are_none(vault):
    profile = samples.profile("bookings")
    del profile["schema"]["departure_node"]
    run(compile_profile(profile), samples.message("bookings"), vault)
    assert vault.departures == [None, None]


def test_the_latest_of_several_departures_counts(vault):
    body = samples.message("ota_hotel_res_notif").replace(
        b'<TimeSpan Start="2027-07-02" End="2027-07-05"/>',
        b'<TimeSpan Start="2027-07-02" End="2027-07-05"/></RoomStay><RoomStay><TimeSpan End="2027-07-08"/>'
        b'</RoomStay><RoomStay><TimeSpan End="soon"/>')
    run(compile_profile(samples.profile("ota_hotel_res_notif")), body, vault)
    assert vault.departures == [date(2027, 7, 8), date(2027, 7, 10)]


def test_issue_must_return_one_token_per_card():
    with pytest.raises(RuntimeError):
        tokenise(builtin_profile("frontdesk"), samples.message("bookings"), lambda cards, _: ["x"], max_bytes=CAP)


# --- headers -----------------------------------------------------------------------------------------

def test_header_positions_survive_commas_and_non_ascii():
    headers = Tokenised(b"", ["", ""], [("a, b", "100% é"), ()], [(), ("c",)]).headers()
    assert headers["X-PCI-FRONTDESK-ERRORS"] == "a%2C b; 100%25 %C3%A9,"
    assert headers["X-PCI-FRONTDESK-WARNINGS"] == ",c"
    assert all(value.isascii() for value in headers.values())


@pytest.mark.parametrize("name", list(samples.SAMPLES))
def test_tokenising_does_not_change_the_profile_or_leak_between_runs(name, vault):
    profile = compile_profile(samples.profile(name))
    stored = copy.deepcopy(profile.stored())
    first = run(profile, samples.message(name), vault)
    second = run(profile, samples.message(name), vault)
    assert profile.stored() == stored
    assert first.errors == second.errors and len(vault.calls) == 2
