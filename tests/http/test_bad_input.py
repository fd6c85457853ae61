"""Bad input of any kind gets the error shape, never a 500, and stores nothing."""

from __future__ import annotations

import pytest

JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize("body,reason", [
    (b"{not json", "malformed"),
    (b"", "empty"),
    (b"[]", "not an object"),
    (b'{"title": "No envelope", "currency": "EUR"}', "missing envelope"),
    (b'"property"', "a string"),
    (b"\xff\xfe\xfa", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "deeply nested"),
    (b'{"property": {"title": "\\ud800", "currency": "EUR"}}', "a lone surrogate escape"),
])
def test_unreadable_bodies_are_400(user, live_engine, body, reason):
    response = user.client.post("/api/v1/properties", content=body, headers=JSON)

    assert response.status_code == 400, reason
    assert response.json()["errors"]["code"] == "bad_request"
    assert isinstance(response.json()["errors"]["details"], list)
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


@pytest.mark.parametrize("entity", [None, [], "Hotel", 7, True])
def test_an_envelope_holding_a_non_object_is_400(user, entity):
    response = user.client.post("/api/v1/properties", json={"property": entity})

    assert response.status_code == 400
    assert response.json()["errors"]["code"] == "bad_request"


def test_a_huge_body_is_413(user, live_engine):
    # The session server caps bodies at 1 MiB.
    huge = b'{"property": {"title": "' + b"x" * (2 * 1024 * 1024) + b'", "currency": "EUR"}}'

    response = user.client.post("/api/v1/properties", content=huge, headers=JSON)

    assert response.status_code == 413
    assert response.json()["errors"]["code"] == "payload_too_large"


def test_a_huge_body_without_content_length_is_413(user):
    def chunks():
        yield b'{"property": {"title": "'
        for _ in range(40):
            yield b"x" * 65536
        yield b'"}}'

    response = user.client.post("/api/v1/properties", content=chunks(), headers=JSON)

    assert response.status_code == 413


def test_unknown_routes_and_methods_use_the_error_shape(user):
    missing = user.client.get("/api/v1/nothing-here")
    method = user.client.patch("/api/v1/properties")

    assert missing.status_code == 404 and missing.json()["errors"]["code"] == "not_found"
    assert method.status_code == 405 and method.json()["errors"]["code"] == "method_not_allowed"


def test_a_wrong_content_type_still_reads_json_or_fails_cleanly(user):
    response = user.client.post("/api/v1/properties", content=b"title=Hotel&currency=EUR",
                                headers={"Content-Type": "application/x-www-form-urlencoded"})

    assert response.status_code == 400


@pytest.mark.parametrize("title", ["Hotel\x00", "Hotel\nTwo", "Hotel\tTab", "Bell\x07", "Line\u2028Break", "Mid\x85dle",
                                   "\x00"])
def test_a_control_character_in_a_title_is_422_naming_it_and_nothing_is_stored(user, live_engine, title):
    response = user.client.post("/api/v1/properties", json={"property": {"title": title, "currency": "EUR"}})

    assert response.status_code == 422
    # A NUL is refused as the body is read, in the field's name; other control characters by the title's own rule.
    message = "must not hold a NUL character" if "\x00" in title else "must be one line of text, without control characters"
    assert response.json()["errors"]["details"] == {"title": [message]}
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


def test_a_long_text_keeps_its_lines_but_not_a_nul(user):
    made = user.client.post("/api/v1/properties", json={"property": {
        "title": "Lines", "currency": "EUR", "content": {"description": "First line\n\tSecond line"}}})
    assert made.status_code == 201, made.text
    refused = user.client.post("/api/v1/properties", json={"property": {
        "title": "Nul", "currency": "EUR", "content": {"description": "Before\x00after"}}})
    assert refused.status_code == 422
    assert list(refused.json()["errors"]["details"]) == ["content.description"]
