"""Every rule of the spec's property table: one invalid value each → 422 naming the field, nothing stored."""

from __future__ import annotations

import pytest

from tests.conftest import property_body

VALID = {"title": "Test Hotel", "currency": "GBP"}

# (field to report, the body's property object)
INVALID = [
    ("title", {"currency": "GBP"}),
    ("title", {"title": "", "currency": "GBP"}),
    ("title", {"title": "   ", "currency": "GBP"}),
    ("title", {"title": "x" * 256, "currency": "GBP"}),
    ("title", {"title": 42, "currency": "GBP"}),
    ("currency", {"title": "T"}),
    ("currency", {**VALID, "currency": "EURO"}),
    ("currency", {**VALID, "currency": "eur"}),
    ("currency", {**VALID, "currency": "ZZZ"}),
    ("email", {**VALID, "email": "not-an-email"}),
    ("email", {**VALID, "email": "a@b@c.com"}),
    ("phone", {**VALID, "phone": "call me maybe"}),
    ("phone", {**VALID, "phone": "1" * 33}),
    ("phone", {**VALID, "phone": 442079460000}),
    ("zip_code", {**VALID, "zip_code": "1" * 33}),
    ("country", {**VALID, "country": "XX"}),
    ("country", {**VALID, "country": "GBR"}),
    ("country", {**VALID, "country": "gb"}),
    ("state", {**VALID, "state": "s" * 256}),
    ("city", {**VALID, "city": "c" * 256}),
    ("address", {**VALID, "address": "a" * 256}),
    ("longitude", {**VALID, "longitude": "180.0000001"}),
    ("longitude", {**VALID, "longitude": "-181"}),
    ("longitude", {**VALID, "longitude": "1.12345678"}),
    ("longitude", {**VALID, "longitude": "east"}),
    ("longitude", {**VALID, "longitude": 12.5}),
    ("latitude", {**VALID, "latitude": "90.5"}),
    ("latitude", {**VALID, "latitude": "1.12345678"}),
    ("latitude", {**VALID, "latitude": "1e5"}),
    ("timezone", {**VALID, "timezone": "Mars/Olympus_Mons"}),
    ("timezone", {**VALID, "timezone": "UTC+2"}),
    ("facilities.0", {**VALID, "facilities": ["0c6f2a1e-5d3b-4c8a-9e7f-1a2b3c4d5e6f"]}),  # no such facility
    ("facilities.0", {**VALID, "facilities": [7]}),
    ("facilities", {**VALID, "facilities": "Free WiFi"}),
    ("property_type", {**VALID, "property_type": "castle"}),
    ("group_id", {**VALID, "group_id": "7d1e9b3a-2c4f-4a6b-8d0e-9f8a7b6c5d4e"}),  # nobody's group
    ("settings", {**VALID, "settings": "fast"}),
    ("settings.state_length", {**VALID, "settings": {"state_length": 99}}),
    ("settings.state_length", {**VALID, "settings": {"state_length": 731}}),
    ("settings.state_length", {**VALID, "settings": {"state_length": "500"}}),
    ("settings.state_length", {**VALID, "settings": {"state_length": 365.5}}),
    ("settings.cut_off_time", {**VALID, "settings": {"cut_off_time": "18:15:00"}}),
    ("settings.cut_off_time", {**VALID, "settings": {"cut_off_time": "24:00:00"}}),
    ("settings.cut_off_time", {**VALID, "settings": {"cut_off_time": "18:00"}}),
    ("settings.cut_off_time", {**VALID, "settings": {"cut_off_time": "18:30:15"}}),
    ("settings.cut_off_days", {**VALID, "settings": {"cut_off_days": -1}}),
    ("settings.min_stay_type", {**VALID, "settings": {"min_stay_type": "sometimes"}}),
    ("settings.min_price", {**VALID, "settings": {"min_price": -1}}),
    ("settings.min_price", {**VALID, "settings": {"min_price": "cheap"}}),
    ("settings.max_price", {**VALID, "settings": {"max_price": True}}),
    ("settings.max_price", {**VALID, "settings": {"min_price": 20000, "max_price": "100.00"}}),  # 200.00 > 100.00
    ("settings.min_price", {**VALID, "settings": {"min_price": 49.5}}),  # a float would round
    ("settings.min_price", {**VALID, "settings": {"min_price": "49.505"}}),  # EUR has two decimals
    ("settings.allow_availability_autoupdate_on_confirmation",
     {**VALID, "settings": {"allow_availability_autoupdate_on_confirmation": "yes"}}),
    ("settings.allow_availability_autoupdate_on_modification",
     {**VALID, "settings": {"allow_availability_autoupdate_on_modification": 1}}),
    ("settings.allow_availability_autoupdate_on_cancellation",
     {**VALID, "settings": {"allow_availability_autoupdate_on_cancellation": None}}),
    ("settings.allow_availability_autoupdate", {**VALID, "settings": {"allow_availability_autoupdate": "no"}}),
    ("settings.speed", {**VALID, "settings": {"speed": 3}}),
    ("content.description", {**VALID, "content": {"description": 5}}),
    ("content.important_information", {**VALID, "content": {"important_information": ["a"]}}),
    ("content.photos", {**VALID, "content": {"photos": {"url": "https://x.example/a.jpg"}}}),
    ("content.photos.0.url", {**VALID, "content": {"photos": [{"url": "not a url"}]}}),
    ("content.photos.0.url", {**VALID, "content": {"photos": [{"kind": "photo"}]}}),
    ("content.photos.0.kind", {**VALID, "content": {"photos": [{"url": "https://x.example/a.jpg", "kind": "selfie"}]}}),
    ("content.photos.1.position",
     {**VALID, "content": {"photos": [{"url": "https://x.example/a.jpg"}, {"url": "https://x.example/b.jpg", "position": -1}]}}),
    ("content.photos.0.author", {**VALID, "content": {"photos": [{"url": "https://x.example/a.jpg", "author": "a" * 256}]}}),
    ("logo_url", {**VALID, "logo_url": "not a url"}),
    ("logo_url", {**VALID, "logo_url": "ftp://example.com/logo.png"}),
    ("website", {**VALID, "website": "www.example.com"}),
    ("website", {**VALID, "website": "javascript:alert(1)"}),
    ("is_active", {**VALID, "is_active": "yes"}),
    ("colour", {**VALID, "colour": "blue"}),
]


def _ids(case):
    field, body = case
    return f"{field}={str(body.get(field.split('.')[0], '<missing>'))[:20]}"


@pytest.mark.parametrize("field,body", INVALID, ids=[_ids(c) for c in INVALID])
def test_create_rejects_the_field_and_stores_nothing(user, live_engine, field, body):
    response = user.client.post("/api/v1/properties", json={"property": body})

    assert response.status_code == 422, response.text
    error = response.json()["errors"]
    assert error["code"] == "validation_error" and error["title"] == "Validation Error"
    assert field in error["details"], error["details"]
    assert all(isinstance(m, str) and m for m in error["details"][field])
    assert live_engine.store.scalar("SELECT count(*) FROM properties WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


@pytest.mark.parametrize("field,body", [c for c in INVALID if c[1].get("title") and c[1].get("currency")],
                         ids=[_ids(c) for c in INVALID if c[1].get("title") and c[1].get("currency")])
def test_update_rejects_the_field_and_changes_nothing(user, live_engine, field, body):
    created = user.client.post("/api/v1/properties", json=property_body(title="Before")).json()["data"]
    changes = {k: v for k, v in body.items() if k not in VALID or k == field}

    response = user.client.put(f"/api/v1/properties/{created['id']}", json={"property": changes})

    assert response.status_code == 422, response.text
    assert field in response.json()["errors"]["details"]
    assert user.client.get(f"/api/v1/properties/{created['id']}").json()["data"] == created


def test_every_bad_field_is_reported_at_once(user):
    body = {"title": "", "currency": "EURO", "country": "XX", "settings": {"state_length": 5}}

    details = user.client.post("/api/v1/properties", json={"property": body}).json()["errors"]["details"]

    assert {"title", "currency", "country", "settings.state_length"} <= set(details)


def test_another_users_group_is_refused(make_user):
    owner, other = make_user(), make_user()

    response = other.client.post("/api/v1/properties",
                                 json=property_body(group_id=owner.actor.default_group_id))

    assert response.status_code == 422
    assert response.json()["errors"]["details"]["group_id"] == ["is not a group of yours"]
