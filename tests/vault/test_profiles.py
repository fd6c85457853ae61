"""Profile validation: every selector compiled at save, each problem a 422 naming its field, all at once."""

from __future__ import annotations

import copy

import pytest

from backend.core.errors import BadRequest, ValidationFailed
from backend.vault import samples
from backend.vault.builtin import builtin_profile
from backend.vault.profiles import compile_profile, compiled_from_stored

JSON = samples.profile("bookings")
XML = samples.profile("ota_res_retrieve")


def changed(base: dict, path: str, value: object) -> dict:
    """A copy of `base` with the dotted `path` set to `value` (or removed, for ...)."""
    body = copy.deepcopy(base)
    *parents, last = path.split(".")
    place = body
    for key in parents:
        place = place[key]
    if value is ...:
        del place[last]
    else:
        place[last] = value
    return body


def problems(body: object) -> dict[str, list[str]]:
    with pytest.raises(ValidationFailed) as caught:
        compile_profile(body)
    return caught.value.details


def test_the_sample_profiles_compile():
    for name in samples.SAMPLES:
        assert compile_profile(samples.profile(name)).name == samples.profile(name)["name"]


INVALID = [
    ("name", JSON, "name", "has space"),
    ("name", JSON, "name", ""),
    ("name", JSON, "name", "x" * 65),
    ("name", JSON, "name", "frontdesk"),
    ("name", JSON, "name", ...),
    ("type", JSON, "type", "yaml"),
    ("type", JSON, "type", ...),
    ("schema.message_node.selector", JSON, "schema.message_node.selector", "$.data["),
    ("schema.message_node.selector", JSON, "schema.message_node.selector", ""),
    ("schema.message_node.selector", JSON, "schema.message_node.selector", 42),
    ("schema.card_node.selector", JSON, "schema.card_node.selector", "attributes..."),
    ("schema.card_node.selector", JSON, "schema.card_node.selector", "attributes.`len`"),
    ("schema.card_node.selector", JSON, "schema.card_node.selector", "attributes.`parent`"),
    ("schema.card_node.selector", JSON, "schema.card_node.selector", "attributes & guarantee"),
    ("card_node.card_number.selector", JSON, "card_node.card_number.selector", "card_number +"),
    ("card_node.card_number.selector", JSON, "card_node.card_number.selector", "card_number + 1"),
    ("card_node.card_number.selector", JSON, "card_node.card_number.selector", "`sub(/1/, 2)`"),
    ("card_node.card_number", JSON, "card_node.card_number", ...),
    ("card_node.expiration_month", JSON, "card_node.expiration_month", ...),
    ("card_node.expiration_year.transformation", JSON, "card_node.expiration_year.transformation", "substring:3"),
    ("card_node.expiration_year.transformation", JSON, "card_node.expiration_year.transformation", "substring:7,3"),
    ("card_node.expiration_year.transformation", JSON, "card_node.expiration_year.transformation", "substring:-1,3"),
    ("card_node.expiration_year.transformation", JSON, "card_node.expiration_year.transformation", "upper"),
    ("card_node.service_code.extra", JSON, "card_node.service_code.extra", "x"),
    ("card_node.pin", JSON, "card_node.pin", {"selector": "pin"}),
    ("card_token_placement.type", JSON, "card_token_placement.type", "body"),
    ("card_token_placement.node", JSON, "card_token_placement", {"type": "card_node"}),
    ("card_token_placement.node", JSON, "card_token_placement", {"type": "headers", "node": "token"}),
    ("card_token_placement.error_node", JSON, "card_token_placement", {"type": "headers", "error_node": "e"}),
    ("card_token_placement.node", JSON, "card_token_placement", {"type": "card_node", "node": "a[0].token"}),
    ("card_token_placement.node", JSON, "card_token_placement", {"type": "card_node", "node": "a.*"}),
    ("namespaces", JSON, "namespaces", {"ota": "http://www.opentravel.org/OTA/2003/05"}),
    ("namespaces", XML, "namespaces", {"1ota": "http://www.opentravel.org/OTA/2003/05"}),
    ("schema.message_node.selector", XML, "schema.message_node.selector", "/ota:OTA_ResRetrieveRS/["),
    ("schema.message_node.selector", XML, "schema.message_node.selector", "//x:HotelReservation"),
    ("schema.card_node.selector", XML, "schema.card_node.selector", "count(.//ota:PaymentCard)"),
    ("card_node.card_number.selector", XML, "card_node.card_number.selector", "string(ota:CardNumber)"),
    ("card_node.card_number.selector", XML, "card_node.card_number.selector", "foo(ota:CardNumber)"),
    ("card_node.card_number.selector", XML, "card_node.card_number.selector", "$number"),
    ("card_token_placement.node", XML, "card_token_placement.node", "concat(@a, @b)"),
]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # jsonpath-ng's, on parsing `&`
@pytest.mark.parametrize(("field", "base", "path", "value"), INVALID)
def test_each_invalid_field_is_a_422_naming_it(field, base, path, value):
    assert field in problems(changed(base, path, value))


def test_every_problem_at_once():
    body = changed(JSON, "name", "bad name!")
    body["type"] = "json"
    body["schema"]["message_node"]["selector"] = "$.data["
    body["card_node"]["card_number"]["selector"] = "card_number +"
    body["card_node"]["expiration_month"]["transformation"] = "substring:2,2"
    body["card_token_placement"] = {"type": "card_node"}
    assert set(problems(body)) == {"name", "schema.message_node.selector", "card_node.card_number.selector",
                                   "card_node.expiration_month.transformation", "card_token_placement.node"}


def test_xml_selectors_are_checked_with_the_profiles_namespaces():
    body = changed(XML, "namespaces", {"ota": "http://www.opentravel.org/OTA/2003/05", "bad prefix": "urn:x"})
    assert set(problems(body)) == {"namespaces"}  # the good prefix still serves every selector
    assert "card_node.card_number.selector" in problems(changed(XML, "namespaces", {}))


def test_a_body_that_is_not_an_object_is_a_400():
    with pytest.raises(BadRequest):
        compile_profile(["not", "an", "object"])


def test_transformations_are_kept_normalised():
    body = changed(JSON, "card_node.expiration_year.transformation", "substring: 3 , 7")
    assert compile_profile(body).stored()["card_node"]["expiration_year"]["transformation"] == "substring:3,7"


def test_stored_compiles_back_to_the_same_profile():
    for name in samples.SAMPLES:
        profile = compile_profile(samples.profile(name))
        again = compiled_from_stored(profile.stored())
        assert again.public() == profile.public()
        assert again.fields == profile.fields  # the same compiled selectors, from the cache


def test_public_shape_names_the_node_card_token_node():
    public = compile_profile(XML).public()
    assert public["name"] == "ota_res_retrieve"
    assert public["profile"]["card_token_placement"] == {
        "type": "card_node", "card_token_node": ".//ota:PaymentCard/ota:CardNumber/@Token",
        "error_node": ".//ota:PaymentCard/ota:CardNumber/@TokenError"}
    assert public["profile"]["namespaces"] == {"ota": "http://www.opentravel.org/OTA/2003/05"}
    assert set(public["profile"]["card_node"]) == {"card_number", "cardholder_name", "expiration_month",
                                                   "expiration_year", "service_code"}
    headers = compile_profile(JSON).public()["profile"]
    assert headers["card_token_placement"] == {"type": "headers", "card_token_node": None, "error_node": None}
    assert "namespaces" not in headers


def test_what_get_returns_can_be_put_back():
    read = {"id": "0b7e5f4a-0d55-4c43-9c7e-3b2b1e0e8d11", "built_in": False, "created_at": "2026-11-20T09:00:00.000000",
            "updated_at": "2026-11-20T09:00:00.000000", **compile_profile(XML).public()}
    assert compile_profile(read).stored() == compile_profile(XML).stored()


def test_node_and_card_token_node_together_are_refused():
    body = changed(XML, "card_token_placement.card_token_node", "@Token")
    assert "card_token_placement" in problems(body)


def test_optional_card_fields_may_be_left_out():
    body = changed(changed(JSON, "card_node.cardholder_name", ...), "card_node.service_code", ...)
    assert [rule.name for rule in compile_profile(body).fields] == ["card_number", "expiration_month",
                                                                     "expiration_year"]


def test_builtins():
    for name, message_node in (("frontdesk", "$.data[*]"), ("frontdesk_entity", "$.data")):
        profile = builtin_profile(name)
        assert profile is not None and profile.name == name and profile.type == "json"
        public = profile.public()["profile"]
        assert public["schema"]["message_node"]["selector"] == message_node
        assert public["card_token_placement"]["card_token_node"] == "attributes.guarantee.token"
        assert public["card_token_placement"]["error_node"] == "attributes.guarantee.token_error"
    assert builtin_profile("other") is None
