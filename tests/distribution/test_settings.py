"""A channel's ARI distribution in its `settings`: checked like the rest of the channel (a 422 naming the field,
nothing stored), an `ari_url` on a private address refused unless the operator allows them, the push signing
secret shown once (and on rotation), and the outbox destination kept as the setting says."""

from __future__ import annotations

import pytest

from backend.core.errors import ValidationFailed
from tests.conftest import CONTACT
from tests.distribution.hotel import make_hotel
from tests.shopping.shop import check

PUSH = {"ari_distribution": "push", "ari_url": "https://ota.example.com/ari"}


def destination(live, channel_id: str):
    return live[0].store.one("SELECT kind, cursor FROM destinations WHERE id = ?", (channel_id,))


@pytest.mark.parametrize(("settings", "field"), [
    ({"ari_distribution": "push"}, "settings.ari_url"),
    ({"ari_distribution": "push", "ari_url": "ftp://ota.example.com/"}, "settings.ari_url"),
    ({**PUSH, "ari_format": "xml"}, "settings.ari_format"),
    ({"ari_distribution": "sometimes"}, "settings.ari_distribution"),
    ({**PUSH, "hotel_codes": ["H-1"]}, "settings.hotel_codes"),
])
def test_a_bad_setting_is_a_422_naming_it_and_stores_nothing(live, user, settings, field):
    hotel = make_hotel(user.client, settings={"ari_distribution": "pull", "hotel_id": "kept"})
    answer = user.client.put(f"/api/v1/channels/{hotel.channel_id}", json={"channel": {"settings": settings}})
    assert field in check(answer, 422)["errors"]["details"]
    assert check(user.client.get(f"/api/v1/channels/{hotel.channel_id}"))["data"]["attributes"]["settings"] == {
        "ari_distribution": "pull", "hotel_id": "kept"}


def test_an_ari_url_on_a_private_address_is_refused_unless_allowed(engine):
    """The `engine` fixture's config keeps the default: no private addresses (the test servers allow them)."""
    operator = engine.identity.operator()
    prop = engine.properties.create(operator, {"title": "Inn", "currency": "EUR", **CONTACT})
    with pytest.raises(ValidationFailed) as refused:
        engine.channels.create(operator, {"title": "OTA", "channel": "BookingCom", "properties": [prop["id"]],
                                          "settings": {"ari_distribution": "push", "ari_url": "http://127.0.0.1/ari"}})
    assert "private or local address" in refused.value.details["settings.ari_url"][0]
    assert engine.store.scalar("SELECT count(*) FROM channels WHERE title = 'OTA'") == 0


def test_the_signing_secret_is_shown_once_and_on_rotation(user):
    hotel = make_hotel(user.client, settings=PUSH)
    secret = hotel.channel["ari_secret"]
    assert secret.startswith("whsec_")
    path = f"/api/v1/channels/{hotel.channel_id}"
    assert "ari_secret" not in check(user.client.get(path))["data"]["attributes"]
    assert "ari_secret" not in hotel.update(title="Renamed", **{"ari_secret": "ignored"})["attributes"]
    rotated = check(user.client.post(f"{path}/ari_secret"))["data"]["attributes"]["ari_secret"]
    assert rotated.startswith("whsec_") and rotated != secret

    turned = make_hotel(user.client)  # a channel that turns to push later gets its secret then
    assert "ari_secret" not in turned.channel
    assert turned.update(settings=PUSH)["attributes"]["ari_secret"].startswith("whsec_")
    assert "ari_secret" not in turned.update(settings={**PUSH, "ari_format": "ota"})["attributes"]


def test_a_channel_that_takes_no_ari_has_no_sync(live, user):
    hotel = make_hotel(user.client)
    path = f"/api/v1/channels/{hotel.channel_id}"
    assert check(user.client.get(path))["data"]["attributes"]["sync"] is None
    for action in ("full_sync", "resume_sync"):
        assert check(user.client.post(f"{path}/{action}"), 422)["errors"]["code"] == "not_supported"
    pull = make_hotel(user.client, settings={"ari_distribution": "pull"})
    rotate = user.client.post(f"/api/v1/channels/{pull.channel_id}/ari_secret")
    assert check(rotate, 422)["errors"]["code"] == "not_supported"  # only a push channel signs
    assert destination(live, hotel.channel_id) is None


def test_the_destination_follows_the_setting(live, user):
    hotel = make_hotel(user.client, settings={"ari_distribution": "pull"})
    assert destination(live, hotel.channel_id)["kind"] == "channel"
    assert hotel.sync() == {"ari_distribution": "pull", "waiting": 0, "last_delivered_at": None,
                            "failing_since": None, "last_error": None, "attempts": 0, "next_attempt_at": None,
                            "cursor": destination(live, hotel.channel_id)["cursor"]}
    hotel.update(settings={})
    assert destination(live, hotel.channel_id) is None and hotel.sync() is None
    hotel.update(settings=PUSH)
    assert destination(live, hotel.channel_id) is not None
    check(user.client.delete(f"/api/v1/channels/{hotel.channel_id}"))
    assert destination(live, hotel.channel_id) is None


def test_someone_elses_channel_is_a_401(user, make_user):
    hotel = make_hotel(user.client, settings={"ari_distribution": "pull"})
    stranger = make_user()
    for method, action in (("post", "full_sync"), ("post", "resume_sync"), ("post", "ari_secret"),
                           ("get", "deliveries")):
        answer = getattr(stranger.client, method)(f"/api/v1/channels/{hotel.channel_id}/{action}")
        assert check(answer, 401)["errors"]["code"] == "unauthorized"
