"""Hostile bodies: strict JSON and hardened XML refuse them with a 400 (413 over the cap), never a crash,
and never quote the body back."""

from __future__ import annotations

import json

import pytest

from backend.core.errors import BadRequest, PayloadTooLarge
from backend.core.strict_json import MAX_DEPTH, read_json
from backend.vault import samples
from backend.vault.builtin import builtin_profile
from backend.vault.profiles import compile_profile
from backend.vault.tokenise import tokenise
from backend.vault.xmlsafe import read_xml

CAP = 1_000_000


def refused(read, body: bytes) -> str:
    with pytest.raises(BadRequest) as caught:
        read(body, CAP)
    [message] = caught.value.details
    return message


# --- JSON ------------------------------------------------------------------------------------------

def test_json_within_the_rules_reads():
    assert read_json(b'{"a": [1, 2.5, "\\u00e9", null, true]}', CAP) == {"a": [1, 2.5, "é", None, True]}


@pytest.mark.parametrize(("body", "problem"), [
    (b'{"a": 1, "a": 2}', "duplicate key"),
    (b'{"data": [{"guarantee": {"card_number": "1", "card_number": "2"}}]}', "duplicate key"),
    (b'{"a": NaN}', "NaN"),
    (b'{"a": Infinity}', "Infinity"),
    (b'[-Infinity]', "-Infinity"),
    ('{"name": "Müller"}'.encode("latin-1"), "UTF-8"),
    ('{"name": "Müller"}'.encode("utf-16"), "UTF-8"),
    (b'\xef\xbb\xbf{"a": 1}', "not valid JSON"),
    (b'{"card_number": "4111111111111111",}', "not valid JSON"),
    (b"", "not valid JSON"),
])
def test_json_refused(body, problem):
    message = refused(read_json, body)
    assert problem in message
    assert "4111" not in message and "Müller" not in message


def test_json_nesting_is_capped():
    assert read_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, CAP)
    assert "deeper than 64" in refused(read_json, b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1))
    assert "deeper than 64" in refused(read_json, b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1))


def test_json_nested_past_the_interpreters_limit_is_a_400_not_a_crash():
    assert "deeper than 64" in refused(read_json, b"[" * 100_000 + b"]" * 100_000)


def test_json_over_the_cap_is_a_413():
    with pytest.raises(PayloadTooLarge):
        read_json(b" " * 101 + b"{}", 100)


# --- XML -------------------------------------------------------------------------------------------

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<r>&xxe;</r>"""

BILLION_LAUGHS = b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n' + b"".join(
    f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10 if n > 1 else "&lol;" * 10}">\n'.encode() for n in range(1, 10)
) + b"]>\n<lolz>&lol9;</lolz>"


@pytest.mark.parametrize("body", [
    XXE,
    BILLION_LAUGHS,
    b"<!DOCTYPE r><r/>",
    b'<!DOCTYPE r SYSTEM "http://127.0.0.1:1/r.dtd"><r/>',
    b'<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/p.dtd"> %p;]><r/>',
    b'<?xml version="1.0"?>\n<!-- a comment -->\n<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>',
], ids=["xxe", "billion-laughs", "bare-doctype", "external-dtd", "parameter-entity", "after-a-comment"])
def test_any_doctype_is_refused(body):
    assert "DOCTYPE" in refused(read_xml, body)


def test_a_doctype_the_prolog_scan_misses_is_refused_after_parsing():
    # A "<" inside a comment ends the quick scan early; the parsed document still shows the DOCTYPE.
    body = b'<!-- <b> --><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>'
    assert "DOCTYPE" in refused(read_xml, body)


def test_entities_without_a_doctype_are_refused():
    assert "entities" in refused(read_xml, b"<r>&undeclared;</r>")


@pytest.mark.parametrize("body", [
    b"<r><CardNumber>4111111111111111</Card></r>",
    b"<r>",
    b"not xml at all 4111111111111111",
    b"",
])
def test_malformed_xml_is_a_400_that_quotes_nothing(body):
    message = refused(read_xml, body)
    assert message.startswith("the body is not well-formed XML")
    assert "4111" not in message and "Card" not in message


def test_xml_nesting_is_capped():
    assert "deeper than 256" in refused(read_xml, b"<a>" * 300 + b"</a>" * 300)


def test_xml_over_the_cap_is_a_413():
    with pytest.raises(PayloadTooLarge):
        read_xml(b"<r>" + b" " * 100 + b"</r>", 100)


def test_a_cdata_doctype_inside_the_document_is_content_not_a_doctype():
    root = read_xml(b"<r><![CDATA[<!DOCTYPE html><p>Sea view</p>]]></r>", CAP)
    assert root.text.startswith("<!DOCTYPE html>")


# --- through tokenise --------------------------------------------------------------------------------

def test_tokenise_refuses_before_anything_reaches_the_vault(vault):
    xml = compile_profile(samples.profile("ota_res_retrieve"))
    for profile, body in ((xml, XXE), (xml, BILLION_LAUGHS), (builtin_profile("frontdesk"), b'{"data": NaN}')):
        with pytest.raises(BadRequest):
            tokenise(profile, body, vault, max_bytes=CAP)
    with pytest.raises(PayloadTooLarge):
        tokenise(xml, samples.message("ota_res_retrieve"), vault, max_bytes=1000)
    assert vault.calls == []


def test_a_json_profile_given_xml_is_a_400(vault):
    with pytest.raises(BadRequest):
        tokenise(builtin_profile("frontdesk"), samples.message("ota_res_retrieve"), vault, max_bytes=CAP)


def test_a_lone_surrogate_escape_survives_the_round_trip(vault):
    body = json.dumps({"data": [{"attributes": {"note": "\ud800", "guarantee": None}}]}).encode()
    result = tokenise(builtin_profile("frontdesk"), body, vault, max_bytes=CAP)
    assert json.loads(result.body)["data"][0]["attributes"]["note"] == "\ud800"
