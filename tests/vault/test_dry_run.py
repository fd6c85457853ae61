"""What the console's profile tester asks of the engine: dry runs that keep nothing, and messages shown
with their card numbers and security codes hidden."""

from __future__ import annotations

import json

import pytest

from backend.core.card_data import hide_card_data
from backend.core.errors import BadRequest, ValidationFailed
from backend.vault import samples

PLACEHOLDER_1, PLACEHOLDER_2 = "0" * 31 + "1", "0" * 31 + "2"


def kept(engine) -> tuple[int, int]:
    return (engine.store.scalar("SELECT count(*) FROM vault_cards"),
            engine.store.scalar("SELECT count(*) FROM vault_audit"))


def test_a_dry_run_places_placeholder_tokens_and_keeps_nothing(engine):
    result = engine.tokenisation.dry_run("frontdesk", samples.message("bookings"))
    assert result.tokens == [PLACEHOLDER_1, "", PLACEHOLDER_2]
    assert result.warnings == ["", "no card", ""]
    guarantee = json.loads(result.body)["data"][0]["attributes"]["guarantee"]
    assert guarantee["token"] == PLACEHOLDER_1 and guarantee["card_number"] == "411111******1111"
    assert result.nodes[2].card["card_number"] == "555555******4444"
    assert kept(engine) == (0, 0)


@pytest.mark.parametrize("sample, cards", [("bookings", 2), ("ota_hotel_res_notif", 2), ("ota_res_retrieve", 3)])
def test_a_profile_not_saved_yet_can_be_tried(engine, sample, cards):
    result = engine.tokenisation.dry_run(samples.profile(sample), samples.message(sample))
    assert len([token for token in result.tokens if token]) == cards
    assert engine.tokenisation.profiles()[-1]["built_in"]  # nothing saved
    assert kept(engine) == (0, 0)


def test_a_dry_run_refuses_what_tokenise_refuses(engine):
    with pytest.raises(BadRequest):
        engine.tokenisation.dry_run(samples.profile("ota_res_retrieve"), b"<OTA_ResRetrieveRS><oops></OTA_ResRetrieveRS>")
    with pytest.raises(ValidationFailed) as unknown:
        engine.tokenisation.dry_run("nobody", b"{}")
    assert "profile" in unknown.value.details
    with pytest.raises(ValidationFailed) as bad:
        engine.tokenisation.dry_run({**samples.profile("bookings"), "type": "yaml"}, b"{}")
    assert "type" in bad.value.details


def test_card_numbers_are_hidden_wherever_they_are():
    text = ('{"card": "4111111111111111", "amex": "3782 822463 10005", "grouped": "5555-5555-5555-4444", '
            '"typo": "4111111111111112", "date": "2027-07-02", "stay": "2026-11-20 2026-11-22", "id": "12345678901"}')
    shown, hidden = hide_card_data(text, valid_only=False)
    for number in ("4111111111111111", "3782 822463 10005", "5555-5555-5555-4444", "4111111111111112"):
        assert number not in shown
    assert '"411111******1111"' in shown and '"378282*****0005"' in shown and '"555555******4444"' in shown
    assert '"2027-07-02"' in shown and '"2026-11-20 2026-11-22"' in shown and '"12345678901"' in shown
    assert [original for _, original in hidden] == ["4111111111111111", "3782 822463 10005", "5555-5555-5555-4444",
                                                    "4111111111111112"]
    assert hide_card_data(shown, valid_only=False)[0] == shown  # hiding again changes nothing


@pytest.mark.parametrize("sample, codes", [("bookings", ['"737"', '"4321"']),
                                           ("ota_hotel_res_notif", ['"4021"', '"552"']),
                                           ("ota_res_retrieve", [">318<", ">902<", ">7710<"])])
def test_the_samples_show_no_card_number_or_security_code(sample, codes):
    text = samples.message(sample).decode()
    shown, hidden = hide_card_data(text, valid_only=False)
    assert all(code in text and code not in shown for code in codes)
    assert not [number for number in ("4111111111111111", "5555555555554444", "378282246310005",
                                      "4000056655665556") if number in shown]
    assert all(masked in shown for masked, _ in hidden)


def test_security_codes_only_beside_their_names():
    text = '{"cvv": "123", "CVC2": 4567, "series_code": "999", "order": "123", "cvv_note": "see 555"}'
    shown, hidden = hide_card_data(text, valid_only=False)
    assert shown == '{"cvv": "***", "CVC2": ***, "series_code": "***", "order": "123", "cvv_note": "see 555"}'
    assert [original for _, original in hidden] == ['cvv": "123', 'CVC2": 4567', 'series_code": "999']
