"""Channels, connecting properties (contact fields required), inbound keys, and the chat application."""

from __future__ import annotations

import hashlib

from tests.conftest import CONTACT, property_body


def _property(user, **fields) -> str:
    return user.client.post("/api/v1/properties", json=property_body(**fields)).json()["data"]["id"]


def _channel(user, **fields):
    return user.client.post("/api/v1/channels", json={"channel": {"title": "Booking.com", "channel_code": "BookingCom",
                                                                  **fields}})


def test_connecting_needs_every_contact_field(user, live_engine):
    bare = _property(user, city="London")

    response = _channel(user, property_ids=[bare])

    assert response.status_code == 422
    details = response.json()["errors"]["details"]
    missing = {key.rsplit(".", 1)[1] for key in details}
    assert missing == set(CONTACT) - {"city"}
    assert all(key.startswith("property_ids.0.") for key in details)
    assert live_engine.store.scalar("SELECT count(*) FROM channels WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


def test_connected_property_counts_its_channels(user):
    property_id = _property(user, **CONTACT)

    first = _channel(user, property_ids=[property_id])
    _channel(user, title="Airbnb", channel_code="AirBNB", property_ids=[property_id])

    assert first.status_code == 201
    attrs = user.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]
    assert attrs["acc_cannels_count"] == 2
    listed = user.client.get("/api/v1/channels", params={"filter[property_id]": property_id}).json()
    assert listed["meta"]["total"] == 2


def test_acc_cannels_count_is_read_only(user):
    property_id = _property(user)

    response = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"acc_cannels_count": 9}})

    assert response.status_code == 200
    assert response.json()["data"]["attributes"]["acc_cannels_count"] == 0


def test_contact_fields_stay_required_while_connected(user):
    property_id = _property(user, **CONTACT)
    _channel(user, property_ids=[property_id])

    response = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"phone": None}})

    assert response.status_code == 422
    assert "phone" in response.json()["errors"]["details"]


def test_inbound_key_is_shown_once_and_stored_hashed(user, live_engine):
    created = _channel(user).json()["data"]
    key = created["attributes"]["inbound_key"]

    shown_again = user.client.get(f"/api/v1/channels/{created['id']}").json()["data"]["attributes"]
    listed = user.client.get("/api/v1/channels").json()["data"]

    assert len(key) >= 32
    assert "inbound_key" not in shown_again and all("inbound_key" not in c["attributes"] for c in listed)
    stored = live_engine.store.scalar("SELECT inbound_key_hash FROM channels WHERE id = ?", (created["id"],))
    assert stored == hashlib.sha256(key.encode()).hexdigest()


def test_channel_update_and_delete(user):
    property_id = _property(user, **CONTACT)
    channel = _channel(user).json()["data"]

    updated = user.client.put(f"/api/v1/channels/{channel['id']}",
                              json={"channel": {"title": "Booking.com EU", "property_ids": [property_id]}})
    recode = user.client.put(f"/api/v1/channels/{channel['id']}", json={"channel": {"channel_code": "AirBNB"}})
    deleted = user.client.delete(f"/api/v1/channels/{channel['id']}")

    assert updated.status_code == 200
    assert updated.json()["data"]["attributes"]["title"] == "Booking.com EU"
    assert updated.json()["data"]["attributes"]["property_ids"] == [property_id]
    assert recode.status_code == 422 and "channel_code" in recode.json()["errors"]["details"]
    assert deleted.json() == {"meta": {"message": "Success"}}
    assert user.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]["acc_cannels_count"] == 0


def test_channel_validation(user):
    bad_code = _channel(user, channel_code="Expedia")
    key_on_ota = _channel(user, provider_api_key="long-enough-key")
    shopping = _channel(user, title="Meta", channel_code="OpenShopping", provider_api_key="long-enough-key")

    assert bad_code.status_code == 422 and "channel_code" in bad_code.json()["errors"]["details"]
    assert key_on_ota.status_code == 422 and "provider_api_key" in key_on_ota.json()["errors"]["details"]
    assert shopping.status_code == 201
    attrs = shopping.json()["data"]["attributes"]
    assert attrs["has_provider_api_key"] is True and "provider_api_key" not in attrs


def test_someone_elses_channel_is_401(make_user):
    owner, stranger = make_user(), make_user()
    channel_id = _channel(owner).json()["data"]["id"]

    for response in (stranger.client.get(f"/api/v1/channels/{channel_id}"),
                     stranger.client.put(f"/api/v1/channels/{channel_id}", json={"channel": {"title": "x"}}),
                     stranger.client.delete(f"/api/v1/channels/{channel_id}")):
        assert response.status_code == 401
    assert stranger.client.get("/api/v1/channels").json()["data"] == []


def test_chat_app_install_list_uninstall(user, live_engine):
    property_id = _property(user)
    body = {"application_installation": {"property_id": property_id, "application_code": "chat"}}

    installed = user.client.post("/api/v1/applications/install", json=body)
    again = user.client.post("/api/v1/applications/install", json=body)
    listed = user.client.get("/api/v1/applications/installed", params={"filter[property_id]": property_id}).json()

    assert installed.status_code == 201
    installation = installed.json()["data"]
    assert installation["type"] == "application_installation"
    assert installation["attributes"]["application_code"] == "chat"
    assert again.status_code == 422
    assert [i["id"] for i in listed["data"]] == [installation["id"]]
    assert live_engine.applications.is_installed(property_id, "chat")

    removed = user.client.delete(f"/api/v1/applications/installed/{installation['id']}")

    assert removed.json() == {"meta": {"message": "Success"}}
    assert not live_engine.applications.is_installed(property_id, "chat")


def test_unknown_application_is_422(user):
    property_id = _property(user)

    response = user.client.post("/api/v1/applications/install", json={"application_installation": {
        "property_id": property_id, "application_code": "payments"}})

    assert response.status_code == 422 and "application_code" in response.json()["errors"]["details"]


def test_null_group_on_update_keeps_the_group(user):
    channel = _channel(user).json()["data"]

    response = user.client.put(f"/api/v1/channels/{channel['id']}", json={"channel": {"group_id": None}})

    assert response.status_code == 200
    assert response.json()["data"]["attributes"]["group_id"] == channel["attributes"]["group_id"]
